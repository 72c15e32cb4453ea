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
    expect(letter.headers['content-disposition']).toMatch(/^attachment; filename=Rivera_Jordan_\d+_Decision_Letter\.pdf$/);
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

  it('escapes the letter: what an applicant typed is text, never markup', () => {
    const html = letterPageHtml({ letter: 'Dear <script>alert(1)</script>,\n\nWelcome.', decision: 'admit', releasedAt: '2027-03-15T16:00:00.000Z' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('Dear &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(html).toContain('March 15, 2027');
  });
});
