import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { answerKeys } from '../../domain/catalogue';
import { staffMessages } from '../../domain/staff';
import { COMMON_PASSWORD_MESSAGE } from '../infra/commonPasswords';
import { clock } from '../infra/clock';
import { auditLog, exportRunApplicants, exportRuns, users } from '../infra/schema';
import { rowsOf } from '../infra/db';
import { postgresReason } from '../testing/db';
import { embeddedOnlyOn } from '../testing/drivers';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { nextCode, setUpStaff, STAFF_PASSWORD, staffSignIn, tokenOf } from '../testing/staff';
import { createSetupLink } from './accounts';
import { currentCode } from './secondFactor';
import { recordAudit } from '../office/audit';
import { chainReportLine, verifyAuditChain } from '../office/auditChain';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('the staff side on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    const embeddedOnly = embeddedOnlyOn(kind);
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp({ kind, env: { RATE_LIMIT_SCALE: '1' } });
    });
    afterAll(async () => t?.close());

    const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
    const auditRows = () => t.database.db.select().from(auditLog).orderBy(asc(auditLog.id));

    /** A submitted application with the complete answers and `extra`; its user id and session. */
    async function submitted(username: string, extra: Record<string, string> = {}) {
      const cookie = await signedInCookie(t, username);
      await call(cookie, 'PUT', '/api/answer', { ...completeApplication, ...extra });
      const response = await call(cookie, 'POST', '/api/submit');
      expect(response.statusCode, response.body).toBe(200);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
      return { id: user!.id, cookie };
    }

    embeddedOnly.describe('set-up link', () => {
      embeddedOnly.it('shows the address, role and second factor, refuses a short or common password and a wrong code, then works once', async () => {
        const made = await createSetupLink(t.database.db, { email: ' First.Admin@Example.edu ', role: 'admin', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        expect(made.ok).toBe(true);
        if (!made.ok) return;
        expect(made.url).toMatch(/\/staff\/setup\?token=[\w-]{43}$/);
        const token = tokenOf(made.url);
        const info = await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${token}` });
        expect(info.statusCode).toBe(200);
        const { email, role, totp_secret, totp_uri, qr_svg } = info.json();
        expect({ email, role }).toEqual({ email: 'first.admin@example.edu', role: 'admin' });
        expect(totp_uri).toContain(`secret=${totp_secret}`);
        expect(qr_svg).toMatch(/^<svg[^>]*>/);

        const short = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: 'Short-pass1', code: currentCode(totp_secret) } });
        expect(short.statusCode).toBe(400);
        expect(short.json().errors).toEqual({ password: ['Your password must be at least 12 characters long.'] });
        const common = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: 'password1234', code: currentCode(totp_secret) } });
        expect(common.json().errors).toEqual({ password: [COMMON_PASSWORD_MESSAGE] });
        const wrongCode = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: '000000' === currentCode(totp_secret) ? '111111' : '000000' } });
        expect(wrongCode.json().errors).toEqual({ code: ['The code is incorrect or has expired. Enter the 6 digits your authenticator app shows now.'] });

        const done = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: currentCode(totp_secret) } });
        expect(done.statusCode).toBe(200);
        expect(done.json().message).toBe('Your staff account is ready. Keep these recovery codes somewhere safe, then sign in.');
        expect(done.json().recovery_codes).toHaveLength(10);
        expect(new Set(done.json().recovery_codes).size).toBe(10);

        for (const again of [
          await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${token}` }),
          await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: currentCode(totp_secret) } }),
        ]) {
          expect(again.statusCode).toBe(404);
          expect(again.json().message).toBe('This set-up link is invalid, used or expired. Ask an administrator for a new one.');
        }
        // Set up: a second link for the same person is refused.
        const twice = await createSetupLink(t.database.db, { email: 'first.admin@example.edu', role: 'admin', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        expect(twice).toEqual({ ok: false, message: staffMessages.alreadyActive });
      });

      embeddedOnly.it('stops working after 72 hours, and a new link replaces an unused one', async () => {
        const first = await createSetupLink(t.database.db, { email: 'late@example.edu', role: 'reader', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        const second = await createSetupLink(t.database.db, { email: 'late@example.edu', role: 'reader', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        if (!first.ok || !second.ok) throw new Error('no link');
        expect((await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${tokenOf(first.url)}` })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${tokenOf(second.url)}` })).statusCode).toBe(200);
        clock.advance(72 * 3_600_000 + 1000);
        try {
          expect((await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${tokenOf(second.url)}` })).statusCode).toBe(404);
        } finally {
          // Back again: sessions started later are dated by the database's own clock.
          clock.advance(-(72 * 3_600_000 + 1000));
        }
      });

      embeddedOnly.it('gives each new link a second factor of its own, and logs each opening of a link (issue 29, item 5)', async () => {
        const first = await createSetupLink(t.database.db, { email: 'twice@example.edu', role: 'reader', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        if (!first.ok) throw new Error('no link');
        const firstView = await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${tokenOf(first.url)}` });
        const firstSecret = firstView.json().totp_secret as string;
        const second = await createSetupLink(t.database.db, { email: 'twice@example.edu', role: 'reader', sessionSecret: t.config.sessionSecret, publicUrl: t.config.publicUrl });
        if (!second.ok) throw new Error('no link');
        const token = tokenOf(second.url);
        const secondView = await t.app.inject({ method: 'GET', url: `/staff/public/setup?token=${token}`, remoteAddress: '203.0.113.9' });
        expect(secondView.statusCode).toBe(200);
        expect(secondView.json().totp_secret).not.toBe(firstSecret);
        // A code from the voided link's secret does not finish set-up through the new link.
        const stale = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: currentCode(firstSecret) } });
        expect(stale.statusCode).toBe(400);
        expect(stale.json().errors).toEqual({ code: ['The code is incorrect or has expired. Enter the 6 digits your authenticator app shows now.'] });
        const views = (await auditRows()).filter((row) => row.action === 'setup_link_view' && row.staffEmail === 'twice@example.edu');
        expect(views.map((row) => row.ip)).toEqual(['127.0.0.1', '203.0.113.9']);
        const done = await t.app.inject({ method: 'POST', url: '/staff/public/setup', payload: { token, password: STAFF_PASSWORD, code: currentCode(secondView.json().totp_secret) } });
        expect(done.statusCode).toBe(200);
      });
    });

    describe('sign-in', () => {
      embeddedOnly.it('needs the password and a code; a code works once; a recovery code works once; each attempt is audited', async () => {
        const account = await setUpStaff(t, 'reader');
        const login = (password: string, code: string) => t.app.inject({ method: 'POST', url: '/staff/public/login', payload: { email: account.email.toUpperCase(), password, code } });
        const wrongPassword = await login('Not-The-Password-1', nextCode(account.secret));
        expect(wrongPassword.statusCode).toBe(400);
        expect(wrongPassword.json()).toEqual({ message: 'Incorrect e-mail, password or code.' });
        const code = nextCode(account.secret);
        const wrongCode = await login(STAFF_PASSWORD, code === '123456' ? '654321' : '123456');
        expect(wrongCode.json()).toEqual({ message: 'Incorrect e-mail, password or code.' });
        expect(wrongCode.cookies).toEqual([]);

        const ok = await login(STAFF_PASSWORD, code);
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toEqual({ email: account.email, role: 'reader' });
        const cookie = ok.cookies.find((c) => c.name === 'staff_session')!;
        expect(cookie).toMatchObject({ path: '/staff', httpOnly: true, sameSite: 'Strict' });
        // The same code again (a replay, or a shoulder-surfer): refused.
        expect((await login(STAFF_PASSWORD, code)).statusCode).toBe(400);

        const recovery = account.recoveryCodes[0]!;
        expect((await login(STAFF_PASSWORD, recovery.toUpperCase())).statusCode).toBe(200);
        expect((await login(STAFF_PASSWORD, recovery)).statusCode).toBe(400);

        const mine = (await auditRows()).filter((row) => row.staffEmail === account.email);
        expect(mine.map((row) => [row.action, row.detail])).toEqual([
          ['setup_link_view', {}],
          ['staff_setup', {}],
          ['sign_in_failed', { reason: 'password' }],
          ['sign_in_failed', { reason: 'code' }],
          ['sign_in', { factor: 'totp' }],
          ['sign_in_failed', { reason: 'code' }],
          ['sign_in', { factor: 'recovery_code' }],
          ['sign_in_failed', { reason: 'code' }],
        ]);
      });

      it('locks out an address from one client after 10 tries in 15 minutes, like an applicant sign-in', async () => {
        const account = await setUpStaff(t, 'reader');
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++) {
          const response = await t.app.inject({ method: 'POST', url: '/staff/public/login', payload: { email: account.email, password: 'Wrong-password-99', code: '000000' } });
          statuses.push(response.statusCode);
        }
        expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
        expect(statuses[10]).toBe(429);
      });

      it('keeps out a stranger who knows only the address, not its owner with the password and code from a new client; refusals are logged (issue 29, item 6)', async () => {
        const account = await setUpStaff(t, 'reader');
        const from = (ip: string, password: string, code: string) => t.app.inject({ method: 'POST', url: '/staff/public/login', remoteAddress: ip, payload: { email: account.email, password, code } });
        // 100 wrong passwords from 100 clients use the address's limit; the next is refused.
        for (let i = 0; i < 100; i++) expect((await from(`198.51.100.${i}`, 'Wrong-password-99', '000000')).statusCode).toBe(400);
        const refused = await from('198.51.100.200', 'Wrong-password-99', '000000');
        expect(refused.statusCode).toBe(429);
        expect(refused.json().message).toBe('Too many attempts. Please wait a few minutes and try again.');
        // The owner, from a client of their own, with the password and the code: in.
        expect((await from('203.0.113.50', STAFF_PASSWORD, nextCode(account.secret))).statusCode).toBe(200);
        // With the password but a wrong code, past the address's limit: refused, like any guess.
        expect((await from('203.0.113.51', STAFF_PASSWORD, '000000' === nextCode(account.secret) ? '111111' : '000000')).statusCode).toBe(429);
        const mine = (await auditRows()).filter((row) => row.staffEmail === account.email);
        expect(mine.filter((row) => row.action === 'sign_in_refused').map((row) => [row.ip, row.detail])).toEqual([
          ['198.51.100.200', { limit: 'address' }],
          ['203.0.113.51', { limit: 'address' }],
        ]);
        expect(mine.filter((row) => row.action === 'sign_in').length).toBe(1);
      });

      embeddedOnly.it('after 100 wrong codes in a row with the right password, only a recovery code gets in, and it resets the count (issue 29, item 6)', async () => {
        const account = await setUpStaff(t, 'reader');
        const from = (ip: string, code: string) => t.app.inject({ method: 'POST', url: '/staff/public/login', remoteAddress: ip, payload: { email: account.email, password: STAFF_PASSWORD, code } });
        const wrong = () => {
          const right = nextCode(account.secret);
          return right === '000000' ? '111111' : '000000';
        };
        // A thief with the password, from rotating clients: 100 guesses, each refused.
        for (let i = 0; i < 100; i++) expect([400, 429]).toContain((await from(`198.51.101.${i}`, wrong())).statusCode);
        const locked = await from('203.0.113.60', nextCode(account.secret));
        expect(locked.statusCode).toBe(400);
        expect(locked.json().message).toBe('Too many wrong codes were entered for this account. Sign in with one of your recovery codes, or ask an administrator to remove your account and invite you again.');
        expect((await from('203.0.113.60', account.recoveryCodes[0]!)).statusCode).toBe(200);
        expect((await from('203.0.113.60', nextCode(account.secret))).statusCode).toBe(200);
        const reasons = (await auditRows()).filter((row) => row.staffEmail === account.email && row.action === 'sign_in_failed').map((row) => row.detail?.reason);
        expect(reasons.filter((r) => r === 'codes_locked')).toHaveLength(1);
      }, 120_000);

      it('ends after 15 idle minutes and a grace, and on sign-out', async () => {
        const cookie = await staffSignIn(t, await setUpStaff(t, 'reader'));
        expect((await call(cookie, 'GET', '/staff/api/me')).statusCode).toBe(200);
        clock.advance(17 * 60_000 + 1000);
        const expired = await call(cookie, 'GET', '/staff/api/me');
        expect(expired.statusCode).toBe(401);
        expect(expired.json()).toEqual({ message: 'Your staff session has ended. Please sign in again.' });

        const other = await staffSignIn(t, await setUpStaff(t, 'reader'));
        expect((await call(other, 'POST', '/staff/api/logout')).statusCode).toBe(200);
        expect((await call(other, 'GET', '/staff/api/me')).statusCode).toBe(401);
      });
    });

    describe('applications', () => {
      let reader = '';
      let jose = { id: '', cookie: '' };
      beforeAll(async () => {
        reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
        jose = await submitted('jose@example.com', { first_name: 'José', last_name: "O'Brien-Núñez", entry_term: 'Spring 2028', entry_term_desc: 'Spring 2028' });
        await submitted('ana@example.com', { first_name: 'Ana', last_name: 'Lee' });
        const started = await signedInCookie(t, 'started@example.com');
        await call(started, 'PUT', '/api/answer', { first_name: 'Sam', last_name: 'Started' });
        await call(started, 'PUT', '/api/last-page', { last_page: '/education' });
      });

      it('lists with counts per status, filters by status and entry term, searches folded names and e-mail starts', async () => {
        const list = async (query: string) => (await call(reader, 'GET', `/staff/api/applications?${query}`)).json();
        const all = await list('');
        expect(all.counts.submitted).toBeGreaterThanOrEqual(2);
        expect(all.total).toBe(all.counts.started + all.counts.validating + all.counts.submitted);
        const submittedOnly = await list('status=submitted');
        expect(submittedOnly.items.every((i: { status: string }) => i.status === 'submitted')).toBe(true);
        expect(submittedOnly.total).toBe(all.counts.submitted);

        for (const q of ['jose', 'JOSÉ obrien', 'nunez', 'jose@ex', 'obri']) {
          const found = await list(`q=${encodeURIComponent(q)}`);
          expect(found.items.map((i: { email: string }) => i.email), q).toEqual(['jose@example.com']);
        }
        expect((await list('q=zzzz')).items).toEqual([]);
        // A search with LIKE's wildcards finds them as letters.
        expect((await list(`q=${encodeURIComponent('%')}`)).items).toEqual([]);

        const spring = await list(`entry_term=${encodeURIComponent('Spring 2028')}`);
        expect(spring.items).toEqual([
          { id: jose.id, name: "José O'Brien-Núñez", email: 'jose@example.com', status: 'submitted', submitted_at: expect.any(String), entry_term: 'Spring 2028', intended_major: 'Biology', high_school: 'East High School', bin: null, scores: { reviews: 0, means: [], recommendations: [], composite: null } },
        ]);
        const sam = (await list('q=sam')).items[0];
        expect(sam).toMatchObject({ status: 'started', submitted_at: null });

        const newestFirst = (await list('status=submitted&sort=submitted_desc')).items.map((i: { submitted_at: string }) => i.submitted_at);
        expect(newestFirst).toEqual([...newestFirst].sort().reverse());
        const paged = await list('page_size=1&page=2');
        expect(paged.items).toHaveLength(1);
        expect(paged.page).toBe(2);
      });

      it('finds names in any script and across apostrophes, and by school, birth date, phone and application number (issue 32)', async () => {
        const emailsFor = async (q: string) => ((await call(reader, 'GET', `/staff/api/applications?q=${encodeURIComponent(q)}`)).json().items as { email: string }[]).map((i) => i.email).sort();
        const wang = await submitted('wang@example.com', { first_name: '美玲', last_name: '王', birth_date: '2007-02-03', phone_mobile: '(720) 555-0199', hs_name: 'Lincoln Academy' });
        await submitted('connor@example.com', { first_name: 'Siobhán', last_name: "O'Connor" });
        for (const q of ['王', '美玲', '美', '王 美玲', 'Lincoln', 'linc acad', '2007-02-03', '2/3/2007', '720 555 0199', '555-0199']) expect(await emailsFor(q), q).toEqual(['wang@example.com']);
        for (const q of ['connor', "o'connor", 'OConnor', 'O’Connor', 'siobhan o']) expect(await emailsFor(q), q).toEqual(['connor@example.com']);
        const [{ number }] = rowsOf<{ number: number }>(await t.database.db.execute(sql`select application_number as number from applications where user_id = ${wang.id}`)) as [{ number: number }];
        expect(await emailsFor(String(number))).toEqual(['wang@example.com']);
        // Too few digits for a phone, and not a date: neither reads the answers.
        expect(await emailsFor('0199')).toEqual([]);
      });

      it('counts as started only an account that has answered something, on the list and the dashboard, and breaks the dashboard down by term, major and place (issue 32)', async () => {
        const counts = async () => (await call(reader, 'GET', '/staff/api/application-counts')).json();
        const perDay = async () => ((await call(reader, 'GET', '/staff/api/dashboard?days=7')).json().per_day as { started: number }[]).reduce((sum, day) => sum + day.started, 0);
        const [before, dayBefore] = [await counts(), await perDay()];
        const signedInOnly = await signedInCookie(t, 'signed-in-only@example.com');
        expect(await counts()).toEqual(before);
        expect(await perDay()).toBe(dayBefore);
        await call(signedInOnly, 'PUT', '/api/answer', { first_name: 'Now' });
        expect((await counts()).started).toBe(before.started + 1);
        expect(await perDay()).toBe(dayBefore + 1);
        const dashboard = (await call(reader, 'GET', '/staff/api/dashboard?days=7')).json();
        expect(dashboard.by_term).toContainEqual({ label: 'Spring 2028', started: 0, submitted: 1 });
        expect(dashboard.by_major.find((group: { label: string }) => group.label === 'Biology').submitted).toBeGreaterThanOrEqual(2);
        expect(dashboard.by_place.find((group: { label: string }) => group.label === 'Colorado').submitted).toBeGreaterThanOrEqual(2);
        expect(dashboard.by_place.find((group: { label: string }) => group.label === 'Not answered').started).toBeGreaterThanOrEqual(1);
      });

      embeddedOnly.it('opens one application with the print view, documents, PDF status and timeline, and records the view', async () => {
        const before = (await auditRows()).length;
        const response = await call(reader, 'GET', `/staff/api/applications/${jose.id}`);
        expect(response.statusCode).toBe(200);
        const body = response.json();
        expect(body.view.answer.first_name).toBe('José');
        expect(body.view.username).toBe('jose@example.com');
        expect(body.status).toBe('submitted');
        expect(body.timeline.map((e: { event: string }) => e.event)).toEqual(expect.arrayContaining(['account_created', 'confirmed', 'signed_in', 'submitted']));
        const rows = await auditRows();
        expect(rows).toHaveLength(before + 1);
        expect(rows.at(-1)).toMatchObject({ action: 'application_view', applicationId: jose.id });

        // Nothing there: no record of a view.
        const missing = await call(reader, 'GET', '/staff/api/applications/00000000-0000-4000-8000-000000000000');
        expect(missing.statusCode).toBe(404);
        expect(await auditRows()).toHaveLength(before + 1);
      });

      embeddedOnly.it('shows the dashboard: started and submitted today, and where unsubmitted applications stopped', async () => {
        const dashboard = (await call(reader, 'GET', '/staff/api/dashboard?days=7')).json();
        expect(dashboard.per_day).toHaveLength(7);
        const today = dashboard.per_day.at(-1);
        expect(today.submitted).toBeGreaterThanOrEqual(0);
        expect(dashboard.stopped_at).toEqual(expect.arrayContaining([{ page: '/education', count: expect.any(Number) }]));
      });
    });

    describe('export (admin)', () => {
      let admin = '';
      let reader = '';
      let formula = { id: '', cookie: '' };
      beforeAll(async () => {
        admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
        reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
        formula = await submitted('formula@example.com', { first_name: '=HYPERLINK("http://evil.example")', last_name: '+Rivera', city: '@Home', address_line_2: '-1' });
      });

      it('streams CSV with a BOM, a column per catalogue key with its _desc, formulas neutralised', async () => {
        const response = await call(admin, 'GET', '/staff/api/export?format=csv');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(response.headers['content-disposition']).toMatch(/^attachment; filename="applications-\d{4}-\d\d-\d\d\.csv"$/);
        const raw = response.rawPayload;
        expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        const text = raw.subarray(3).toString('utf8');
        const header = text.split('\n')[0]!.split(',');
        expect(header.slice(0, 3)).toEqual(['id', 'email', 'submitted_at']);
        expect(header.slice(3)).toEqual([...answerKeys]);
        expect(header.indexOf('entry_term_desc')).toBe(header.indexOf('entry_term') + 1);
        const line = text.split('\n').find((l) => l.includes('formula@example.com'))!;
        expect(line).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
        expect(line).toContain("'+Rivera");
        expect(line).toContain("'@Home");
        expect(line).toContain("'-1");
        expect(text).not.toContain('started@example.com');
      });

      it('writes JSON Lines, one submitted application a line, and filters by submitted date', async () => {
        // Stored before the server wrote labels (issue 28): a browser's label, never exported.
        await t.database.db.execute(sql`update applications set answer = answer || '{"country_desc": "France"}'::jsonb where user_id = ${formula.id}`);
        const response = await call(admin, 'GET', '/staff/api/export?format=jsonl');
        const lines = response.body.trim().split('\n').map((l) => JSON.parse(l));
        const record = lines.find((l) => l.email === 'formula@example.com');
        expect(record).toMatchObject({ id: formula.id, first_name: '=HYPERLINK("http://evil.example")', entry_term: completeApplication.entry_term, country: 'USA', country_desc: 'United States' });
        const future = encodeURIComponent(new Date(clock.now().getTime() + 86_400_000).toISOString());
        expect((await call(admin, 'GET', `/staff/api/export?format=jsonl&from=${future}`)).body).toBe('');
        const backwards = await call(admin, 'GET', `/staff/api/export?format=csv&from=${future}&to=${encodeURIComponent('2020-01-01T00:00:00Z')}`);
        expect(backwards.statusCode).toBe(400);
        expect(backwards.json().message).toBe('The end of the range must be after its start.');
      });

      it('takes a bound in year 0 (before the calendar the database keeps) as the edge of time, not a 500 (issue 29, item 10)', async () => {
        const jsonl = async (query: string) => {
          const response = await call(admin, 'GET', `/staff/api/export?format=jsonl${query}`);
          expect(response.statusCode, response.body).toBe(200);
          return response.body.trim().split('\n').filter(Boolean).length;
        };
        const all = await jsonl('');
        expect(all).toBeGreaterThan(0);
        expect(await jsonl(`&from=${encodeURIComponent('0000-01-01T00:00:00Z')}`)).toBe(all);
        expect(await jsonl(`&from=${encodeURIComponent('0000-01-01T00:00:00Z')}&to=${encodeURIComponent('9999-12-31T23:59:59Z')}`)).toBe(all);
        expect(await jsonl(`&to=${encodeURIComponent('0000-06-01T00:00:00Z')}`)).toBe(0);
      });

      it('is refused to a reader, and the audit log too', async () => {
        for (const url of ['/staff/api/export?format=csv', '/staff/api/audit', '/staff/api/staff']) {
          const response = await call(reader, 'GET', url);
          expect(response.statusCode, url).toBe(403);
          expect(response.json()).toEqual({ message: 'Only an administrator can do this.' });
        }
      });

      it('records which applicants left in each spreadsheet export and how many rows; the audit log finds the export by applicant (issue 32)', async () => {
        const response = await call(admin, 'GET', '/staff/api/export?format=jsonl');
        const rows = response.body.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: string });
        const [entry] = (await call(admin, 'GET', '/staff/api/audit?action=export')).json().items;
        const runId = entry.detail.run as number;
        const [run] = await t.database.db.select().from(exportRuns).where(eq(exportRuns.id, runId));
        expect([run!.status, run!.rows, run!.templateName]).toEqual(['succeeded', rows.length, 'Everything, for a spreadsheet']);
        const carried = await t.database.db.select({ userId: exportRunApplicants.userId }).from(exportRunApplicants).where(eq(exportRunApplicants.runId, runId));
        expect(carried.map((row) => row.userId).sort()).toEqual(rows.map((row) => row.id).sort());
        const found = (await call(admin, 'GET', `/staff/api/audit?application=${rows[0]!.id}&action=export`)).json();
        expect(found.items.map((item: { detail: { run: number } }) => item.detail.run)).toContain(runId);
      });

      it('shows the audit log with filters, and the database refuses to change or remove an entry', async () => {
        const log = (await call(admin, 'GET', '/staff/api/audit?action=export')).json();
        expect(log.items.length).toBeGreaterThanOrEqual(2);
        expect(log.items[0]).toMatchObject({ action: 'export', ip: '127.0.0.1', application_id: null });
        const views = (await call(admin, 'GET', `/staff/api/audit?action=application_view`)).json();
        expect(views.items.every((i: { applicant_email: string | null }) => i.applicant_email !== null)).toBe(true);
        await expect(t.database.db.execute(sql`update audit_log set action = 'nothing'`)).rejects.toThrow();
        await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
      });

      it('records each list page and search with the ids it showed, the dashboard, and each reading of the log; the record of one application holds the pages that showed it (issue 29, item 8)', async () => {
        const since = (await auditRows()).length;
        const page = (await call(reader, 'GET', '/staff/api/applications?q=formula&page_size=10')).json();
        expect(page.items.map((i: { id: string }) => i.id)).toEqual([formula.id]);
        await call(reader, 'GET', '/staff/api/applications?status=submitted');
        await call(reader, 'GET', '/staff/api/dashboard?days=30');
        const read = await call(admin, 'GET', `/staff/api/audit?application=${formula.id}`);
        const added = (await auditRows()).slice(since);
        expect(added.map((row) => [row.action, row.detail])).toEqual([
          ['applications_list', { q: 'formula', status: null, entry_term: null, bin: null, queue: null, checklist: null, missing: null, page: 1, ids: [formula.id] }],
          ['applications_list', { q: null, status: 'submitted', entry_term: null, bin: null, queue: null, checklist: null, missing: null, page: 1, ids: expect.arrayContaining([formula.id]) }],
          ['dashboard_view', { days: 30 }],
          ['audit_view', { action: null, staff: null, application: formula.id, page: 1 }],
        ]);
        // Who saw this applicant: the views of the application and the list pages that showed it.
        const shown = read.json().items as { action: string; detail: { ids?: string[] } }[];
        expect(shown.filter((i) => i.action === 'applications_list').length).toBeGreaterThanOrEqual(2);
        expect(shown.every((i) => i.action !== 'applications_list' || i.detail.ids!.includes(formula.id))).toBe(true);
      });

      it('chains every entry to the one before, also when many are written at once; a changed or removed entry is found by the check (issue 29, item 7)', async () => {
        await Promise.all(Array.from({ length: 20 }, (_, i) => recordAudit(t.database.db, { staff: { id: null, email: `chain-${i}@example.edu` }, action: 'sign_in_failed', detail: { reason: 'password' }, ip: '192.0.2.1' })));
        const intact = await verifyAuditChain(t.database.db, 7);
        expect(intact).toMatchObject({ ok: true });
        expect(intact.entries).toBe((await auditRows()).length);
        expect(chainReportLine(intact)).toMatch(/^Audit log intact: \d+ entries, head [0-9a-f]{64}\./);

        // The table's owner can turn the guard off; the chain still tells.
        const [victim, next] = (await auditRows()).filter((row) => row.staffEmail.startsWith('chain-')).slice(3, 5);
        const unguarded = async (statement: ReturnType<typeof sql>) => {
          await t.database.db.execute(sql`alter table audit_log disable trigger audit_log_no_update`);
          try {
            await t.database.db.execute(statement);
          } finally {
            await t.database.db.execute(sql`alter table audit_log enable trigger audit_log_no_update`);
          }
        };
        await unguarded(sql`update audit_log set detail = '{"reason": "code"}' where id = ${victim!.id}`);
        const changed = await verifyAuditChain(t.database.db);
        expect(changed).toMatchObject({ ok: false, entryId: victim!.id, problem: 'changed' });
        expect(chainReportLine(changed)).toBe(`Audit log broken: entry ${victim!.id} was changed after it was written.`);
        await unguarded(sql`update audit_log set detail = '{"reason": "password"}' where id = ${victim!.id}`);
        expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true });
        await unguarded(sql`delete from audit_log where id = ${victim!.id}`);
        expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: false, entryId: next!.id, problem: 'out of chain' });
      });

      it('removes a staff member: their session ends at once, what they did stays in the log; an admin cannot remove themselves', async () => {
        const leaving = await setUpStaff(t, 'reader');
        const leavingCookie = await staffSignIn(t, leaving);
        expect((await call(leavingCookie, 'GET', '/staff/api/applications')).statusCode).toBe(200);
        const list = (await call(admin, 'GET', '/staff/api/staff')).json() as { id: string; email: string }[];
        const id = list.find((m) => m.email === leaving.email)!.id;
        const removed = await t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${id}`, headers: { cookie: admin } });
        expect(removed.statusCode).toBe(200);
        expect(removed.json()).toEqual({ message: `${leaving.email} no longer has access.` });
        expect((await call(leavingCookie, 'GET', '/staff/api/applications')).statusCode).toBe(401);
        const again = await t.app.inject({ method: 'POST', url: '/staff/public/login', payload: { email: leaving.email, password: STAFF_PASSWORD, code: nextCode(leaving.secret) } });
        expect(again.statusCode).toBe(400);
        expect((await t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${id}`, headers: { cookie: admin } })).statusCode).toBe(404);
        const rows = await auditRows();
        expect(rows.filter((r) => r.staffEmail === leaving.email).map((r) => r.action)).toEqual(expect.arrayContaining(['staff_setup', 'sign_in']));
        const removal = rows.find((r) => r.action === 'staff_remove')!;
        expect(removal.detail).toEqual({ removed: leaving.email, role: 'reader' });
        // After the removal, the failed sign-in of the removed address.
        expect(rows.at(-1)).toMatchObject({ action: 'sign_in_failed', staffEmail: leaving.email });

        const me = list.find((m) => m.email === removal.staffEmail)!;
        const self = await t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${me.id}`, headers: { cookie: admin } });
        expect(self.statusCode).toBe(409);
        expect(self.json()).toEqual({ message: 'You cannot remove your own account: another administrator can.' });
      });

      it('of two admins removing each other at the same moment, one removal wins and the other is refused (issue 29, item 4)', async () => {
        const first = await setUpStaff(t, 'admin');
        const second = await setUpStaff(t, 'admin');
        const firstCookie = await staffSignIn(t, first);
        const secondCookie = await staffSignIn(t, second);
        const list = (await call(admin, 'GET', '/staff/api/staff')).json() as { id: string; email: string }[];
        const idOf = (email: string) => list.find((m) => m.email === email)!.id;
        const [one, other] = await Promise.all([
          t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${idOf(second.email)}`, headers: { cookie: firstCookie } }),
          t.app.inject({ method: 'DELETE', url: `/staff/api/staff/${idOf(first.email)}`, headers: { cookie: secondCookie } }),
        ]);
        expect([one.statusCode, other.statusCode].sort()).toEqual([200, 401]);
        const left = (await call(admin, 'GET', '/staff/api/staff')).json() as { email: string }[];
        expect(left.filter((m) => m.email === first.email || m.email === second.email)).toHaveLength(1);
      });

      it("changes a member's role without removing them: at their next call, in the log; never the office's last admin (issue 30)", async () => {
        const member = await setUpStaff(t, 'reader');
        const memberCookie = await staffSignIn(t, member);
        const idOf = async (email: string) => ((await call(admin, 'GET', '/staff/api/staff')).json() as { id: string; email: string }[]).find((m) => m.email === email)!.id;
        const id = await idOf(member.email);
        expect((await call(memberCookie, 'GET', '/staff/api/staff')).statusCode).toBe(403);

        const decider = await call(admin, 'PUT', `/staff/api/staff/${id}/role`, { role: 'decider' });
        expect(decider.statusCode).toBe(200);
        expect(decider.json()).toMatchObject({ id, email: member.email, role: 'decider', status: 'active' });
        expect((await call(memberCookie, 'GET', '/staff/api/me')).json()).toEqual({ email: member.email, role: 'decider' });
        expect((await call(memberCookie, 'GET', '/staff/api/staff')).statusCode).toBe(403);
        expect((await call(admin, 'PUT', `/staff/api/staff/${id}/role`, { role: 'admin' })).statusCode).toBe(200);
        expect((await call(memberCookie, 'GET', '/staff/api/staff')).statusCode).toBe(200);
        const changes = (await auditRows()).filter((r) => r.action === 'staff_role_change' && (r.detail as { member?: string }).member === member.email);
        expect(changes.map((r) => r.detail)).toEqual([
          { member: member.email, from: 'reader', to: 'decider' },
          { member: member.email, from: 'decider', to: 'admin' },
        ]);

        expect((await call(admin, 'PUT', `/staff/api/staff/00000000-0000-4000-8000-000000000000/role`, { role: 'reader' })).statusCode).toBe(404);
        const owner = await call(admin, 'PUT', `/staff/api/staff/${id}/role`, { role: 'owner' });
        expect(owner.statusCode).toBe(400);
        // Every admin but the caller made a reader: then the caller is the last, and stays one.
        const me = ((await call(admin, 'GET', '/staff/api/me')).json() as { email: string }).email;
        for (const other of ((await call(admin, 'GET', '/staff/api/staff')).json() as { id: string; email: string; role: string }[]).filter((m) => m.role === 'admin' && m.email !== me)) {
          expect((await call(admin, 'PUT', `/staff/api/staff/${other.id}/role`, { role: 'reader' })).statusCode).toBe(200);
        }
        const last = await call(admin, 'PUT', `/staff/api/staff/${await idOf(me)}/role`, { role: 'reader' });
        expect(last.statusCode).toBe(409);
        expect(last.json()).toEqual({ message: 'The office needs at least one administrator: make someone else an administrator first.' });
        expect((await call(memberCookie, 'GET', '/staff/api/staff')).statusCode).toBe(403); // made a reader above
      });

      it('of two admins making each other readers at the same moment, one change wins and the office keeps an admin', async () => {
        const first = await setUpStaff(t, 'admin');
        const second = await setUpStaff(t, 'admin');
        const firstCookie = await staffSignIn(t, first);
        const secondCookie = await staffSignIn(t, second);
        // Only these two are admins, so that the pair is the office's last.
        const me = ((await call(admin, 'GET', '/staff/api/me')).json() as { email: string }).email;
        const list = (await call(admin, 'GET', '/staff/api/staff')).json() as { id: string; email: string; role: string }[];
        const idOf = (email: string) => list.find((m) => m.email === email)!.id;
        for (const other of list.filter((m) => m.role === 'admin' && m.email !== first.email && m.email !== second.email && m.email !== me)) {
          expect((await call(firstCookie, 'PUT', `/staff/api/staff/${other.id}/role`, { role: 'reader' })).statusCode).toBe(200);
        }
        expect((await call(firstCookie, 'PUT', `/staff/api/staff/${idOf(me)}/role`, { role: 'reader' })).statusCode).toBe(200);
        const [one, other] = await Promise.all([
          call(firstCookie, 'PUT', `/staff/api/staff/${idOf(second.email)}/role`, { role: 'reader' }),
          call(secondCookie, 'PUT', `/staff/api/staff/${idOf(first.email)}/role`, { role: 'reader' }),
        ]);
        expect([one.statusCode, other.statusCode].sort()).toEqual([200, 403]);
        const admins = ((await call(one.statusCode === 200 ? firstCookie : secondCookie, 'GET', '/staff/api/staff')).json() as { role: string }[]).filter((m) => m.role === 'admin');
        expect(admins).toHaveLength(1);
        // The suite's own admin back, for the tests after.
        expect((await call(one.statusCode === 200 ? firstCookie : secondCookie, 'PUT', `/staff/api/staff/${idOf(me)}/role`, { role: 'admin' })).statusCode).toBe(200);
      });

      embeddedOnly.it('invites a reader with a link that sets the account up', async () => {
        const invited = await call(admin, 'POST', '/staff/api/staff', { email: 'New.Reader@example.edu', role: 'reader' });
        expect(invited.statusCode).toBe(201);
        expect(invited.json()).toMatchObject({ email: 'new.reader@example.edu', role: 'reader', setup_url: expect.stringContaining('/staff/setup?token=') });
        const list = (await call(admin, 'GET', '/staff/api/staff')).json();
        expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'new.reader@example.edu', status: 'invited' })]));
        const bad = await call(admin, 'POST', '/staff/api/staff', { email: 'not-an-address', role: 'reader' });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().errors).toEqual({ email: ['Enter a valid e-mail address.'] });
      });
    });

    embeddedOnly.describe('two kinds of session', () => {
      embeddedOnly.it('an applicant session opens no /staff call and a staff session no /api call', async () => {
        const applicant = await signedInCookie(t);
        const staff = await staffSignIn(t, await setUpStaff(t, 'admin'));
        for (const url of ['/staff/api/me', '/staff/api/applications', '/staff/api/audit']) expect((await call(applicant, 'GET', url)).statusCode, url).toBe(401);
        for (const url of ['/api/profile', '/api/tabs', '/api/pdf']) expect((await call(staff, 'GET', url)).statusCode, url).toBe(401);
        // The staff cookie under the applicant's name does not pass either.
        const token = staff.match(/staff_session=([^;]+)/)![1]!;
        expect((await call(`portal_session=${token}`, 'GET', '/api/profile')).statusCode).toBe(401);
      });
    });
  });
});
