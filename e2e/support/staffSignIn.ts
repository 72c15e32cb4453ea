import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect } from './fixtures';
import { STAFF_PASSWORD } from './staff';

/** Sets up a staff account from its set-up link and signs it in with a recovery code. */
export async function setUpAndSignIn(request: APIRequestContext, email: string, setupUrl: string) {
  const token = new URL(setupUrl).searchParams.get('token')!;
  const secret = (await (await request.get(`/staff/public/setup?token=${token}`)).json()).totp_secret as string;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const setUp = await request.post('/staff/public/setup', { data: { token, password: STAFF_PASSWORD, code } });
  expect(setUp.status(), await setUp.text()).toBe(200);
  const recovery = ((await setUp.json()) as { recovery_codes: string[] }).recovery_codes[0]!;
  expect((await request.post('/staff/public/login', { data: { email, password: STAFF_PASSWORD, code: recovery } })).status()).toBe(200);
}

/** The same for an account made on the command line before the server started (its link file, playwright.config.ts). */
export const staffSignedIn = (request: APIRequestContext, email: string, linkFile: string) => setUpAndSignIn(request, email, readFileSync(linkFile, 'utf8').trim().split('\n')[0]!);
