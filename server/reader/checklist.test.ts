import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '../infra/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { checklistMessages, checklistRuleMessages } from '../../domain/checklist';
import { fileMessages } from '../../domain/messages';
import { reviewMessages } from '../../domain/reviews';
import { applications, auditLog, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { FIXTURE_TEXT, makeFixtureFiles, pdfTextByPage, type FixtureFiles } from '../testing/files';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { PORTAL_ACTOR, refreshChecklist, refreshUnsetChecklists } from '../office/checklist';

// The embedded database: the marks' rules (plain upserts, the same on PostgreSQL).
describe('the checklist of materials (issue 31)', () => {
  let t: TestApp;
  let staff = '';
  let staffEmail = '';
  let admin = '';
  let files: FixtureFiles;
  beforeAll(async () => {
    [t, files] = await Promise.all([testApp(), makeFixtureFiles()]);
    const account = await setUpStaff(t, 'reader');
    staffEmail = account.email;
    staff = await staffSignIn(t, account);
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, cookie = staff) => t.app.inject({ method, url, payload, headers: { cookie } });
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
    expect(last.json().items.at(2)).toEqual({ key: 'teacher_recommendation', label: 'Teacher recommendation', status: 'waived', by: staffEmail, reason: 'Home-schooled: no teacher to ask.', at: expect.any(String), materials: [] });
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

  /** A policy for the item, and the file posted with it to the embedded upload target. */
  async function upload(id: string, key: string, bytes: Buffer, name: string, type: string) {
    const policy = await call('POST', `/staff/api/applications/${id}/checklist/${key}/upload`, { content_type: type });
    expect(policy.statusCode, policy.body).toBe(200);
    const fields = policy.json().fields as Record<string, string> & { key: string };
    const form = new FormData();
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    return { fileKey: fields.key, stored: await t.app.inject({ method: 'POST', url: '/upload', payload: form }) };
  }

  /** The staff's whole sequence for a file that arrived: policy, upload, attach. */
  async function attach(id: string, key: string, bytes: Buffer, name: string, type: string, fileName = name) {
    const { fileKey, stored } = await upload(id, key, bytes, name, type);
    expect(stored.statusCode, stored.body).toBe(204);
    return call('POST', `/staff/api/applications/${id}/checklist/${key}/materials`, { file_key: fileKey, file_name: fileName });
  }

  async function itemOnceConverted(id: string, key: string) {
    // Bounded by time, not by tries: on a busy machine a conversion can take a while.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const item = (await call('GET', `/staff/api/applications/${id}/checklist`)).json().items.find((each: { key: string }) => each.key === key);
      if (item.materials.every((file: { status: string }) => file.status === 'completed' || file.status === 'failed')) return item;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the file for ${key} was never converted`);
  }

  const listed = async (query: string) => (await call('GET', `/staff/api/applications?status=submitted&${query}`)).json().items.map((item: { id: string }) => item.id);

  it('takes a file that arrived for an item through the upload checks; once converted the item is received, the file read in the reader and removed again, each step audited', async () => {
    const id = await application('posted@example.com', { citizenship_type: 'C' });
    const attached = await attach(id, 'transcript', files.pdf, 'transcript-scan.pdf', 'application/pdf');
    expect(attached.statusCode, attached.body).toBe(202);
    expect(attached.json()).toEqual({ id: expect.any(String), file_name: 'transcript-scan.pdf', status: 'unprocessed', message: null, by: staffEmail, at: expect.any(String), recommendation: null });
    const item = await itemOnceConverted(id, 'transcript');
    expect(item).toMatchObject({ status: 'received', by: staffEmail, materials: [{ file_name: 'transcript-scan.pdf', status: 'completed' }] });
    const material = item.materials[0].id;
    const viewed = await call('GET', `/staff/api/applications/${id}/materials/${material}?view=inline`);
    expect([viewed.statusCode, viewed.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect((await pdfTextByPage(viewed.rawPayload)).join(' ')).toContain(FIXTURE_TEXT.pdf);
    // Another application's file is not reachable through this one.
    const other = await application('other-posted@example.com', { citizenship_type: 'C' });
    expect((await call('GET', `/staff/api/applications/${other}/materials/${material}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/staff/api/applications/${other}/materials/${material}`)).statusCode).toBe(404);
    const removed = await call('DELETE', `/staff/api/applications/${id}/materials/${material}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().items[0]).toMatchObject({ key: 'transcript', status: 'awaiting', materials: [] });
    expect((await call('GET', `/staff/api/applications/${id}/materials/${material}`)).statusCode).toBe(404);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.applicationId, id));
    expect(entries.filter((entry) => entry.action.startsWith('material_')).map((entry) => [entry.action, entry.detail])).toEqual([
      ['material_attach', { key: 'transcript', file_name: 'transcript-scan.pdf' }],
      ['material_view', { key: 'transcript', file_name: 'transcript-scan.pdf' }],
      ['material_remove', { key: 'transcript', file_name: 'transcript-scan.pdf' }],
    ]);
    // Each read of the checklist on its own (the page asks while a file converts) is recorded too.
    expect(entries.filter((entry) => entry.action === 'checklist_view').length).toBeGreaterThanOrEqual(1);
    const draft = await application('posted-draft@example.com', { citizenship_type: 'C' }, false);
    expect((await call('GET', `/staff/api/applications/${draft}/checklist`)).json()).toEqual({ message: checklistMessages.notSubmitted });
  });

  it('refuses a file that is not what it says, a key of another item, an item not asked for and an unsubmitted application; a failed conversion says why and leaves the item awaited', async () => {
    const id = await application('bad-files@example.com', { citizenship_type: 'C' });
    // The upload target reads the bytes: a program is not a PDF.
    const renamed = (await upload(id, 'transcript', files.exe, 'transcript.pdf', 'application/pdf')).stored;
    expect([renamed.statusCode, renamed.json()]).toEqual([415, { message: fileMessages.wrongType }]);
    const policy = (await call('POST', `/staff/api/applications/${id}/checklist/transcript/upload`, { content_type: 'application/pdf' })).json();
    const elsewhere = await call('POST', `/staff/api/applications/${id}/checklist/counselor_recommendation/materials`, { file_key: policy.fields.key, file_name: 'letter.pdf' });
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([403, { message: checklistMessages.materialNotFound }]);
    const wrongName = await call('POST', `/staff/api/applications/${id}/checklist/transcript/materials`, { file_key: policy.fields.key, file_name: 'transcript.exe' });
    expect([wrongName.statusCode, wrongName.json()]).toEqual([415, { message: fileMessages.wrongType }]);
    expect((await call('POST', `/staff/api/applications/${id}/checklist/english_proficiency/upload`, { content_type: 'application/pdf' })).statusCode).toBe(404);
    const draft = await application('bad-files-draft@example.com', { citizenship_type: 'C' }, false);
    expect((await call('POST', `/staff/api/applications/${draft}/checklist/transcript/upload`, { content_type: 'application/pdf' })).json()).toEqual({ message: checklistMessages.notSubmitted });
    // Stored, but not a PDF inside: the conversion fails with the applicant's message, and nothing is received.
    expect((await attach(id, 'transcript', files.png, 'scan.png', 'image/png', 'scan.pdf')).statusCode).toBe(202);
    const item = await itemOnceConverted(id, 'transcript');
    expect(item).toMatchObject({ status: 'awaiting', materials: [{ file_name: 'scan.pdf', status: 'failed', message: fileMessages.wrongType }] });
  });

  it('stores what is missing from submission on, for the list filters; complete, it moves to the bin the office chose, never back from a later one', async () => {
    const bins = (await call('GET', '/staff/api/bins', undefined, admin)).json().bins as { id: number; name: string; blind: boolean }[];
    const twoComplete = await call('PUT', '/staff/api/bins', { bins: bins.map((bin) => ({ id: bin.id, name: bin.name, blind: bin.blind, receives_complete: true })) }, admin);
    expect([twoComplete.statusCode, twoComplete.json()]).toEqual([400, { message: reviewMessages.oneCompleteBin, errors: { bins: [reviewMessages.oneCompleteBin] } }]);
    const [first, second, third] = bins;
    const chosen = await call('PUT', '/staff/api/bins', { bins: bins.map((bin) => ({ id: bin.id, name: bin.name, blind: bin.blind, receives_complete: bin.id === second!.id })) }, admin);
    expect(chosen.json().bins.map((bin: { receives_complete: boolean }) => bin.receives_complete)).toEqual(bins.map((bin) => bin.id === second!.id));
    // Moving the choice to another bin in one change goes through (one bin at most, at every moment).
    const moved = await call('PUT', '/staff/api/bins', { bins: bins.map((bin) => ({ id: bin.id, name: bin.name, blind: bin.blind, receives_complete: bin.id === first!.id })) }, admin);
    expect(moved.statusCode).toBe(200);
    await call('PUT', '/staff/api/bins', { bins: bins.map((bin) => ({ id: bin.id, name: bin.name, blind: bin.blind, receives_complete: bin.id === second!.id })) }, admin);

    // Submitted as an applicant does it: the submission stores the missing items.
    const cookie = await signedInCookie(t, 'filters@example.com');
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { ...completeApplication, citizenship_type: 'C' }, headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } })).statusCode).toBe(200);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'filters@example.com'));
    const id = user!.id;
    const [stored] = await t.database.db.select({ missing: applications.checklistMissing }).from(applications).where(eq(applications.userId, id));
    expect(stored!.missing).toEqual(['transcript', 'counselor_recommendation', 'teacher_recommendation']);
    expect(await listed('checklist=incomplete')).toContain(id);
    expect(await listed('missing=transcript')).toContain(id);
    expect(await listed('checklist=complete')).not.toContain(id);
    const counts = (await call('GET', '/staff/api/application-counts?missing=transcript')).json();
    expect(counts.submitted).toBeGreaterThanOrEqual(1);

    await mark(id, 'transcript', { status: 'received' });
    expect(await listed('missing=transcript')).not.toContain(id);
    expect(await listed('missing=teacher_recommendation')).toContain(id);
    await mark(id, 'counselor_recommendation', { status: 'received' });
    await mark(id, 'teacher_recommendation', { status: 'waived', reason: 'Counselor wrote for both.' });
    expect(await listed('checklist=complete')).toContain(id);
    expect(await listed('checklist=incomplete')).not.toContain(id);
    const [placed] = await t.database.db.select({ binId: applications.binId }).from(applications).where(eq(applications.userId, id));
    expect(placed!.binId).toBe(second!.id);
    const [move] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.applicationId, id), eq(auditLog.action, 'bin_move')));
    expect(move).toMatchObject({ staffEmail, detail: { from: null, to: second!.name, reason: 'checklist complete' } });

    // Incomplete again, then complete again from a later stage: it stays where it is.
    await mark(id, 'transcript', { status: 'awaiting' });
    await t.database.db.update(applications).set({ binId: third!.id }).where(eq(applications.userId, id));
    await mark(id, 'transcript', { status: 'received' });
    const [stayed] = await t.database.db.select({ binId: applications.binId }).from(applications).where(eq(applications.userId, id));
    expect(stayed!.binId).toBe(third!.id);
    await call('PUT', '/staff/api/bins', { bins: bins.map((bin) => ({ id: bin.id, name: bin.name, blind: bin.blind })) }, admin);
  });

  it('stores the missing items of applications submitted before they were kept', async () => {
    const id = await application('before-checklists@example.com', { citizenship_type: 'N' });
    await t.database.db.update(applications).set({ checklistMissing: null }).where(eq(applications.userId, id));
    expect(await refreshUnsetChecklists(t.database.db)).toBeGreaterThanOrEqual(1);
    const [stored] = await t.database.db.select({ missing: applications.checklistMissing }).from(applications).where(eq(applications.userId, id));
    expect(stored!.missing).toEqual(['transcript', 'counselor_recommendation', 'teacher_recommendation', 'english_proficiency']);
  });

  it('follows the rules an administrator sets: a new version, every submitted application computed again, refused rules saying why', async () => {
    const id = await application('rules@example.com', { citizenship_type: 'N' });
    await refreshChecklist(t.database.db, id, PORTAL_ACTOR);
    const built = (await call('GET', '/staff/api/checklist-rules')).json();
    expect(built).toMatchObject({ version: 0, updated_by: null });
    expect(built.rules.map((rule: { key: string }) => rule.key)).toEqual(['transcript', 'counselor_recommendation', 'teacher_recommendation', 'english_proficiency', 'permanent_resident_card']);
    expect((await call('PUT', '/staff/api/checklist-rules', { rules: [] })).statusCode).toBe(403); // a reader

    const refused = await call('PUT', '/staff/api/checklist-rules', { rules: [{ label: '', from: 'form', when: [{ question: 'first_name', equals: 'Ann' }] }] }, admin);
    expect(refused.json().errors).toEqual({ 'rules.0.label': [checklistRuleMessages.labelRequired], 'rules.0.document_key': [checklistRuleMessages.documentRequired], 'rules.0.when': [checklistRuleMessages.conditionUnknown] });
    // The transcript kept, the recommendations dropped, a portfolio asked of applicants who are not citizens.
    const saved = await call('PUT', '/staff/api/checklist-rules', { rules: [built.rules[0], { label: 'Art portfolio', from: 'applicant', when: [{ question: 'citizenship_type', equals: 'N' }] }] }, admin);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: 1, updated_by: expect.stringContaining('@'), rules: [{ key: 'transcript' }, { key: 'art_portfolio', label: 'Art portfolio', from: 'applicant', document_key: null, when: [{ question: 'citizenship_type', equals: 'N' }] }] });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'checklist_rules_change'));
    expect(entry!.detail).toEqual({ version: 1, items: ['transcript', 'art_portfolio'] });
    // The job computes every submitted application again: what is missing follows the new rules.
    for (const deadline = Date.now() + 60_000; ; ) {
      const [row] = await t.database.db.select({ missing: applications.checklistMissing }).from(applications).where(eq(applications.userId, id));
      if (row!.missing?.join() === 'transcript,art_portfolio') break;
      if (Date.now() > deadline) throw new Error(`still ${row!.missing?.join()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const checklist = (await call('GET', `/staff/api/applications/${id}/checklist`)).json();
    expect(checklist.items.map((item: { key: string }) => item.key)).toEqual(['transcript', 'art_portfolio']);
    expect((await call('PUT', `/staff/api/applications/${id}/checklist/teacher_recommendation`, { status: 'received' })).json()).toEqual({ message: checklistMessages.notOnChecklist });
    // Back to the built-in list for the tests after this one, its refresh waited for: a job still
    // running when the file ends would meet a closed database.
    expect((await call('PUT', '/staff/api/checklist-rules', { rules: built.rules.map((rule: { document_key: string | null }) => ({ ...rule, document_key: rule.document_key ?? undefined })) }, admin)).statusCode).toBe(200);
    for (const deadline = Date.now() + 60_000; ; ) {
      const [row] = await t.database.db.select({ missing: applications.checklistMissing }).from(applications).where(eq(applications.userId, id));
      const open = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'checklist-refresh' and state in ('created', 'retry', 'active')`));
      if (row!.missing?.join() === 'transcript,counselor_recommendation,teacher_recommendation,english_proficiency' && Number(open[0]!.n) === 0) break;
      if (Date.now() > deadline) throw new Error(`still ${row!.missing?.join()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
