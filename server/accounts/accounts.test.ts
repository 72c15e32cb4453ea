import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import { INACTIVITY_TIMEOUT_MS, KEEPALIVE_THROTTLE_MS, SESSION_GRACE_MS } from '../../domain/config';
import { confirmationCodes, passwordResets, rateLimits, sessions, users } from '../infra/schema';
import { rowsOf } from '../infra/db';
import { clock } from '../infra/clock';
import { postgresReason } from '../testing/db';
import { embeddedOnlyOn } from '../testing/drivers';
import { cookieHeader, signedInCookie, testApp, TEST_PASSWORD, waitForMail, type TestApp } from '../testing/app';
import { COMMON_PASSWORD_MESSAGE, commonPasswordCount, isCommonPassword } from '../infra/commonPasswords';
import { accountMessages, CODE_MAX_FAILED_ATTEMPTS, CODES_PER_DAY } from './handlers';

/** Holds every database transaction of the app until released. */
function holdAccountWork(t: TestApp) {
  const db = t.database.db;
  const transaction = db.transaction.bind(db);
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  db.transaction = (async (...args: Parameters<typeof transaction>) => {
    await gate;
    return transaction(...args);
  }) as typeof db.transaction;
  return {
    release: () => {
      db.transaction = transaction;
      release();
    },
  };
}

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
let counter = 0;
const newAddress = () => `Applicant.${Date.now()}.${counter++}@Example.com`;

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('accounts on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    const embeddedOnly = embeddedOnlyOn(kind);
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp({ kind });
    });
    afterAll(async () => t?.close());

    const post = (url: string, payload: object, cookie?: string) =>
      t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
    const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

    async function signUp(address = newAddress(), password = TEST_PASSWORD) {
      const response = await post('/public/signup', { username: address, password });
      expect(response.statusCode).toBe(200);
      const mail = await waitForMail(t.sent, address.toLowerCase());
      return { address, username: address.toLowerCase(), code: codeOf(mail.text) };
    }

    embeddedOnly.it('sign-up → code by e-mail → confirm → sign in → profile → log out', async () => {
      const { address, username, code } = await signUp();
      expect(code).toMatch(/^\d{6}$/);
      const mail = t.sent.find((m) => m.to === username)!;
      expect(mail.subject).toContain('Northfield University');
      expect(mail.html).toContain(code);

      const early = await post('/public/login', { username: address, password: TEST_PASSWORD });
      expect(early.statusCode).toBe(403);
      expect(early.json()).toEqual({ message: accountMessages.unconfirmed, code: 'UNCONFIRMED' });

      const confirmed = await post('/public/confirm', { username: address, code: ` ${code} ` });
      expect(confirmed.json()).toEqual({ message: accountMessages.confirmed });

      const login = await post('/public/login', { username: address.toUpperCase(), password: TEST_PASSWORD });
      expect(login.statusCode).toBe(200);
      const session = login.cookies.find((c) => c.name === 'portal_session')!;
      const marker = login.cookies.find((c) => c.name.startsWith('portal-idp.'))!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(marker.httpOnly).toBeFalsy();
      const cookie = cookieHeader(login);

      const profile = await get('/api/profile', cookie);
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).toMatchObject({ username, last_page: null, answer: {}, document_answer: {}, web_status: [] });
      expect(profile.json().successful_login).toHaveLength(1);

      // Only the hash of the session token is stored.
      const stored = await t.database.db.select().from(sessions);
      expect(stored.some((s) => s.tokenHash === session.value)).toBe(false);

      const logout = await post('/api/logout', {}, cookie);
      expect(logout.json()).toEqual({ message: accountMessages.signedOut });
      expect((await get('/api/profile', cookie)).statusCode).toBe(401);
    });

    embeddedOnly.it('keeps the answers typed before sign-up and shows them after the first sign-in', async () => {
      const address = newAddress();
      const answer = { first_name: 'Jordan', country: 'USA', country_desc: 'United States', optin_sms_ind: true };
      await post('/public/signup', { username: address, password: TEST_PASSWORD, answer });
      const code = codeOf((await waitForMail(t.sent, address.toLowerCase())).text);
      await post('/public/confirm', { username: address, code });
      const login = await post('/public/login', { username: address, password: TEST_PASSWORD });
      expect((await get('/api/profile', cookieHeader(login))).json().answer).toEqual(answer);
    });

    embeddedOnly.it('stores codes hashed, and five wrong tries lock the code', async () => {
      const { address, code } = await signUp();
      const rows = await t.database.db.select().from(confirmationCodes);
      expect(rows.some((r) => r.codeHash.includes(code))).toBe(false);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < CODE_MAX_FAILED_ATTEMPTS; i++) {
        const response = await post('/public/confirm', { username: address, code: wrong });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(accountMessages.codeWrong);
      }
      expect((await post('/public/confirm', { username: address, code })).statusCode).toBe(400);

      // A new code (the old one is cancelled) works.
      expect((await post('/public/resend-confirm', { username: address })).json()).toEqual({ message: accountMessages.resent });
      const second = codeOf((await waitForMail(t.sent, address.toLowerCase(), 2)).text);
      expect((await post('/public/confirm', { username: address, code: second })).statusCode).toBe(200);
    });

    embeddedOnly.it('refuses an expired code', async () => {
      const { address, username, code } = await signUp();
      const [user] = await t.database.db.select().from(users).where(eq(users.username, username));
      await t.database.db.update(confirmationCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(confirmationCodes.userId, user!.id));
      expect((await post('/public/confirm', { username: address, code })).statusCode).toBe(400);
    });

    embeddedOnly.it(`sends at most ${CODES_PER_DAY} codes to one address a day, and refuses an address without an account the same way`, async () => {
      const { username } = await signUp();
      const unknown = newAddress().toLowerCase();
      // The day's codes already counted (set directly: the hourly limits would stop the API first).
      const dayStart = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
      for (const address of [username, unknown]) {
        await t.database.db
          .insert(rateLimits)
          .values({ key: `codes:address:${address}`, windowStart: dayStart, count: CODES_PER_DAY })
          .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: CODES_PER_DAY } });
      }
      const known = await post('/public/resend-confirm', { username });
      const stranger = await post('/public/resend-confirm', { username: unknown });
      expect(known.statusCode).toBe(429);
      expect(known.json()).toEqual({ message: accountMessages.tooManyCodes });
      expect(stranger.statusCode).toBe(429);
      expect(stranger.body).toBe(known.body);
      expect((await post('/public/signup', { username, password: TEST_PASSWORD })).json()).toEqual({ message: accountMessages.tooManyCodes });
    });

    embeddedOnly.it('answers sign-up, resend and forgot-password before any work that depends on the account, with the same answer either way', async () => {
      const { address: unconfirmed } = await signUp();
      const { address: confirmed, code } = await signUp();
      await post('/public/confirm', { username: confirmed, code });
      // Hold every transaction and count the lookups of users: the answers must all arrive meanwhile.
      const held = holdAccountWork(t);
      const calls = [
        ['/public/signup', { username: newAddress(), password: TEST_PASSWORD }],
        ['/public/signup', { username: confirmed, password: TEST_PASSWORD }],
        ['/public/signup', { username: unconfirmed, password: TEST_PASSWORD }],
        ['/public/resend-confirm', { username: newAddress() }],
        ['/public/resend-confirm', { username: unconfirmed }],
        ['/public/resend-confirm', { username: confirmed }],
        ['/public/forgot-password', { username: newAddress() }],
        ['/public/forgot-password', { username: confirmed }],
      ] as const;
      // Were any answer to wait for its account's work, this would never resolve (the test times out).
      const answers = await Promise.all(calls.map(([url, body]) => post(url, body))).finally(() => held.release());
      for (const [i, [url]] of calls.entries()) {
        const first = answers[calls.findIndex(([u]) => u === url)]!;
        expect(answers[i]!.statusCode, url).toBe(200);
        expect(answers[i]!.body, url).toBe(first.body);
      }
      // The work still happens: the confirmed owner is told, the unconfirmed one gets a fresh code.
      await waitForMail(t.sent, confirmed.toLowerCase(), 3);
      const toOwner = t.sent.filter((m) => m.to === confirmed.toLowerCase()).map((m) => m.text);
      expect(toOwner.some((text) => text.includes('already has one'))).toBe(true);
      expect(toOwner.some((text) => text.includes('/reset?'))).toBe(true);
      await waitForMail(t.sent, unconfirmed.toLowerCase(), 3);
    });

    embeddedOnly.it('a sign-in straight after a sign-up meets the new account', async () => {
      const address = newAddress();
      expect((await post('/public/signup', { username: address, password: TEST_PASSWORD })).statusCode).toBe(200);
      const early = await post('/public/login', { username: address, password: TEST_PASSWORD });
      expect(early.statusCode).toBe(403);
      expect(early.json().code).toBe('UNCONFIRMED');
    });

    embeddedOnly.it('answers a sign-up of an existing account exactly like a new one, and tells the owner by e-mail', async () => {
      const { address, username, code } = await signUp();
      await post('/public/confirm', { username: address, code });
      const fresh = await post('/public/signup', { username: newAddress(), password: TEST_PASSWORD });
      const again = await post('/public/signup', { username: address, password: 'Another-Pass-99?' });
      expect(again.statusCode).toBe(fresh.statusCode);
      expect(again.body).toBe(fresh.body);
      const notice = await waitForMail(t.sent, username, 2);
      expect(notice.text).toContain('already has one');
      // The password did not change.
      expect((await post('/public/login', { username: address, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    embeddedOnly.it('a second sign-up of an unconfirmed address changes neither its password nor its answers: it only mails a fresh code', async () => {
      const address = newAddress();
      const username = address.toLowerCase();
      const first = await post('/public/signup', { username: address, password: TEST_PASSWORD, answer: { first_name: 'Victim' } });
      expect(first.statusCode).toBe(200);
      const raced = await post('/public/signup', { username: address, password: 'Attacker-Pass-99?', answer: { first_name: 'Attacker', not_a_key: 'x' } });
      expect(raced.body).toBe(first.body);
      // The owner confirms with the newest code: their own password signs in, the racer's does not.
      const code = /\b(\d{6})\b/.exec((await waitForMail(t.sent, username, 2)).text)![1];
      expect((await post('/public/confirm', { username: address, code })).statusCode).toBe(200);
      expect((await post('/public/login', { username: address, password: 'Attacker-Pass-99?' })).statusCode).not.toBe(200);
      const signedIn = await post('/public/login', { username: address, password: TEST_PASSWORD });
      expect(signedIn.statusCode).toBe(200);
      const profile = await get('/api/profile', cookieHeader(signedIn));
      expect(profile.json().answer).toEqual({ first_name: 'Victim' });
    });

    embeddedOnly.it('forgot → link by e-mail → reset ends every session → sign in with the new password', async () => {
      const username = newAddress().toLowerCase();
      const cookie = await signedInCookie(t, username);
      const unknown = await post('/public/forgot-password', { username: newAddress() });
      const known = await post('/public/forgot-password', { username });
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      const link = /http\S+\/reset\?\S+/.exec((await waitForMail(t.sent, username)).text)![0];
      const url = new URL(link);
      expect(url.searchParams.get('username')).toBe(username);
      const id = url.searchParams.get('id')!;
      expect((await t.database.db.select().from(passwordResets)).some((r) => r.idHash === id)).toBe(false);

      const newPassword = 'Battery-Staple-77?';
      const mismatch = await post('/public/reset-password', { username, password: newPassword, confirm_password: 'x', id });
      expect(mismatch.json().errors).toEqual({ confirm_password: ['The passwords do not match.'] });

      const reset = await post('/public/reset-password', { username, password: newPassword, confirm_password: newPassword, id });
      expect(reset.json()).toEqual({ message: accountMessages.reset });
      expect((await get('/api/profile', cookie)).statusCode).toBe(401);
      expect((await post('/public/login', { username, password: TEST_PASSWORD })).statusCode).toBe(400);
      expect((await post('/public/login', { username, password: newPassword })).statusCode).toBe(200);

      const reused = await post('/public/reset-password', { username, password: newPassword, confirm_password: newPassword, id });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().message).toBe(accountMessages.resetInvalid);
    });

    embeddedOnly.it('enforces the password rules and refuses common passwords', async () => {
      const weak = await post('/public/signup', { username: newAddress(), password: 'short' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().errors.password).toContain('Your password must be at least 12 characters long.');
      expect(isCommonPassword('Qwerty123456!')).toBe(true);
      expect(commonPasswordCount).toBeGreaterThan(10_000);
      const common = await post('/public/signup', { username: newAddress(), password: 'Qwerty123456!' });
      expect(common.json()).toEqual({ message: accountMessages.invalid, errors: { password: [COMMON_PASSWORD_MESSAGE] } });
    });

    embeddedOnly.it('says the same for an unknown address and a wrong password', async () => {
      const username = newAddress().toLowerCase();
      await signedInCookie(t, username);
      const wrong = await post('/public/login', { username, password: 'Wrong-Password-1!' });
      const unknown = await post('/public/login', { username: newAddress(), password: 'Wrong-Password-1!' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.json()).toEqual({ message: 'Incorrect username or password.' });
    });

    it('a stranger guessing at an address locks out only themselves: the owner still signs in from elsewhere', async () => {
      const username = newAddress().toLowerCase();
      await signedInCookie(t, username);
      const from = (remoteAddress: string, password: string) =>
        t.app.inject({ method: 'POST', url: '/public/login', payload: { username, password }, remoteAddress });
      let last;
      for (let i = 0; i < 12; i++) last = await from('198.51.100.7', 'Wrong-Password-1!');
      expect(last!.statusCode).toBe(429);
      expect((await from('198.51.100.7', TEST_PASSWORD)).statusCode).toBe(429);
      expect((await from('203.0.113.20', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('limits sign-in attempts per address with 429 and Retry-After', async () => {
      const username = newAddress();
      let last;
      for (let i = 0; i < 11; i++) last = await post('/public/login', { username, password: 'Wrong-Password-1!' });
      expect(last!.statusCode).toBe(429);
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.json()).toEqual({ message: accountMessages.tooMany });
    });

    embeddedOnly.it('answers every /api call without a valid session with 401 and clears the cookies', async () => {
      for (const [method, url] of [['GET', '/api/profile'], ['PUT', '/api/answer'], ['POST', '/api/submit'], ['POST', '/api/logout']] as const) {
        const response = await t.app.inject({ method, url, headers: { cookie: 'portal_session=forged' } });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: SESSION_INVALID_MESSAGE });
        expect(response.cookies.find((c) => c.name === 'portal_session')?.value).toBe('');
      }
    });

    /** Runs `body` with the server's session clock movable, and puts it back after. */
    async function withClock(body: (advance: (ms: number) => void) => Promise<void>) {
      let moved = 0;
      try {
        await body((ms) => {
          moved += ms;
          clock.advance(ms);
        });
      } finally {
        clock.advance(-moved);
      }
    }

    it('expires a session after the 15 idle minutes of the page and a grace, never before, and keep-alive extends it', async () => {
      const cookie = await signedInCookie(t);
      const alive = await post('/api/keep-alive', {}, cookie);
      const expiresAt = new Date(alive.json().expires_at).getTime();
      // Against the server's clock: suites before this one in its worker may have moved it on (a staff code's step).
      expect(expiresAt - clock.now().getTime()).toBeGreaterThan(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS - 60_000);
      expect(expiresAt - clock.now().getTime()).toBeLessThanOrEqual(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS);
      expect(SESSION_GRACE_MS).toBeGreaterThanOrEqual(KEEPALIVE_THROTTLE_MS);
      await withClock(async (advance) => {
        // Idle for the page's 15 minutes: still signed in (the page's own timer ends it first).
        advance(INACTIVITY_TIMEOUT_MS);
        expect((await get('/api/profile', cookie)).statusCode).toBe(200);
        // That call moved the expiry: idle again past it, the session is over, remembered or not.
        advance(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS + 1_000);
        expect((await get('/api/profile', cookie)).statusCode).toBe(401);
      });
    });

    // Issue 48: a tab about to sign out for inactivity asks when a person last used the session in any tab.
    it('tells when a person last used the session (the sign-in, then each keep-alive), without keeping it alive; other calls are no one\'s activity', async () => {
      const cookie = await signedInCookie(t);
      await withClock(async (advance) => {
        const first = (await get('/api/session', cookie)).json();
        expect(Math.abs(new Date(first.last_active_at).getTime() - clock.now().getTime())).toBeLessThan(60_000);
        // Asked again while idle, and a completion page's poll: the session is no more alive for it.
        advance(10 * 60_000);
        expect((await get('/api/pdf', cookie)).statusCode).toBe(200);
        expect((await get('/api/session', cookie)).json().last_active_at).toBe(first.last_active_at);
        // Another tab's keep-alive (activity there): the next look says so.
        expect((await post('/api/keep-alive', {}, cookie)).statusCode).toBe(200);
        const after = (await get('/api/session', cookie)).json();
        expect(new Date(after.last_active_at).getTime()).toBeGreaterThan(new Date(first.last_active_at).getTime() + 9 * 60_000);
        expect(clock.now().getTime() - new Date(after.last_active_at).getTime()).toBeLessThan(60_000);
        // Idle past the session's end (nothing else called): over.
        advance(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS + 1_000);
        expect((await get('/api/session', cookie)).statusCode).toBe(401);
      });
    });

    it('writes a session\'s new expiry at most once a minute, however many calls come', async () => {
      const cookie = await signedInCookie(t);
      const stored = async () => (await t.database.db.select({ expiresAt: sessions.expiresAt }).from(sessions)).map((row) => row.expiresAt.getTime());
      await withClock(async (advance) => {
        const before = await stored();
        // 30 seconds later: the calls leave the expiry as it is.
        advance(30_000);
        for (let i = 0; i < 3; i++) expect((await get('/api/profile', cookie)).statusCode).toBe(200);
        expect(await stored()).toEqual(before);
        // Over a minute after the last write: the next call moves it to 17 minutes ahead.
        advance(31_000);
        const alive = await post('/api/keep-alive', {}, cookie);
        const expiresAt = new Date(alive.json().expires_at).getTime();
        expect(expiresAt - clock.now().getTime()).toBeGreaterThan(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS - 10_000);
        expect((await stored()).some((at) => at === expiresAt)).toBe(true);
      });
    });

    it('ends a session twelve hours after sign-in, however active it was', async () => {
      const cookie = await signedInCookie(t);
      await withClock(async (advance) => {
        // A call every 10 minutes keeps it alive for twelve hours, and not a minute longer.
        for (let minutes = 10; minutes < 12 * 60; minutes += 10) {
          advance(10 * 60_000);
          expect((await get('/api/profile', cookie)).statusCode, `after ${minutes} minutes`).toBe(200);
        }
        advance(10 * 60_000);
        expect((await get('/api/profile', cookie)).statusCode).toBe(401);
      });
    });

    it("counts the twelve hours on the server's clock, not the database's (a test's clock hours ahead)", async () => {
      await withClock(async (advance) => {
        advance(3 * 3_600_000);
        const cookie = await signedInCookie(t);
        // Started on the database's clock, the session would end three hours early.
        for (let minutes = 10; minutes < 12 * 60; minutes += 10) {
          advance(10 * 60_000);
          expect((await get('/api/profile', cookie)).statusCode, `after ${minutes} minutes`).toBe(200);
        }
        advance(10 * 60_000);
        expect((await get('/api/profile', cookie)).statusCode).toBe(401);
      });
    });

    it('ends a session on every instance the moment it is signed out or its rows are deleted, though each instance remembers checked sessions', async () => {
      const other = await testApp({ database: t.database });
      try {
        const cookie = await signedInCookie(t);
        // Both instances have checked (and remember) the session.
        for (const app of [t.app, other.app]) expect((await app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode).toBe(200);
        expect((await post('/api/logout', {}, cookie)).statusCode).toBe(200);
        await expect.poll(async () => (await other.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode, { timeout: 5_000 }).toBe(401);
        // Ended by hand in the database (an operator's delete): forgotten everywhere too.
        const second = await signedInCookie(t, 'remembered-elsewhere@example.com');
        for (const app of [t.app, other.app]) expect((await app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: second } })).statusCode).toBe(200);
        await t.database.db.execute(sql`delete from sessions`);
        for (const app of [t.app, other.app]) {
          await expect.poll(async () => (await app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: second } })).statusCode, { timeout: 5_000 }).toBe(401);
        }
      } finally {
        await other.close();
      }
    });

    it('prunes expired sessions, codes a day past expiry, and old rate-limit windows', async () => {
      const { pruneAccountsData } = await import('./handlers');
      const { pruneRateLimits, hitRateLimit } = await import('../infra/rateLimit');
      const cookie = await signedInCookie(t);
      await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 minute'`);
      await t.database.db.execute(sql`update confirmation_codes set expires_at = now() - interval '2 days'`);
      await hitRateLimit(t.database.db, 'test:old', { max: 1, windowSeconds: 60 }, new Date(Date.now() - 2 * 86_400_000));
      await pruneAccountsData(t.database.db);
      await pruneRateLimits(t.database.db);
      expect(await t.database.db.select().from(sessions)).toEqual([]);
      expect(await t.database.db.select().from(confirmationCodes)).toEqual([]);
      const old = await t.database.db.execute(sql`select count(*)::int as n from rate_limits where key = 'test:old'`);
      expect(rowsOf<{ n: number }>(old)[0]?.n).toBe(0);
      expect((await get('/api/profile', cookie)).statusCode).toBe(401);
    });

    embeddedOnly.it('derives web_status from distinct events and records the last page', async () => {
      const cookie = await signedInCookie(t);
      const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, payload, headers: { cookie } });
      expect((await post('/api/web-status', { web_status: 'started' }, cookie)).statusCode).toBe(200);
      expect((await post('/api/web-status', { web_status: 'started' }, cookie)).statusCode).toBe(200);
      expect((await post('/api/web-status', { web_status: 'validating' }, cookie)).statusCode).toBe(200);
      expect((await post('/api/web-status', { web_status: 'submitted' }, cookie)).statusCode).toBe(409);
      expect((await put('/api/last-page', { last_page: '/education' })).statusCode).toBe(200);
      const profile = (await get('/api/profile', cookie)).json();
      expect(profile.web_status.map((s: { web_status: string }) => s.web_status)).toEqual(['started', 'validating']);
      expect(profile.last_page).toBe('/education');
    });
  });
});

