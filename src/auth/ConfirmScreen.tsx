import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { accountApi } from '../api/account';
import { ServerError } from '../api/errors';
import { authPaths } from '../app/paths';
import { useCarriedAnswers, useNavState } from '../session/navState';
import { Button } from '../ui/Button';
import { TextInput } from '../ui/TextInput';
import { useToast } from '../ui/Toast';
import { AuthCard } from './AuthCard';
import { RESEND_ERROR_LABEL, useAuthForm } from './useAuthForm';
import { confirmSchema, normalizeUsername, resendSchema, validate } from './validation';

export function ConfirmScreen() {
  const navigate = useNavigate();
  const state = useNavState();
  const answers = useCarriedAnswers();
  const { showToast } = useToast();
  const [resending, setResending] = useState(false);

  const form = useAuthForm({
    schema: confirmSchema,
    initial: { username: state.username ?? '', code: '' },
    cardName: 'Confirm Card',
    submit: async (values) => {
      const { message } = await accountApi.confirm({ username: values.username, code: values.code.trim() });
      navigate(authPaths.login, { state: { successMessage: message, username: normalizeUsername(values.username), answers } });
    },
  });

  async function resend() {
    const errors = validate(resendSchema, { username: form.values.username });
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      document.getElementById('username')?.focus();
      return;
    }
    setResending(true);
    try {
      const { message } = await accountApi.resendConfirm({ username: form.values.username });
      showToast({ severity: 'success', label: 'Success Notification', message });
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: RESEND_ERROR_LABEL, message: error.message });
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthCard
      title="Confirm Your Account"
      intro="We e-mailed you a 6-digit code. It expires in 15 minutes."
      onSubmit={form.onSubmit}
      footer={{ question: 'Already confirmed?', linkText: 'Sign In', to: authPaths.login, answers }}
    >
      <TextInput
        id="username"
        label="Email Address"
        inputMode="email"
        autoComplete="username"
        maxLength={254}
        value={form.values.username}
        onChange={(v) => form.setValue('username', v)}
        errors={form.errors.username}
      />
      <TextInput
        id="code"
        label="Confirmation Code"
        hint="The 6 numbers from the e-mail. You can paste them."
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={12}
        value={form.values.code}
        // Pasted codes often come with spaces or a dash: keep only the digits.
        onChange={(v) => form.setValue('code', v.replace(/\D/g, '').slice(0, 6))}
        errors={form.errors.code}
      />
      <div className="card__actions">
        <Button type="submit" loading={form.submitting}>
          Confirm Account
        </Button>
        <Button variant="secondary" loading={resending} onClick={() => void resend()}>
          Send a new code
        </Button>
      </div>
    </AuthCard>
  );
}
