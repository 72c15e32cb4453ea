import { useLayoutEffect, useState, type FormEvent } from 'react';
import { fieldErrorsOf, ServerError } from '../../lib/api/errors';
import { useScreenToasts } from '../../ui/Toast';
import { validateAccountForm, type AccountForm } from '../../../domain/rules/account';
import type { FieldErrors } from '../../../domain/rules/collect';

/** Card names of spec/platform.md §8, used in the error toast '<card name> Error'. */
export type CardName = 'Login Card' | 'Sign Up Card' | 'Confirm Card' | 'Forgot Password Card' | 'Reset Password Card';
const cardErrorLabel = (card: CardName) => `${card} Error`;
/** Errors of the resend call have their own label (spec/platform.md §8). */
export const RESEND_ERROR_LABEL = 'Resend Confirmation Code Error';

/**
 * One auth card's form: validate on submit and call the server only when there are no errors
 * (spec/platform.md §4); server errors show in the '<card name> Error' toast and, when the server
 * names fields, next to them.
 */
export function useAuthForm<T extends Record<string, string>>(options: {
  form: AccountForm;
  initial: T;
  cardName: CardName;
  submit: (values: T) => Promise<void>;
}) {
  const [values, setValues] = useState<T>(options.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  // A card's error toasts belong to its screen: they go with it, not onto the form.
  const showToast = useScreenToasts();

  const setValue = (field: keyof T & string, value: string) => setValues((current) => ({ ...current, [field]: value }));

  // A screen rendered ahead (src/prerender.tsx) can be typed in, or filled by the browser, before
  // the app hydrates it: React keeps what the fields show but not in this state. Taken in once, at
  // the first commit (a screen drawn by the app itself shows its state: nothing differs).
  useLayoutEffect(() => {
    const shown: Partial<Record<string, string>> = {};
    for (const field of Object.keys(values)) {
      const input = document.getElementById(field);
      if (input instanceof HTMLInputElement && input.value !== values[field]) shown[field] = input.value;
    }
    if (Object.keys(shown).length > 0) setValues((current) => ({ ...current, ...shown }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, at the first commit

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    const found = validateAccountForm(options.form, values);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await options.submit(values);
    } catch (error) {
      if (error instanceof ServerError) {
        const fields = fieldErrorsOf(error);
        if (Object.keys(fields).length) setErrors(fields);
        showToast({ severity: 'error', label: cardErrorLabel(options.cardName), message: error.message });
      } else {
        throw error;
      }
    } finally {
      setSubmitting(false);
    }
  }

  return { values, setValue, errors, setErrors, submitting, onSubmit };
}
