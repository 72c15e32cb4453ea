import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { login } from './api/login';
import { landingPath, profileQuery } from '../../lib/api/profile';
import { ServerError } from '../../lib/api/errors';
import { DEFAULT_FORM_PATH, authPaths } from '../../lib/paths';
import { useQueryClient } from '@tanstack/react-query';
import { forgetAnswersOfOthers, useCarry, useNavState } from '../../lib/navState';
import { tellOtherTabs } from '../../lib/tabSync';
import { sessionStarted } from '../../lib/sessionEnd';
import { Button } from '../../ui/Button';
import { AuthCard } from './AuthCard';
import { EmailField, PasswordField } from './fields';
import { useAuthForm } from './useAuthForm';
import { useResend } from './useResend';
import { normalizeUsername } from '../../../domain/rules/account';

export function LoginScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useNavState();
  const carry = useCarry();
  const [unconfirmed, setUnconfirmed] = useState(false);
  // The notice a logout or a session end brought is shown until the next attempt to sign in, and
  // not again after a reload (it leaves the history entry once read).
  const [notice, setNotice] = useState(state.error);
  const location = useLocation();
  useEffect(() => {
    if (state.error) navigate(location, { replace: true, state: { ...state, error: undefined } });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, with the state the screen opened with

  const form = useAuthForm({
    form: 'login',
    initial: { username: state.username ?? '', password: '' },
    cardName: 'Login Card',
    submit: async (values) => {
      setUnconfirmed(false);
      setNotice(undefined);
      try {
        const { message } = await login(values);
        const username = normalizeUsername(values.username);
        // A new session: nothing cached or kept for another account may reach this one.
        sessionStarted();
        tellOtherTabs({ type: 'signed-in', username });
        queryClient.clear();
        forgetAnswersOfOthers(username);
        // Answers typed before signing in (a visitor's, or this account's own when its session
        // ended) go on to the form, which saves them to the account.
        const ownCarry = carry.owner === null || carry.owner === username;
        // The form opens where the applicant left it, at that page's own address (the profile is
        // read here, and the form then has it); with answers carried, at the first page, as
        // before; a profile that cannot be read opens the first page too.
        const carrying = ownCarry && Object.keys(carry.answers).length > 0;
        const landing = carrying ? DEFAULT_FORM_PATH : await queryClient.fetchQuery(profileQuery).then(landingPath, () => DEFAULT_FORM_PATH);
        navigate(landing, { state: { successMessage: message, ...(ownCarry ? { carry } : {}) } });
      } catch (error) {
        if (error instanceof ServerError && error.code === 'UNCONFIRMED') setUnconfirmed(true);
        throw error;
      }
    },
  });

  const { resend, resending } = useResend({
    setErrors: form.setErrors,
    onSent: (message) =>
      navigate(authPaths.confirm, { state: { successMessage: message, username: normalizeUsername(form.values.username), carry } }),
  });

  return (
    <AuthCard
      title="Sign In"
      onSubmit={form.onSubmit}
      footer={{ question: "Don't have an account?", linkText: 'Create Account', to: authPaths.signup, carry }}
      notice={
        notice ? (
          <p className="notice notice--error" role="alert">
            {notice}
          </p>
        ) : undefined
      }
    >
      <EmailField id="username" label="Email Address" value={form.values.username} onChange={(v) => form.setValue('username', v)} errors={form.errors} />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="current-password"
        value={form.values.password}
        onChange={(v) => form.setValue('password', v)}
        errors={form.errors}
      />
      <p>
        <Link to={authPaths.forgot} state={{ carry, username: form.values.username }}>
          Forgot password?
        </Link>
      </p>
      <div className="card__actions">
        <Button type="submit" loading={form.submitting}>
          Sign In
        </Button>
      </div>
      <div className="card__resend">
        <p>{unconfirmed ? 'Your account needs the code we e-mailed you.' : "Didn't get your confirmation code?"}</p>
        <Button variant="secondary" loading={resending} onClick={() => void resend(form.values.username)}>
          Resend confirmation code
        </Button>
      </div>
    </AuthCard>
  );
}