describe('the dev outbox', () => {
  it('keeps mails and lists them at /dev/outbox outside production', async () => {
    const { buildApp } = await import('../app');
    const { loadConfig } = await import('../infra/config');
    const { freshDatabase } = await import('../testing/db');
    const database = await freshDatabase('pglite');
    await database.migrate();
    const dataDir = (await import('node:fs')).mkdtempSync('/tmp/portal-outbox-');
    for (const nodeEnv of ['development', 'production'] as const) {
      // Production mails for real (nothing listens on port 9: the send fails quietly, after the answer).
      const smtp = nodeEnv === 'production' ? { SMTP_URL: 'smtp://127.0.0.1:9' } : {};
      const config = loadConfig({ NODE_ENV: nodeEnv, DATA_DIR: dataDir, SESSION_SECRET: 'y'.repeat(40), ...smtp });
      const app = await buildApp({ config, database });
      const address = `outbox-${nodeEnv}@example.com`;
      await app.inject({ method: 'POST', url: '/public/signup', payload: { username: address, password: TEST_PASSWORD } });
      const outbox = () => app.inject({ method: 'GET', url: `/dev/outbox?to=${address}` });
      if (nodeEnv === 'production') {
        expect((await outbox()).statusCode).toBe(404);
      } else {
        // The mail goes out after the answer: wait for it to be kept, however busy the machine.
        const kept = await vi.waitFor(
          async () => {
            const mails = (await outbox()).json<{ text: string }[]>();
            expect(mails).toHaveLength(1);
            return mails;
          },
          { timeout: 30_000, interval: 50 },
        );
        expect(kept[0]!.text).toMatch(/\b\d{6}\b/);
      }
      await app.close();
    }
    await database.dispose();
  }, 90_000); // two apps built and two sign-ups hashed: many seconds on a busy machine
});
