import { useNavigate } from 'react-router-dom';
import { signup } from './api/signup';
import { authPaths } from '../../lib/paths';
import { useCarry, useNavState } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { AuthCard } from './AuthCard';
import { EmailField, PasswordField } from './fields';
import { PasswordRequirements } from './PasswordRequirements';
import { useAuthForm } from './useAuthForm';
import { normalizeUsername } from '../../../domain/rules/account';

export function SignupScreen() {
  const navigate = useNavigate();
  const state = useNavState();
  const carry = useCarry();

  const form = useAuthForm({
    form: 'signup',
    initial: { username: state.username ?? '', password: '' },
    cardName: 'Sign Up Card',
    submit: async (values) => {
      // Only a visitor's answers start the new account; another account's unsaved answers stay theirs.
      const answers = carry.owner === null ? carry.answers : {};
      const { message } = await signup({ ...values, ...(Object.keys(answers).length ? { answer: answers } : {}) });
      navigate(authPaths.confirm, { state: { successMessage: message, username: normalizeUsername(values.username), carry } });
    },
  });

  return (
    <AuthCard
      title="Create Account"
      intro="Create an account to save your answers and finish your application at any time."
      onSubmit={form.onSubmit}
      footer={{ question: 'Already have an account?', linkText: 'Sign In', to: authPaths.login, carry }}
    >
      <EmailField
        id="username"
        label="Email Address"
        hint="We will e-mail you a code to confirm it."
        autoComplete="email"
        value={form.values.username}
        onChange={(v) => form.setValue('username', v)}
        errors={form.errors}
      />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="new-password"
        value={form.values.password}
        onChange={(v) => form.setValue('password', v)}
        errors={form.errors}
      />
      <PasswordRequirements id="password-requirements" password={form.values.password} />
      <div className="card__actions">
        <Button type="submit" loading={form.submitting}>
          Create Account
        </Button>
      </div>
    </AuthCard>
  );
}
