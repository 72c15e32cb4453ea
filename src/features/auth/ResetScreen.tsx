import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { resetPassword } from './api/resetPassword';
import { authPaths } from '../../lib/paths';
import { useCarry } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { AuthCard } from './AuthCard';
import { EmailField, PasswordField } from './fields';
import { PasswordRequirements } from './PasswordRequirements';
import { useAuthForm } from './useAuthForm';
import { normalizeUsername } from '../../../domain/rules/account';

export function ResetScreen() {
  const navigate = useNavigate();
  const carry = useCarry();
  const [params] = useSearchParams();

  const form = useAuthForm({
    form: 'reset',
    initial: { username: params.get('username') ?? '', password: '', confirm_password: '', id: params.get('id') ?? '' },
    cardName: 'Reset Password Card',
    submit: async (values) => {
      const { message } = await resetPassword(values);
      navigate(authPaths.login, { state: { successMessage: message, username: normalizeUsername(values.username), carry } });
    },
  });

  return (
    <AuthCard
      title="Reset Password"
      intro="Choose a new password for your account."
      onSubmit={form.onSubmit}
      footer={{ question: 'Remembered your password?', linkText: 'Sign In', to: authPaths.login, carry }}
      notice={
        // The toast says why the link failed; this says what to do next, without saying it twice.
        form.errors.id ? (
          <p className="notice notice--error">
            Need a new link?{' '}
            <Link to={authPaths.forgot} state={{ carry, username: form.values.username }}>
              Ask for a new reset link
            </Link>
            .
          </p>
        ) : undefined
      }
    >
      <EmailField id="username" label="Email Address" value={form.values.username} onChange={(v) => form.setValue('username', v)} errors={form.errors} />
      <PasswordField
        id="password"
        label="New Password"
        autoComplete="new-password"
        value={form.values.password}
        onChange={(v) => form.setValue('password', v)}
        errors={form.errors}
      />
      <PasswordRequirements id="password-requirements" password={form.values.password} />
      <PasswordField
        id="confirm_password"
        label="Confirm New Password"
        autoComplete="new-password"
        value={form.values.confirm_password}
        onChange={(v) => form.setValue('confirm_password', v)}
        errors={form.errors}
      />
      <div className="card__actions">
        <Button type="submit" loading={form.submitting}>
          Reset Password
        </Button>
      </div>
    </AuthCard>
  );
}
