import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checklistMessages } from '../../domain/checklist';
import { applications, auditLog, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

// The embedded database: the marks' rules (plain upserts, the same on PostgreSQL).
describe('the checklist of materials (issue 31)', () => {
  let t: TestApp;
  let staff = '';
  let staffEmail = '';
  beforeAll(async () => {
    t = await testApp();
    const account = await setUpStaff(t, 'reader');
    staffEmail = account.email;
    staff = await staffSignIn(t, account);
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie: staff } });
  async function application(username: string, answer: Record<string, string>, submitted = true) {
    await signedInCookie(t, username);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db.update(applications).set({ answer, submittedAt: submitted ? new Date() : null }).where(eq(applications.userId, user!.id));
    return user!.id;
  }
  const mark = (id: string, key: string, body: object) => call('PUT', `/staff/api/applications/${id}/checklist/${key}`, body);

  it('builds the checklist from the answers; items received or waived, with a reason, make it complete; each mark is audited', async () => {
    const id = await application('materials@example.com', { citizenship_type: 'N', first_name: 'Ana' });
    const opened = (await call('GET', `/staff/api/applications/${id}`)).json();
    expect(opened.checklist).toMatchObject({ complete: false });
    expect(opened.checklist.items.map((item: { key: string; status: string }) => `${item.key}:${item.status}`)).toEqual([
      'transcript:awaiting',
      'counselor_recommendation:awaiting',
      'teacher_recommendation:awaiting',
      'english_proficiency:awaiting',
    ]);
    const noReason = await mark(id, 'teacher_recommendation', { status: 'waived', reason: '  ' });
    expect([noReason.statusCode, noReason.json()]).toEqual([400, { message: checklistMessages.reasonRequired, errors: { reason: [checklistMessages.reasonRequired] } }]);
    for (const key of ['transcript', 'counselor_recommendation', 'english_proficiency']) expect((await mark(id, key, { status: 'received' })).statusCode).toBe(200);
    const last = await mark(id, 'teacher_recommendation', { status: 'waived', reason: 'Home-schooled: no teacher to ask.' });
    expect(last.statusCode).toBe(200);
    expect(last.json().complete).toBe(true);
    expect(last.json().items.at(2)).toEqual({ key: 'teacher_recommendation', label: 'Teacher recommendation', status: 'waived', by: staffEmail, reason: 'Home-schooled: no teacher to ask.', at: expect.any(String) });
    const undone = await mark(id, 'transcript', { status: 'awaiting' });
    expect(undone.json().complete).toBe(false);
    expect(undone.json().items[0]).toMatchObject({ key: 'transcript', status: 'awaiting', by: null });
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'checklist_mark'));
    expect(entries.map((entry) => entry.detail)).toEqual([
      { key: 'transcript', status: 'received', reason: null },
      { key: 'counselor_recommendation', status: 'received', reason: null },
      { key: 'english_proficiency', status: 'received', reason: null },
      { key: 'teacher_recommendation', status: 'waived', reason: 'Home-schooled: no teacher to ask.' },
      { key: 'transcript', status: 'awaiting', reason: null },
    ]);
  });

  it('refuses an item the answers do not call for, an unsubmitted application and an unknown one, recording nothing', async () => {
    const citizen = await application('citizen@example.com', { citizenship_type: 'C' });
    const notAsked = await mark(citizen, 'english_proficiency', { status: 'received' });
    expect([notAsked.statusCode, notAsked.json()]).toEqual([404, { message: checklistMessages.notOnChecklist }]);
    const draft = await application('draft@example.com', { citizenship_type: 'C' }, false);
    expect((await call('GET', `/staff/api/applications/${draft}`)).json().checklist).toBeNull();
    const early = await mark(draft, 'transcript', { status: 'received' });
    expect([early.statusCode, early.json()]).toEqual([409, { message: checklistMessages.notSubmitted }]);
    expect((await mark('00000000-0000-4000-8000-000000000000', 'transcript', { status: 'received' })).statusCode).toBe(404);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'checklist_mark'));
    expect(entries.filter((entry) => entry.applicationId === citizen || entry.applicationId === draft)).toEqual([]);
  });
});
