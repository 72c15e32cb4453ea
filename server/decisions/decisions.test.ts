import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { decisionMessages, decisionNotice } from '../../domain/decisions';
import { staffMessages } from '../../domain/staff';
import { clock } from '../infra/clock';
import { auditLog, decisions, users } from '../infra/schema';
import { rowsOf } from '../infra/db';
import { signedInCookie, testApp, waitForMail, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { noticeClaim, sendDueNotices } from './notices';
import type { Mail } from '../infra/mail';

// The embedded database: the calls' rules and the notices' once-only claim (plain SQL, the same on PostgreSQL).
describe('decisions, their release and the applicant status (issue 30)', () => {
  let t: TestApp;
  let decider = '';
  let deciderEmail = '';
  let reader = '';

  beforeAll(async () => {
    t = await testApp({ env: { RATE_LIMIT_SCALE: '100' } });
    const account = await setUpStaff(t, 'decider');
    deciderEmail = account.email;
    decider = await staffSignIn(t, account);
    reader = await staffSignIn(t, await setUpStaff(t, 'reader'));
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  const idOf = async (username: string) => (await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]!.id;
  /** The notices' own deps, sending into the app's mail list (the app's worker sweeps the same table). */
  const noticeDeps = () => ({ db: t.database.db, mailer: { kind: 'outbox' as const, send: async (mail: Mail) => void t.sent.push(mail) }, publicUrl: t.config.publicUrl, log: () => {} });

  /** A submitted applicant: their cookie and application id. */
  async function submitted(username: string) {
    const cookie = await signedInCookie(t, username);
    expect((await call(cookie, 'PUT', '/api/answer', completeApplication)).statusCode).toBe(200);
    expect((await call(cookie, 'POST', '/api/submit')).statusCode).toBe(200);
    return { cookie, id: await idOf(username) };
  }
  const status = async (cookie: string) => (await call(cookie, 'GET', '/api/decision')).json();
  const noticesTo = (to: string) => t.sent.filter((mail) => mail.to === to && mail.subject === decisionMessages.noticeSubject);

  it('keeps a decision provisional, unseen, until released; then the applicant reads it, its letter, and gets one notice without the decision', async () => {
    const { cookie, id } = await submitted('admitted@example.com');
    expect(await status(cookie)).toEqual({ state: 'under_review' });

    const set = await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ decision: 'admit', state: 'provisional', decided_by: deciderEmail, release_at: null, reply: null });
    expect(await status(cookie)).toEqual({ state: 'under_review' });
    expect((await call(reader, 'GET', `/staff/api/applications/${id}`)).json().decision).toMatchObject({ decision: 'admit', state: 'provisional' });

    const released = await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id, id] });
    expect(released.statusCode, released.body).toBe(202);
    expect(released.json().scheduled).toBe(1);
    const seen = await status(cookie);
    expect(seen).toMatchObject({ state: 'decided', decision: 'admit', reply_by: '2027-05-01', reply: null });
    expect(seen.letter).toMatch(/^Dear Jordan,\n\nCongratulations! I am delighted to offer you admission to Northfield University for Fall 2027\./);
    expect(seen.letter).toContain('by May 1, 2027');

    const notice = await waitForMail(t.sent, 'admitted@example.com');
    expect(notice).toEqual({ to: 'admitted@example.com', ...decisionNotice(`${t.config.publicUrl}/login`), messageId: expect.stringMatching(new RegExp(`^<decision-notice\\.${id}\\.\\d+@${new URL(t.config.publicUrl).hostname.replaceAll('.', '\\.')}>$`)) });
    expect(`${notice.subject} ${notice.text} ${notice.html}`).not.toMatch(/admit|congratulat|offer/i);
    expect(await sendDueNotices(noticeDeps())).toBe(0);
    expect(noticesTo('admitted@example.com')).toHaveLength(1);
    // Released: nothing left to release.
    const again = await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id] });
    expect([again.statusCode, again.json()]).toEqual([409, { message: decisionMessages.nothingToRelease }]);
  });

  it('releases at a set time: unseen and unannounced before, seen and announced once after', async () => {
    const { cookie, id } = await submitted('scheduled@example.com');
    await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'waitlist' });
    // A minute ahead: an hour would end the applicant's session (inactivity) before it could look.
    const at = new Date(clock.now().getTime() + 60_000);
    const scheduled = await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id], release_at: at.toISOString() });
    expect(scheduled.json()).toEqual({ scheduled: 1, release_at: at.toISOString() });
    expect(await status(cookie)).toEqual({ state: 'under_review' });
    expect((await call(decider, 'GET', '/staff/api/decisions?state=scheduled')).json().items.map((item: { email: string }) => item.email)).toContain('scheduled@example.com');
    // The page named applicants: in the audit log as a list page, with the ids it showed.
    const [listed] = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'applications_list'))).slice(-1);
    expect(listed!.detail).toMatchObject({ list: 'decisions', state: 'scheduled', ids: expect.arrayContaining([id]) });
    expect(await sendDueNotices(noticeDeps())).toBe(0);
    clock.advance(60_001);
    try {
      expect(await status(cookie)).toMatchObject({ state: 'decided', decision: 'waitlist', reply_by: null });
      await sendDueNotices(noticeDeps());
      await waitForMail(t.sent, 'scheduled@example.com');
      expect(await sendDueNotices(noticeDeps())).toBe(0);
      expect(noticesTo('scheduled@example.com')).toHaveLength(1);
    } finally {
      clock.advance(-60_001);
    }
    const past = await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id], release_at: '2020-01-01T00:00:00.000Z' });
    expect([past.statusCode, past.json().message]).toEqual([400, decisionMessages.releaseInPast]);
  });

  it('calls a scheduled release back before its time: provisional again, never seen nor announced; a released one stays released', async () => {
    const recalled = await submitted('recalled@example.com');
    const kept = await submitted('kept-scheduled@example.com');
    for (const { id } of [recalled, kept]) await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    const at = new Date(clock.now().getTime() + 60_000);
    expect((await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [recalled.id, kept.id], release_at: at.toISOString() })).statusCode).toBe(202);
    const back = await call(decider, 'POST', '/staff/api/decisions/recall', { application_ids: [recalled.id] });
    expect([back.statusCode, back.json()]).toEqual([200, { recalled: 1 }]);
    expect((await call(reader, 'GET', `/staff/api/applications/${recalled.id}`)).json().decision).toMatchObject({ state: 'provisional', release_at: null });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'decision_recall'));
    expect([entry?.applicationId, entry?.detail]).toEqual([recalled.id, { release_at: at.toISOString() }]);
    clock.advance(60_001);
    try {
      expect(await status(recalled.cookie)).toEqual({ state: 'under_review' });
      expect(await status(kept.cookie)).toMatchObject({ state: 'decided', decision: 'admit' });
      await sendDueNotices(noticeDeps());
      await waitForMail(t.sent, 'kept-scheduled@example.com');
      expect(noticesTo('recalled@example.com')).toHaveLength(0);
      // Its time has come: released, it cannot be called back.
      const late = await call(decider, 'POST', '/staff/api/decisions/recall', { application_ids: [kept.id] });
      expect([late.statusCode, late.json()]).toEqual([409, { message: decisionMessages.nothingToRecall }]);
      expect(await status(kept.cookie)).toMatchObject({ state: 'decided' });
    } finally {
      clock.advance(-60_001);
    }
  });

  it('claims the next notice without reading the notices already sent (a release of 10,000 once read 50 million rows)', async () => {
    // 300 decisions released an hour ago, their notices sent; one released a minute ago, due.
    await t.database.db.execute(sql`
      with made as (insert into users (username, password_hash) select 'noticed-' || i || '@example.com', 'x' from generate_series(1, 300) i returning id)
      insert into decisions (user_id, decision, decided_by_email, decided_at, release_at, notice_for, notice_sent_for)
      select id, 'admit', 'bench@example.edu', now(), now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour' from made`);
    const { id } = await submitted('due-notice@example.com');
    await t.database.db.insert(decisions).values({ userId: id, decision: 'admit', decidedByEmail: deciderEmail, decidedAt: new Date(), releaseAt: new Date(Date.now() - 60_000) });
    await t.database.db.execute(sql`analyze decisions`);
    type Plan = { 'Rows Removed by Filter'?: number; Plans?: Plan[] };
    const removed = (plan: Plan): number => (plan['Rows Removed by Filter'] ?? 0) + (plan.Plans ?? []).reduce((sum, child) => sum + removed(child), 0);
    let read = -1;
    // Run and measured, then undone. Only the rows it read are asserted: the app's own worker may
    // sweep the due notice meanwhile, and a claim that finds none must read nothing either.
    await t.database.db
      .transaction(async (tx) => {
        const [row] = rowsOf<{ 'QUERY PLAN': [{ Plan: Plan }] | string }>(await tx.execute(sql`explain (analyze, format json) ${noticeClaim(new Date())}`));
        const plan = row!['QUERY PLAN'];
        read = removed((typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: Plan }]) : plan)[0].Plan);
        tx.rollback();
      })
      .catch(() => {});
    expect(read).toBe(0);
    // Sent here (or by the app's worker meanwhile), so the next test starts with none due.
    await sendDueNotices(noticeDeps());
  });

  it('sends each notice once when two workers sweep at the same moment (the claim is committed before the mail)', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await submitted(`race-${n}@example.com`)).id);
    await t.database.db
      .insert(decisions)
      .values(ids.map((userId) => ({ userId, decision: 'deny' as const, decidedByEmail: 'x@example.edu', decidedAt: new Date(), releaseAt: new Date(Date.now() - 1000) })));
    const counts = await Promise.all([sendDueNotices(noticeDeps()), sendDueNotices(noticeDeps()), sendDueNotices(noticeDeps())]);
    // The app's own minute sweep may have claimed some first: between them all, each notice goes once.
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5);
    for (let n = 0; n < 5; n++) await waitForMail(t.sent, `race-${n}@example.com`);
    expect(await sendDueNotices(noticeDeps())).toBe(0);
    for (let n = 0; n < 5; n++) expect(noticesTo(`race-${n}@example.com`), `race-${n}`).toHaveLength(1);
  });

  it('changes a released decision only with a reason; the applicant sees the new one at once, asked to reply anew, with a new notice', async () => {
    const { cookie, id } = await submitted('changed@example.com');
    await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'waitlist' });
    await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id] });
    await waitForMail(t.sent, 'changed@example.com');

    const noReason = await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit', reason: '   ' });
    expect([noReason.statusCode, noReason.json()]).toEqual([400, { message: decisionMessages.reasonRequired, errors: { reason: [decisionMessages.reasonRequired] } }]);
    expect(await status(cookie)).toMatchObject({ decision: 'waitlist' });

    const changed = await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit', reason: 'A place opened on the waitlist.' });
    expect(changed.json()).toMatchObject({ decision: 'admit', state: 'released', reason: 'A place opened on the waitlist.' });
    expect(await status(cookie)).toMatchObject({ state: 'decided', decision: 'admit', reply: null });
    await waitForMail(t.sent, 'changed@example.com', 2);

    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.applicationId, id));
    expect(entries.map((entry) => [entry.action, entry.detail])).toEqual(
      expect.arrayContaining([
        ['decision_set', { decision: 'waitlist', from: null }],
        ['decision_release', { release_at: expect.any(String) }],
        ['decision_change', { from: 'waitlist', to: 'admit', reason: 'A place opened on the waitlist.' }],
      ]),
    );
  });

  it('takes one reply to a released admit, in the audit log; refuses a second, a reply to another decision, and one before release', async () => {
    const { cookie, id } = await submitted('replies@example.com');
    const early = await call(cookie, 'PUT', '/api/decision/reply', { reply: 'accept' });
    expect([early.statusCode, early.json()]).toEqual([409, { message: decisionMessages.notAnOffer }]);
    await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    expect((await call(cookie, 'PUT', '/api/decision/reply', { reply: 'accept' })).statusCode).toBe(409);
    await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id] });

    const accepted = await call(cookie, 'PUT', '/api/decision/reply', { reply: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'decided', decision: 'admit', reply: 'accept', replied_at: expect.any(String) });
    const twice = await call(cookie, 'PUT', '/api/decision/reply', { reply: 'decline' });
    expect([twice.statusCode, twice.json()]).toEqual([409, { message: decisionMessages.alreadyReplied }]);
    expect((await call(decider, 'GET', `/staff/api/applications/${id}`)).json().decision).toMatchObject({ reply: 'accept' });
    const [entry] = await t.database.db.select().from(auditLog).where(inArray(auditLog.action, ['decision_reply']));
    expect(entry).toMatchObject({ staffEmail: 'replies@example.com', applicationId: id, detail: { reply: 'accept' } });

    const denied = await submitted('denied@example.com');
    await call(decider, 'PUT', `/staff/api/applications/${denied.id}/decision`, { decision: 'deny' });
    await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [denied.id] });
    expect((await call(denied.cookie, 'PUT', '/api/decision/reply', { reply: 'accept' })).json()).toEqual({ message: decisionMessages.notAnOffer });
  });

  it('decides a selection at once: provisional ones recorded or replaced, released and unsubmitted ones skipped and counted, each audited', async () => {
    const [a, b, released] = [await submitted('many-a@example.com'), await submitted('many-b@example.com'), await submitted('many-released@example.com')];
    const unsubmitted = await signedInCookie(t, 'many-unsubmitted@example.com');
    await call(decider, 'PUT', `/staff/api/applications/${b.id}/decision`, { decision: 'deny' });
    await call(decider, 'PUT', `/staff/api/applications/${released.id}/decision`, { decision: 'deny' });
    await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [released.id] });
    const ids = [a.id, b.id, released.id, await idOf('many-unsubmitted@example.com'), '00000000-0000-4000-8000-000000000000'];
    const many = await call(decider, 'POST', '/staff/api/decisions', { application_ids: ids, decision: 'waitlist' });
    expect([many.statusCode, many.json()]).toEqual([200, { decided: 2, skipped: 3 }]);
    const rows = await t.database.db.select().from(decisions).where(inArray(decisions.userId, [a.id, b.id, released.id]));
    expect(Object.fromEntries(rows.map((row) => [row.userId, row.decision]))).toEqual({ [a.id]: 'waitlist', [b.id]: 'waitlist', [released.id]: 'deny' });
    expect(await status(unsubmitted)).toEqual({ state: 'in_progress' });
    const entries = await t.database.db.select().from(auditLog).where(inArray(auditLog.applicationId, [a.id, b.id]));
    expect(entries.filter((entry) => entry.action === 'decision_set').map((entry) => entry.detail)).toEqual(
      expect.arrayContaining([{ decision: 'waitlist', from: null }, { decision: 'waitlist', from: 'deny' }]),
    );
  });

  it('writes letters from the office’s templates with the answers merged, previewed before release; unknown fields refused; back to the built-in one', async () => {
    const admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    const { cookie, id } = await submitted('lettered@example.com');
    const unknown = await call(admin, 'PUT', '/staff/api/letters/admit', { body: 'Dear {first_name} {nickname},' });
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      400,
      'Unknown merge field {nickname}: use {first_name}, {last_name}, {full_name}, {entry_term}, {applied_major}, {reply_by}.',
    ]);
    expect((await call(admin, 'PUT', '/staff/api/letters/admit', { body: '  \n' })).json().message).toBe('Write the letter, or go back to the built-in one.');
    expect((await call(decider, 'PUT', '/staff/api/letters/admit', { body: 'Dear {first_name},' })).statusCode).toBe(403);

    const written = await call(admin, 'PUT', '/staff/api/letters/admit', { body: 'Dear {full_name},\n\nWelcome to {entry_term}! Reply by {reply_by}.\n' });
    expect(written.json()).toMatchObject({ decision: 'admit', body: 'Dear {full_name},\n\nWelcome to {entry_term}! Reply by {reply_by}.', built_in: false, updated_at: expect.any(String) });
    const templates = (await call(decider, 'GET', '/staff/api/letters')).json();
    expect(templates.map((template: { decision: string; built_in: boolean }) => [template.decision, template.built_in])).toEqual([
      ['admit', false],
      ['deny', true],
      ['waitlist', true],
      ['defer', true],
    ]);

    const preview = await call(decider, 'GET', `/staff/api/applications/${id}/letter?decision=admit`);
    expect(preview.json()).toEqual({ decision: 'admit', letter: 'Dear Jordan Rivera,\n\nWelcome to Fall 2027! Reply by May 1, 2027.' });
    await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    await call(decider, 'POST', '/staff/api/decisions/release', { application_ids: [id] });
    expect((await status(cookie)).letter).toBe('Dear Jordan Rivera,\n\nWelcome to Fall 2027! Reply by May 1, 2027.');

    const reset = await call(admin, 'PUT', '/staff/api/letters/admit', { body: '', built_in: true });
    expect(reset.json()).toMatchObject({ decision: 'admit', built_in: true });
    expect((await status(cookie)).letter).toMatch(/^Dear Jordan,\n\nCongratulations!/);
    const actions = (await t.database.db.select().from(auditLog)).filter((entry) => entry.action.startsWith('letter_')).map((entry) => [entry.action, entry.detail]);
    expect(actions).toEqual([
      ['letter_template_change', { decision: 'admit', built_in: 'false' }],
      ['letter_preview', { decision: 'admit' }],
      ['letter_template_change', { decision: 'admit', built_in: 'true' }],
    ]);
  });

  it('decides only submitted applications, and only as a decider (a reader is refused, nothing kept)', async () => {
    const cookie = await signedInCookie(t, 'unsubmitted@example.com');
    const id = await idOf('unsubmitted@example.com');
    expect(await status(cookie)).toEqual({ state: 'in_progress' });
    const early = await call(decider, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    expect([early.statusCode, early.json()]).toEqual([409, { message: decisionMessages.notSubmitted }]);
    const unknown = await call(decider, 'PUT', '/staff/api/applications/00000000-0000-4000-8000-000000000000/decision', { decision: 'admit' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: staffMessages.applicationNotFound }]);

    const other = await submitted('reader-refused@example.com');
    for (const [method, url, payload] of [
      ['PUT', `/staff/api/applications/${other.id}/decision`, { decision: 'admit' }],
      ['POST', '/staff/api/decisions/release', { application_ids: [other.id] }],
      ['POST', '/staff/api/decisions', { application_ids: [other.id], decision: 'admit' }],
      ['GET', '/staff/api/letters', undefined],
      ['GET', `/staff/api/applications/${other.id}/letter?decision=admit`, undefined],
      ['GET', '/staff/api/decisions', undefined],
    ] as const) {
      const refused = await call(reader, method, url, payload);
      expect([refused.statusCode, refused.json()], url).toEqual([403, { message: staffMessages.deciderOnly }]);
    }
    expect((await call(reader, 'GET', `/staff/api/applications/${other.id}`)).json().decision).toBeNull();
  });
});
