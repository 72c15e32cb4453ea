import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { oidcMessages, staffMessages } from '../../../../domain/staff';
import { ServerError } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { TextInput } from '../../../ui/TextInput';
import { STAFF_OIDC_START, staffLogin, staffOidcQuery } from './api/session';
import { STAFF_ACTIVITY_KEY, STAFF_HOME } from '../paths';

/** Sign-in to the console: e-mail, password and the authenticator's code (or a recovery code). */
export function StaffLogin() {
  usePageTitle('Staff sign-in');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = (useLocation().state ?? {}) as { error?: string; from?: string };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  // Back from the institution's sign-in without a session: why, in the page's own words.
  const returned = useSearchParams()[0].get('sign_in');
  const [problem, setProblem] = useState<string | undefined>(state.error ?? (returned === 'refused' ? oidcMessages.refused : returned === 'failed' ? oidcMessages.failed : undefined));
  const oidc = useQuery(staffOidcQuery);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string[]> = {};
    if (!email.trim()) missing.email = [staffMessages.emailInvalid];
    if (!password) missing.password = ['Enter your password.'];
    if (!code.trim()) missing.code = [staffMessages.codeRequired];
    setErrors(missing);
    setProblem(undefined);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      await staffLogin({ email, password, code: code.trim() });
      queryClient.clear();
      // A sign-in is activity: the idle timer must not read an earlier session's last activity as this one's.
      try {
        localStorage.setItem(STAFF_ACTIVITY_KEY, String(Date.now()));
      } catch {
        // storage unavailable: the timer starts from now in this tab anyway
      }
      void navigate(state.from?.startsWith('/staff') ? state.from : STAFF_HOME, { replace: true });
    } catch (error) {
      setCode('');
      setProblem(error instanceof ServerError ? error.message : staffMessages.badCredentials);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-card staff-card" id="main">
      <section className="card" aria-labelledby="staff-login-title">
        <h1 id="staff-login-title">Admissions office sign-in</h1>
        {problem && (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        )}
        {oidc.data?.enabled && (
          <p className="card__actions">
            <a className="button button--primary" href={STAFF_OIDC_START}>
              {oidc.data.label}
            </a>
          </p>
        )}
        <form noValidate onSubmit={(event) => void submit(event)}>
          <TextInput id="staff-email" label="E-mail" value={email} onChange={setEmail} errors={errors.email} autoComplete="username" inputMode="email" required />
          <TextInput id="staff-password" label="Password" type="password" value={password} onChange={setPassword} errors={errors.password} autoComplete="current-password" required />
          <TextInput
            id="staff-code"
            label="Code"
            hint="The 6 digits your authenticator app shows, or one of your recovery codes."
            value={code}
            onChange={setCode}
            errors={errors.code}
            autoComplete="one-time-code"
            required
          />
          <div className="card__actions">
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </div>
        </form>
      </section>
    </main>
  );
}
