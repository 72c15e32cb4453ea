import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correctionMessages } from '../../domain/corrections';
import { staffMessages } from '../../domain/staff';
import { rowsOf } from '../infra/db';
import { applications, auditLog } from '../infra/schema';
import { applicantWithAnswers, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

describe('correcting a submitted answer (issue 32)', () => {
  let t: TestApp;
  let decider = '';
  let deciderEmail = '';
  let id = '';
  let draft = '';
  beforeAll(async () => {
    t = await testApp();
    const account = await setUpStaff(t, 'decider');
    deciderEmail = account.email;
    decider = await staffSignIn(t, account);
    const answer = { first_name: 'Ana', birth_date: '2008-12-04', entry_term: 'Fall 2027' };
    ({ id } = await applicantWithAnswers(t, 'corrected@example.com', answer, true));
    ({ id: draft } = await applicantWithAnswers(t, 'draft-correction@example.com', answer, false));
  }, 60_000);
  afterAll(async () => t?.close());

  const correct = (application: string, body: object) => t.app.inject({ method: 'POST', url: `/staff/api/applications/${application}/corrections`, payload: body, headers: { cookie: decider } });
  const changedXid = async () => rowsOf<{ x: string }>(await t.database.db.execute(sql`select changed_xid::text as x from applications where user_id = ${id}`))[0]!.x;

  it('changes the answer and keeps what it was, why and by whom; a choice takes its label; audited; the export sees a change', async () => {
    const xidBefore = await changedXid();
    const first = await correct(id, { key: 'birth_date', value: '2008-04-12', reason: '  Applicant wrote in: day and month swapped.  ' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().corrections).toEqual([{ id: expect.any(Number), key: 'birth_date', label: 'Birth Date', from: '2008-12-04', to: '2008-04-12', reason: 'Applicant wrote in: day and month swapped.', by: deciderEmail, at: expect.any(String) }]);
    expect(await changedXid()).not.toBe(xidBefore);
    await correct(id, { key: 'entry_term', value: 'Fall 2028', reason: 'Deferred by request.' });
    const view = (await t.app.inject({ method: 'GET', url: `/staff/api/applications/${id}`, headers: { cookie: decider } })).json();
    expect(view.view.answer).toMatchObject({ birth_date: '2008-04-12', entry_term: 'Fall 2028', entry_term_desc: 'Fall 2028' });
    expect(view.corrections.map((c: { key: string; from: string; to: string }) => [c.key, c.from, c.to])).toEqual([
      ['birth_date', '2008-12-04', '2008-04-12'],
      ['entry_term', 'Fall 2027', 'Fall 2028'],
    ]);
    const removed = await correct(id, { key: 'first_name', value: '', reason: 'Typed in the wrong field.' });
    expect(removed.json().corrections.at(-1)).toMatchObject({ key: 'first_name', from: 'Ana', to: null });
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'answer_correct'));
    expect(entries.map((entry) => [entry.applicationId, entry.detail])).toEqual([
      [id, { key: 'birth_date', reason: 'Applicant wrote in: day and month swapped.' }],
      [id, { key: 'entry_term', reason: 'Deferred by request.' }],
      [id, { key: 'first_name', reason: 'Typed in the wrong field.' }],
    ]);
  });

  it('refuses what is not a correction, saying why, and changes nothing', async () => {
    const before = (await t.database.db.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, id)))[0]!.answer;
    const cases: [string, object, number, string][] = [
      [id, { key: 'entry_term', value: 'Summer 2031', reason: 'x' }, 400, 'Please check the highlighted fields.'],
      [id, { key: 'birth_date', value: '2008-04-12', reason: 'Again.' }, 400, correctionMessages.unchanged],
      [id, { key: 'birth_date', value: '2008-04-13', reason: ' ' }, 400, 'Please check the highlighted fields.'],
      [draft, { key: 'birth_date', value: '2008-04-13', reason: 'Asked.' }, 409, correctionMessages.notSubmitted],
      ['00000000-0000-4000-8000-000000000000', { key: 'birth_date', value: '2008-04-13', reason: 'Asked.' }, 404, staffMessages.applicationNotFound],
    ];
    for (const [application, body, status, message] of cases) {
      const refused = await correct(application, body);
      expect([refused.statusCode, refused.json().message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect((await t.database.db.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, id)))[0]!.answer).toEqual(before);
  });
});
