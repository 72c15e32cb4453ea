import { spawnSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { decisionMessages } from '../../domain/decisions';
import { users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { pdfTextByPage } from '../testing/files';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { letterPageHtml } from './letterPdf';

// The real app with its in-process worker and Debian's Chromium: the letter is printed by the worker.
describe('the decision letter as a PDF (issue 30)', () => {
  let t: TestApp;
  let decider = '';
  let admin = '';
  beforeAll(async () => {
    t = await testApp();
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });

  it('is not there before release; after it, the worker prints the letter as read, named for the applicant, and prints it again when the template changes', async () => {
    const cookie = await signedInCookie(t, 'letter@example.com');
    expect((await call(cookie, 'PUT', '/api/answer', completeApplication)).statusCode).toBe(200);
    expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'letter@example.com'));
    const early = await call(cookie, 'GET', '/api/decision/letter');
    expect([early.statusCode, early.json()]).toEqual([404, { message: decisionMessages.noLetter }]);

    expect((await call(decider, 'PUT', `/staff/api/applications/${user!.id}/decision`, { decision: 'waitlist' })).statusCode).toBe(200);
    expect((await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [user!.id] })).statusCode).toBe(202);
    const letter = await call(cookie, 'GET', '/api/decision/letter');
    expect(letter.statusCode, letter.body.slice(0, 200)).toBe(200);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect(letter.headers['content-disposition']).toMatch(/^attachment; filename=Rivera_Jordan_\d+_Decision-Letter\.pdf$/);
    const text = (await pdfTextByPage(letter.rawPayload)).join('\n');
    expect(text).toContain('Northfield University');
    expect(text).toContain('Dear Jordan,');
    // Asked again: the kept print, not a second one.
    expect((await call(cookie, 'GET', '/api/decision/letter')).rawPayload.equals(letter.rawPayload)).toBe(true);

    expect((await call(admin, 'PUT', '/staff/api/letters/waitlist', { body: 'Dear {first_name},\n\nYou are on our waitlist for {entry_term}.' })).statusCode).toBe(200);
    const changed = await call(cookie, 'GET', '/api/decision/letter');
    expect(changed.statusCode).toBe(200);
    expect((await pdfTextByPage(changed.rawPayload)).join('\n')).toContain('You are on our waitlist for Fall 2027.');
  }, 60_000);

  it('prints a letter released on the clock of the call that asks (a browser test’s), whatever the worker’s clock says', async () => {
    const cookie = await signedInCookie(t, 'later-letter@example.com');
    expect((await call(cookie, 'PUT', '/api/answer', completeApplication)).statusCode).toBe(200);
    expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'later-letter@example.com'));
    await call(decider, 'PUT', `/staff/api/applications/${user!.id}/decision`, { decision: 'admit' });
    const at = new Date(Date.now() + 5 * 60_000).toISOString();
    expect((await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [user!.id], release_at: at })).statusCode).toBe(202);
    // This test's own clock, six minutes on: released for its calls, not yet for the worker's.
    const own = { 'x-test-clock': 'letter-pdf-test' };
    expect((await t.app.inject({ method: 'POST', url: '/dev/clock', headers: own, payload: { advance_ms: 6 * 60_000 } })).statusCode).toBe(200);
    const letter = await t.app.inject({ method: 'GET', url: '/api/decision/letter', headers: { cookie, ...own } });
    expect(letter.statusCode, letter.body.slice(0, 200)).toBe(200);
    expect((await pdfTextByPage(letter.rawPayload)).join('\n')).toContain('Congratulations!');
  }, 60_000);

  it('renders the letter and the application document as the server runs them (node with tsx, not Vite): each views/ file names its JSX runtime', () => {
    const script = `
      const { letterPageHtml } = await import('./server/decisions/letterPdf.ts');
      const { printPageHtml } = await import('./server/pdf/printPage.ts');
      process.stdout.write(letterPageHtml({ letter: 'Dear Jordan,', decision: 'admit', releasedAt: '2027-03-15T16:00:00.000Z' }));
      process.stdout.write(printPageHtml({ username: 'a@example.com', application_number: 100001, submitted_at: null, answer: { first_name: 'Jordan' }, add_another: {}, document_answer: {}, tabs: {} }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('<p>Dear Jordan,</p>');
    expect(run.stdout).toContain('Jordan');
  }, 60_000);

  it('escapes the letter: what an applicant typed is text, never markup', () => {
    const html = letterPageHtml({ letter: 'Dear <script>alert(1)</script>,\n\nWelcome.', decision: 'admit', releasedAt: '2027-03-15T16:00:00.000Z' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('Dear &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(html).toContain('March 15, 2027');
  });
});
