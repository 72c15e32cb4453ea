import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { accountApi } from '../api/account';
import { ServerError } from '../api/errors';
import { DEFAULT_FORM_PATH, authPaths } from '../app/paths';
import { clearPendingAnswers, useCarriedAnswers, useNavState } from '../session/navState';
import { Button } from '../ui/Button';
import { TextInput } from '../ui/TextInput';
import { useToast } from '../ui/Toast';
import { AuthCard } from './AuthCard';
import { RESEND_ERROR_LABEL, useAuthForm } from './useAuthForm';
import { loginSchema, normalizeUsername, resendSchema, validate } from './validation';

export function LoginScreen() {
  const navigate = useNavigate();
  const state = useNavState();
  const answers = useCarriedAnswers();
  const { showToast } = useToast();
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [resending, setResending] = useState(false);

  const form = useAuthForm({
    schema: loginSchema,
    initial: { username: state.username ?? '', password: '' },
    cardName: 'Login Card',
    submit: async (values) => {
      setUnconfirmed(false);
      try {
        const { message } = await accountApi.login(values);
        // The answers typed before signing in are saved to the account now.
        if (Object.keys(answers).length > 0) await accountApi.putAnswer(answers);
        clearPendingAnswers();
        navigate(DEFAULT_FORM_PATH, { state: { successMessage: message, answers } });
      } catch (error) {
        if (error instanceof ServerError && error.code === 'UNCONFIRMED') setUnconfirmed(true);
        throw error;
      }
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
      navigate(authPaths.confirm, { state: { successMessage: message, username: normalizeUsername(form.values.username), answers } });
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      showToast({ severity: 'error', label: RESEND_ERROR_LABEL, message: error.message });
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthCard
      title="Sign In"
      onSubmit={form.onSubmit}
      footer={{ question: "Don't have an account?", linkText: 'Create Account', to: authPaths.signup, answers }}
      notice={
        state.error ? (
          <p className="notice notice--error" role="alert">
            {state.error}
          </p>
        ) : undefined
      }
    >
      <TextInput
        id="username"
        label="Email Address"
        type="text"
        inputMode="email"
        autoComplete="username"
        maxLength={254}
        value={form.values.username}
        onChange={(v) => form.setValue('username', v)}
        errors={form.errors.username}
      />
      <TextInput
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        maxLength={256}
        value={form.values.password}
        onChange={(v) => form.setValue('password', v)}
        errors={form.errors.password}
      />
      <p>
        <Link to={authPaths.forgot} state={{ answers, username: form.values.username }}>
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
        <Button variant="secondary" loading={resending} onClick={() => void resend()}>
          Resend confirmation code
        </Button>
      </div>
    </AuthCard>
  );
}
