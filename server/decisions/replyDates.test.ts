import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryTermOptions } from '../../domain/catalogue/lists';
import { defaultReplyBy, replyClosed } from '../../domain/decisions';
import { clock } from '../infra/clock';
import { applications, auditLog, decisions, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { replyDateMessages } from './replyDates';

// The embedded database: plain rows, the same on PostgreSQL.
describe('each entry term’s reply date and deposit line (issue 51 §2)', () => {
  let t: TestApp;
  let admin = '';
  let reader = '';
  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  /** An admitted applicant for `term`, the decision released a minute ago. */
  async function admitted(username: string, term: string) {
    const cookie = await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db
      .update(applications)
      .set({ submittedAt: new Date(), status: 'submitted', answer: sql`${applications.answer} || ${JSON.stringify({ first_name: 'Mei', entry_term: term })}::jsonb` })
      .where(eq(applications.userId, user!.id));
    await t.database.db.insert(decisions).values({ userId: user!.id, decision: 'admit', decidedByEmail: 'decider@example.edu', decidedAt: new Date(), releaseAt: new Date(clock.now().getTime() - 60_000) });
    return cookie;
  }

  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
  }, 60_000);
  afterAll(async () => t?.close());

  it('gives each term the form offers its built-in date until the office sets one', async () => {
    const dates = (await call(reader, 'GET', '/staff/api/reply-dates')).json();
    expect(dates).toEqual({
      terms: entryTermOptions(clock.now()).map((option) => ({ entry_term: option.value, reply_by: defaultReplyBy(option.value), deposit: null, built_in: true })),
      updated_by: null,
      updated_at: null,
    });
  });

  it('tells a Fall 2028 admit Fall 2028’s date and deposit line, in the letter and on the page, and refuses a reply after it', async () => {
    const fall2028 = await admitted('mei@example.com', 'Fall 2028');
    const before = (await call(fall2028, 'GET', '/api/decision')).json();
    expect([before.reply_by, before.deposit]).toEqual(['2028-05-01', null]);
    expect(before.letter).toContain('by May 1, 2028.');

    expect((await call(reader, 'PUT', '/staff/api/reply-dates', { terms: [] })).statusCode).toBe(403);
    const twice = await call(admin, 'PUT', '/staff/api/reply-dates', { terms: [{ entry_term: 'Fall 2028', reply_by: '2028-04-15', deposit: null }, { entry_term: 'Fall 2028 ', reply_by: '2028-04-16', deposit: null }] });
    expect([twice.statusCode, twice.json().message]).toEqual([400, replyDateMessages.termTwice]);
    const set = await call(admin, 'PUT', '/staff/api/reply-dates', {
      terms: [
        { entry_term: 'Fall 2028', reply_by: '2028-04-15', deposit: ' A $300 deposit is due with your acceptance. ' },
        { entry_term: 'Fall 2027', reply_by: '2020-01-01', deposit: '' },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().terms.find((term: { entry_term: string }) => term.entry_term === 'Fall 2028')).toEqual({ entry_term: 'Fall 2028', reply_by: '2028-04-15', deposit: 'A $300 deposit is due with your acceptance.', built_in: false });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'reply_dates_change'));
    expect(entry!.detail).toEqual({ terms: ['Fall 2028: 2028-04-15', 'Fall 2027: 2020-01-01'] });

    const after = (await call(fall2028, 'GET', '/api/decision')).json();
    expect([after.reply_by, after.deposit]).toEqual(['2028-04-15', 'A $300 deposit is due with your acceptance.']);
    expect(after.letter).toContain('by April 15, 2028.');
    expect((await call(fall2028, 'PUT', '/api/decision/reply', { reply: 'accept' })).json()).toMatchObject({ reply: 'accept' });

    // A term whose date has passed: the reply is refused, naming that date.
    const late = await admitted('late@example.com', 'Fall 2027');
    const refused = await call(late, 'PUT', '/api/decision/reply', { reply: 'accept' });
    expect([refused.statusCode, refused.json().message]).toEqual([409, replyClosed('2020-01-01')]);
  });
  it('lets a decider record a reply given another way, or take one back, with the reason; the applicant then replies again', async () => {
    const decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    const phoned = await admitted('phoned@example.com', 'Fall 2028');
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'phoned@example.com'));
    const record = (cookie: string, body: object) => call(cookie, 'PUT', `/staff/api/applications/${user!.id}/reply`, body);
    const unexplained = await record(decider, { reply: 'accept', reason: '  ' });
    expect([unexplained.statusCode, unexplained.json().message]).toEqual([400, 'Say why the reply is recorded here: a phone call, a letter, a reply sent by mistake.']);
    expect((await record(reader, { reply: 'accept', reason: 'By phone.' })).statusCode).toBe(403);
    const recorded = await record(decider, { reply: 'accept', reason: 'She accepted by phone on March 20.' });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toMatchObject({ reply: 'accept', replied_at: expect.any(String), reply_recorded_by: expect.stringContaining('@'), reply_reason: 'She accepted by phone on March 20.' });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'decision_reply_record'));
    expect([entry!.applicationId, entry!.detail]).toEqual([user!.id, { reply: 'accept', reason: 'She accepted by phone on March 20.' }]);
    expect((await call(phoned, 'GET', '/api/decision')).json()).toMatchObject({ reply: 'accept' });
    expect((await call(phoned, 'PUT', '/api/decision/reply', { reply: 'decline' })).statusCode).toBe(409);

    // Taken back: no reply, and the applicant replies in the portal, which is theirs again.
    expect((await record(decider, { reply: null, reason: 'Recorded on the wrong file.' })).json()).toMatchObject({ reply: null, replied_at: null, reply_reason: 'Recorded on the wrong file.' });
    expect((await call(phoned, 'PUT', '/api/decision/reply', { reply: 'decline' })).json()).toMatchObject({ reply: 'decline' });
    const [row] = await t.database.db.select().from(decisions).where(eq(decisions.userId, user!.id));
    expect([row!.reply, row!.replyRecordedBy, row!.replyReason]).toEqual(['decline', null, null]);

    // Not an offer: nothing to record.
    await t.database.db.update(decisions).set({ decision: 'deny' }).where(eq(decisions.userId, user!.id));
    expect((await record(decider, { reply: 'accept', reason: 'By phone.' })).statusCode).toBe(409);
  });
});
