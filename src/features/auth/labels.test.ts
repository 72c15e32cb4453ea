import { describe, expect, it } from 'vitest';
import { SUCCESS_TOAST_LABEL } from '../../ui/Toast';
import { cardErrorLabel, cardNames, RESEND_ERROR_LABEL } from './useAuthForm';

describe('toast labels (spec/platform.md §2, §8)', () => {
  it("are '<card name> Error' for every auth card", () => {
    expect(cardNames.map(cardErrorLabel)).toEqual([
      'Login Card Error',
      'Sign Up Card Error',
      'Confirm Card Error',
      'Forgot Password Card Error',
      'Reset Password Card Error',
    ]);
  });

  it('has the resend and success labels', () => {
    expect(RESEND_ERROR_LABEL).toBe('Resend Confirmation Code Error');
    expect(SUCCESS_TOAST_LABEL).toBe('Success Notification');
  });
});
