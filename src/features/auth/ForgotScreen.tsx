import { useState } from 'react';
import { forgotPassword } from './api/forgotPassword';
import { authPaths } from '../../lib/paths';
import { useCarry, useNavState } from '../../lib/navState';
import { Button } from '../../ui/Button';
import { AuthCard } from './AuthCard';
import { EmailField } from './fields';
import { useAuthForm } from './useAuthForm';

export function ForgotScreen() {
  const state = useNavState();
  const carry = useCarry();
  const [sent, setSent] = useState<string | null>(null);

  const form = useAuthForm({
    form: 'forgot',
    initial: { username: state.username ?? '' },
    cardName: 'Forgot Password Card',
    submit: async (values) => {
      const { message } = await forgotPassword(values);
      setSent(message);
    },
  });

  return (
    <AuthCard
      title="Forgot Password"
      intro="Enter your e-mail address and we will send you a link to choose a new password."
      onSubmit={form.onSubmit}
      footer={{ question: 'Remembered your password?', linkText: 'Sign In', to: authPaths.login, carry }}
      notice={
        <div role="status">
          {sent && <p className="notice notice--success">{sent}</p>}
        </div>
      }
    >
      <EmailField id="username" label="Email Address" value={form.values.username} onChange={(v) => form.setValue('username', v)} errors={form.errors} />
      <div className="card__actions">
        <Button type="submit" loading={form.submitting}>
          Send Reset Link
        </Button>
      </div>
    </AuthCard>
  );
}
