import { describe, expect, it } from 'vitest';
import { ACCOUNT_CHANGED_MESSAGE, ANSWERS_CHANGED_MESSAGE, NO_FEE_MESSAGE } from './messages';

describe('the texts of issue 28', () => {
  it('says there is no fee and every applicant is considered for scholarships (spec/platform.md §1, spec/form.md §1)', () => {
    expect(NO_FEE_MESSAGE).toBe('There is no application fee, and every applicant is automatically considered for scholarships.');
  });

  it('says what happened to a save from another tab, and what to do', () => {
    expect(ANSWERS_CHANGED_MESSAGE).toBe('Some answers were changed in another tab or on another device. Choose which to keep.');
    expect(ACCOUNT_CHANGED_MESSAGE).toBe('This page was opened for another account, so nothing was saved. It now shows the account that is signed in.');
  });
});
