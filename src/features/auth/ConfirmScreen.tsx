import { useNavigate } from 'react-router-dom';
import { confirm } from './api/confirm';
import { authPaths } from '../../lib/paths';
import { useCarry, useNavState } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { TextInput } from '../../ui/TextInput';
import { SUCCESS_TOAST_LABEL, useToast } from '../../ui/Toast';
import { AuthCard } from './AuthCard';
import { EmailField } from './fields';
import { useAuthForm } from './useAuthForm';
import { useResend } from './useResend';
import { normalizeUsername } from '../../../domain/rules/account';

export function ConfirmScreen() {
  const navigate = useNavigate();
  const state = useNavState();
  const carry = useCarry();
  const { showToast } = useToast();

  const form = useAuthForm({
    form: 'confirm',
    initial: { username: state.username ?? '', code: '' },
    cardName: 'Confirm Card',
    submit: async (values) => {
      const { message } = await confirm({ username: values.username, code: values.code.trim() });
      navigate(authPaths.login, { state: { successMessage: message, username: normalizeUsername(values.username), carry } });
    },
  });

  const { resend, resending } = useResend({
    setErrors: form.setErrors,
    onSent: (message) => showToast({ severity: 'success', label: SUCCESS_TOAST_LABEL, message }),
  });

  return (
    <AuthCard
      title="Confirm Your Account"
      intro="We e-mailed you a 6-digit code. It expires in 15 minutes."
      onSubmit={form.onSubmit}
      footer={{ question: 'Already confirmed?', linkText: 'Sign In', to: authPaths.login, carry }}
    >
      <EmailField id="username" label="Email Address" value={form.values.username} onChange={(v) => form.setValue('username', v)} errors={form.errors} />
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
        <Button variant="secondary" loading={resending} onClick={() => void resend(form.values.username)}>
          Send a new code
        </Button>
      </div>
    </AuthCard>
  );
}
