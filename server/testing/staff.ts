import { clock } from '../infra/clock';
import { createSetupLink } from '../staff/accounts';
import { currentCode } from '../staff/secondFactor';
import type { StaffRole } from '../../domain/staff';
import type { Db } from '../infra/db';
import { cookieHeader, type TestApp } from './app';
import type { ServerProcess } from './serverProcess';

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

/**
 * A staff member set up and signed in on a server process, over HTTP as the console does (the
 * set-up link made on its database with its SESSION_SECRET); returns the Cookie header.
 */
export async function staffOnServer(server: ServerProcess, db: Db, options: { email: string; role: StaffRole; sessionSecret: string }): Promise<string> {
  const made = await createSetupLink(db, { ...options, publicUrl: server.url });
  if (!made.ok) throw new Error(made.message);
  const token = new URL(made.url).searchParams.get('token')!;
  const setup = (await (await fetch(`${server.url}/staff/public/setup?token=${token}`)).json()) as { totp_secret: string };
  // The code of the step before (accepted: clocks drift) sets it up; the current one signs in.
  const finished = await server.call('POST', '/staff/public/setup', '', { token, password: STAFF_PASSWORD, code: currentCode(setup.totp_secret, Date.now() - 30_000) });
  if (!finished.ok) throw new Error(`staff set-up answered ${finished.status}`);
  const login = await server.call('POST', '/staff/public/login', '', { email: options.email, password: STAFF_PASSWORD, code: currentCode(setup.totp_secret) });
  if (!login.ok) throw new Error(`staff sign-in answered ${login.status}`);
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
