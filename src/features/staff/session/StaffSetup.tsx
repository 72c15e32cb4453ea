import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { staffMessages, staffPasswordErrors } from '../../../../domain/staff';
import { fieldErrorsOf, ServerError } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Loading } from '../../../ui/Loading';
import { TextInput } from '../../../ui/TextInput';
import { finishStaffSetup, staffSetupQuery } from './api/session';
import { STAFF_LOGIN } from '../paths';

/** The secret in groups of four, as authenticator apps print it, for typing in by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** A one-time set-up link: choose a password, add the authenticator, keep the recovery codes. */
export function StaffSetup() {
  usePageTitle('Set up your staff account');
  const token = useSearchParams()[0].get('token') ?? '';
  const setup = useQuery({ ...staffSetupQuery(token), enabled: token.length >= 16 });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string[]> = {};
    const passwordErrors = staffPasswordErrors(password);
    if (passwordErrors.length) found.password = passwordErrors;
    if (confirm !== password) found.confirm = [staffMessages.passwordsDiffer];
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) found.code = [staffMessages.codeWrong];
    setErrors(found);
    setProblem(undefined);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const done = await finishStaffSetup({ token, password, code: code.replace(/\s+/g, '') });
      setRecoveryCodes(done.recovery_codes);
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setProblem(error instanceof ServerError ? error.message : staffMessages.setupInvalid);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (token.length < 16 || setup.isError) {
    body = <p role="alert">{setup.error instanceof ServerError ? setup.error.message : staffMessages.setupInvalid}</p>;
  } else if (setup.isPending) {
    body = <Loading label="Loading your set-up" />;
  } else if (recoveryCodes) {
    body = (
      <>
        <p role="status">{staffMessages.setupDone}</p>
        <h2>Recovery codes</h2>
        <p>Each code signs you in once if you lose your authenticator. They are shown only now.</p>
        <ul className="staff-recovery" aria-label="Recovery codes">
          {recoveryCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <p>
          <Link className="button button--primary" to={STAFF_LOGIN}>
            I have saved them: sign in
          </Link>
        </p>
      </>
    );
  } else {
    const { email, role, totp_secret, qr_svg } = setup.data;
    body = (
      <>
        <p>
          For <strong>{email}</strong>, as {role === 'admin' ? 'an administrator' : role === 'decider' ? 'a decider' : 'a reader'}.
        </p>
        {problem && (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        )}
        <form noValidate onSubmit={(event) => void submit(event)}>
          <h2>1. Choose a password</h2>
          <TextInput id="setup-password" label="Password" hint="At least 12 characters. A passphrase of a few words is good." type="password" value={password} onChange={setPassword} errors={errors.password} autoComplete="new-password" required />
          <TextInput id="setup-confirm" label="Confirm password" type="password" value={confirm} onChange={setConfirm} errors={errors.confirm} autoComplete="new-password" required />
          <h2>2. Add the portal to your authenticator app</h2>
          <p>Scan this code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password).</p>
          <img className="staff-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr_svg)}`} alt="QR code for your authenticator app" width={200} height={200} />
          <p>
            Or type this key into the app: <code className="staff-secret" data-testid="totp-secret">{grouped(totp_secret)}</code>
          </p>
          <TextInput id="setup-code" label="Code from the app" hint="The 6 digits the app shows now." value={code} onChange={setCode} errors={errors.code} autoComplete="one-time-code" inputMode="numeric" required />
          <div className="card__actions">
            <Button type="submit" loading={busy}>
              Finish set-up
            </Button>
          </div>
        </form>
      </>
    );
  }

  return (
    <main className="auth-card staff-card" id="main">
      <section className="card" aria-labelledby="setup-title">
        <h1 id="setup-title">Set up your staff account</h1>
        {body}
      </section>
    </main>
  );
}
