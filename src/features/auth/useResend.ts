import { useState } from 'react';
import { resendConfirm } from './api/resendConfirm';
import { ServerError } from '../../lib/api/errors';
import { useScreenToasts } from '../../ui/Toast';
import { RESEND_ERROR_LABEL } from './useAuthForm';
import { validateAccountForm } from '../../../domain/rules/account';
import type { FieldErrors } from '../../../domain/rules/collect';

/**
 * Resending the confirmation code: needs a valid e-mail first (spec/platform.md §4); errors show
 * in the 'Resend Confirmation Code Error' toast.
 */
export function useResend(options: { setErrors: (errors: FieldErrors) => void; onSent: (message: string) => void }) {
  const [resending, setResending] = useState(false);
  const showToast = useScreenToasts();

  async function resend(username: string) {
    const errors = validateAccountForm('resend', { username });
    if (Object.keys(errors).length > 0) {
      options.setErrors(errors);
      document.getElementById('username')?.focus();
      return;
    }
    setResending(true);
    try {
      const { message } = await resendConfirm({ username });
      options.onSent(message);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: RESEND_ERROR_LABEL, message: error.message });
    } finally {
      setResending(false);
    }
  }

  return { resend, resending };
}
