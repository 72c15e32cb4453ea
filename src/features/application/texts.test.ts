import { describe, expect, it } from 'vitest';
import type { ClientSnapshot } from './formState';
import { bannerShows, bannerTexts } from './Banner';
import { ERROR_SUMMARY_HEADING } from './ErrorSummary';
import { UPLOAD_NEEDS_ACCOUNT } from '../documents/DocumentField';
import { SUBMITTED_MESSAGE } from './FormPage';

describe('form texts (spec/form.md §2, §5)', () => {
  it('are the spec strings', () => {
    expect(ERROR_SUMMARY_HEADING).toBe("We're missing some information!");
    expect(SUBMITTED_MESSAGE).toBe('Your application was successfully submitted.');
    expect(UPLOAD_NEEDS_ACCOUNT).toBe('This question can be finished once you have created an account.');
    expect(bannerTexts).toEqual({
      submittedBlurb: 'Congratulations on completing the online portion of your application!',
      firstLogin: "You're in! Now, let's get started on your application!",
      welcomeBack: 'Welcome back!',
      anonymous: 'Hello!',
    });
  });
});

describe('when the banner shows', () => {
  const snapshot = (over: Partial<ClientSnapshot>): ClientSnapshot => ({
    username: null, last_page: null, is_logged_in: true, is_service_user: false, num_logins: 1, has_changed_page: false, web_status: 'started', ...over,
  });
  it.each([
    [{ web_status: 'submitted' as const, has_changed_page: true }, true],
    [{ is_logged_in: false, has_changed_page: true, web_status: null }, true],
    [{ has_changed_page: false }, true],
    [{ has_changed_page: true }, false],
    [{ web_status: 'validating' as const, has_changed_page: false }, false],
    [{ web_status: 'validating' as const, is_logged_in: false }, false],
  ])('%j → %s', (over, shows) => {
    expect(bannerShows(snapshot(over))).toBe(shows);
  });
});
