import { clock } from '../infra/clock';
import { createSetupLink } from '../staff/accounts';
import { currentCode } from '../staff/secondFactor';
import { cookieHeader, type TestApp } from './app';

export const STAFF_PASSWORD = 'Admissions-Office-2027!';

/** The token of a set-up link. */
export const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

/** A staff account set up through the calls (as the console does): its secret, recovery codes and e-mail. */
export async function setUpStaff(t: TestApp, role: 'reader' | 'decider' | 'admin', email = `${role}-${Math.random().toString(36).slice(2)}@example.edu`) {
  const made = await createSetupLink(t.database.db, { email, role, sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
  if (!made.ok) throw new Error(made.message);
  const token = tokenOf(made.url);
  const setup = await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${token}` });
  if (setup.statusCode !== 200) throw new Error(`setup info failed: ${setup.body}`);
  const secret: string = setup.json().totp_secret;
  const finished = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: currentCode(secret) } });
  if (finished.statusCode !== 200) throw new Error(`setup failed: ${finished.body}`);
  return { email, secret, recoveryCodes: finished.json().recovery_codes as string[] };
}

/** The next time step's code: the one set-up (or the last sign-in) used cannot be used again. */
export function nextCode(secret: string): string {
  clock.advance(30_000);
  return currentCode(secret);
}

/** Signs a staff member in; returns the Cookie header. */
export async function staffSignIn(t: TestApp, account: { email: string; secret: string }): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/staff/public/login', payload: { email: account.email, password: STAFF_PASSWORD, code: nextCode(account.secret) } });
  if (response.statusCode !== 200) throw new Error(`staff sign-in failed: ${response.body}`);
  return cookieHeader(response);
}
