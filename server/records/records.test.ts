import { mkdirSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '../../domain/staff';
import { createStorage } from '../infra/storage';
import { starterTemplate } from '../../domain/exportTemplates';
import { LATE_UPLOAD_MS, purgeQueued } from '../infra/purge';
import { clock } from '../infra/clock';
import { applications, auditLog, documents, exportRunApplicants, exportRuns, exportTemplates, materials, outbox, recommenders, storagePurges, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { eraseDueRetention, recordMessages } from './handlers';
import { createRun, executeRun } from '../exports/run';
import { eraseApplicants } from './person';
import { withdrawRunsCarrying } from '../exports/withdraw';
import { recordAudit } from '../office/audit';
import { verifyAuditChain } from '../office/auditChain';

/** A recommender's ratings, as their form stores them. */
const RATED = { relationship: 'Teacher of physics', known_for: 'one year', ratings: { intellect: 'top 5%' } };

// A person's request and retention (issue 32), on the embedded database and its storage folder.
describe('a person’s records: everything held, erasure, retention (issue 32)', () => {
  let t: TestApp;
  let admin = '';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    for (const [username, term] of [
      ['person@example.com', 'Fall 2027'],
      ['kept@example.com', 'Spring 2028'],
      ['expired-1@example.com', 'Fall 2027'],
    ] as const) {
      const cookie = await signedInCookie(t, username);
      await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: `First ${username}`, entry_term: term }, headers: { cookie } });
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
      await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
      ids[username] = user!.id;
    }
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie: admin } });
  /** A converted document of the applicant, in the storage folder: what erasure must remove. */
  async function withDocument(userId: string) {
    const key = `pdfs/${userId}/transcript.pdf`;
    mkdirSync(path.join(t.config.dataDir, 'files', 'pdfs', userId), { recursive: true });
    writeFileSync(path.join(t.config.dataDir, 'files', key), '%PDF-1.4 the transcript');
    await t.database.db.insert(documents).values({ userId, answerKey: 'additional_info_doc', fileKey: key, fileName: 'transcript.png', status: 'completed', pdfKey: key });
    return path.join(t.config.dataDir, 'files', key);
  }

  it('gives everything held about one applicant as a zip: the record (no password hash) and each file; audited', async () => {
    const id = ids['person@example.com']!;
    await withDocument(id);
    await call('GET', `/staff/api/applications/${id}`);
    const response = await call('GET', `/staff/api/applications/${id}/record`);
    expect([response.statusCode, response.headers['content-type']]).toEqual([200, 'application/zip']);
    const zip = await JSZip.loadAsync(response.rawPayload);
    const record = JSON.parse(await zip.file('record.json')!.async('string'));
    expect(record.account.email).toBe('person@example.com');
    expect(record.application.answer.first_name).toBe('First person@example.com');
    expect(record.documents).toHaveLength(1);
    expect(record.whoReadOrChangedTheRecord.map((entry: { action: string }) => entry.action)).toContain('application_view');
    expect(JSON.stringify(record)).not.toMatch(/argon2|password/i);
    const files = Object.keys(zip.files).filter((name) => name.startsWith('files/'));
    expect(files).toHaveLength(2);
    expect(await zip.file(files[0]!)!.async('string')).toBe('%PDF-1.4 the transcript');
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'person_export'));
    expect([entry!.applicationId, entry!.detail]).toEqual([id, { files: 2 }]);
  });

  it('erases one applicant at their request, confirmed by their address: the account, the records, the mail and the files go; the audit trail and the export record stay', async () => {
    const id = ids['person@example.com']!;
    const file = path.join(t.config.dataDir, 'files', `pdfs/${id}/transcript.pdf`);
    await t.database.db.insert(outbox).values({ to: 'person@example.com', subject: 'Waiting', text: 'x', html: 'x' });
    const [run] = await t.database.db.insert(exportRuns).values({ templateName: 'SIS', format: 'csv', mode: 'all', status: 'succeeded', startedBy: 'admin@example.edu', startedAt: new Date() }).returning({ id: exportRuns.id });
    await t.database.db.insert(exportRunApplicants).values({ runId: run!.id, userId: id });

    const unconfirmed = await call('POST', `/staff/api/applications/${id}/erasure`, { reason: ' ', email: 'someone@example.com' });
    expect([unconfirmed.statusCode, unconfirmed.json().errors]).toEqual([400, { reason: [recordMessages.reasonRequired], email: [recordMessages.emailMismatch] }]);
    expect(existsSync(file)).toBe(true);

    const erased = await call('POST', `/staff/api/applications/${id}/erasure`, { reason: 'Asked by e-mail on 2026-11-20.', email: 'Person@Example.com' });
    expect([erased.statusCode, erased.json()]).toEqual([200, { files: 2 }]);
    expect(existsSync(file)).toBe(false);
    expect(await t.database.db.select().from(users).where(eq(users.id, id))).toEqual([]);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.to, 'person@example.com'))).toEqual([]);
    expect((await call('GET', `/staff/api/applications/${id}`)).json().message).toBe(staffMessages.applicationNotFound);
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.applicationId, id));
    expect(trail.map((entry) => entry.action)).toEqual(expect.arrayContaining(['application_view', 'person_export', 'person_erase']));
    expect(trail.find((entry) => entry.action === 'person_erase')!.detail).toEqual({ reason: 'Asked by e-mail on 2026-11-20.', files: 2 });
    expect(await t.database.db.select().from(exportRunApplicants).where(eq(exportRunApplicants.userId, id))).toHaveLength(1);
    expect((await call('POST', `/staff/api/applications/${id}/erasure`, { reason: 'Again.', email: 'person@example.com' })).statusCode).toBe(404);
  });

  it('keeps each cycle as long as the administrator says: a dry run of any day with counts, an erasure at once only with its count confirmed, then the erasure of a term past its date only, audited per application', async () => {
    const expiredFile = await withDocument(ids['expired-1@example.com']!);
    const twice = await call('PUT', '/staff/api/retention', { rules: [{ term: 'Fall 2027', delete_after: '2020-01-01' }, { term: 'Fall 2027', delete_after: '2030-01-01' }] });
    expect([twice.statusCode, twice.json().message]).toEqual([400, recordMessages.termTwice]);
    const rules = [
      { term: 'Fall 2027', delete_after: '2020-01-01' },
      { term: 'Spring 2028', delete_after: '2999-01-01' },
    ];
    // Rules that erase within the hour are kept only once their count is confirmed (issue 51).
    const unconfirmed = await call('PUT', '/staff/api/retention', { rules });
    expect([unconfirmed.statusCode, unconfirmed.json()]).toEqual([409, { message: 'Saving erases 1 application and 2 files within the hour. Confirm to go on.', applications: 1, files: 2 }]);
    expect(recordMessages.eraseNow(1204, 1)).toBe('Saving erases 1,204 applications and 1 file within the hour. Confirm to go on.');
    expect((await call('GET', '/staff/api/retention')).json().rules).toEqual([]);
    expect((await call('PUT', '/staff/api/retention', { rules, erase_now: 2 })).statusCode).toBe(409);
    const set = await call('PUT', '/staff/api/retention', { rules, erase_now: 1 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ rules, due: [{ term: 'Fall 2027', applications: 1, files: 2 }], due_on: clock.now().toISOString().slice(0, 10) });
    // The dry run changed nothing.
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['expired-1@example.com']!))).toHaveLength(1);
    // Any day's dry run, the future's too: in 2999 Spring 2028 goes as well; before 2020, nothing.
    expect((await call('GET', '/staff/api/retention?on=2999-06-01')).json()).toMatchObject({ due_on: '2999-06-01', due: [{ term: 'Fall 2027', applications: 1 }, { term: 'Spring 2028' }] });
    expect((await call('GET', '/staff/api/retention?on=2019-12-31')).json().due).toEqual([]);
    expect((await call('GET', '/staff/api/retention?on=someday')).statusCode).toBe(400);
    // Rules that erase nothing now need no confirmation.
    expect((await call('PUT', '/staff/api/retention', { rules: [{ term: 'Spring 2028', delete_after: '2999-01-01' }] })).statusCode).toBe(200);
    expect((await call('PUT', '/staff/api/retention', { rules, erase_now: 1 })).statusCode).toBe(200);
    const changes = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'retention_change'));
    expect(changes.map((entry) => entry.detail)).toEqual([
      { rules: ['Fall 2027: 2020-01-01', 'Spring 2028: 2999-01-01'], erase_now: '1' },
      { rules: ['Spring 2028: 2999-01-01'] },
      { rules: ['Fall 2027: 2020-01-01', 'Spring 2028: 2999-01-01'], erase_now: '1' },
    ]);

    const storage = createStorage(t.config);
    expect(await eraseDueRetention({ db: t.database.db, storage, withdrawRunsCarrying })).toBe(1);
    expect(existsSync(expiredFile)).toBe(false);
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['expired-1@example.com']!))).toEqual([]);
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['kept@example.com']!))).toHaveLength(1);
    const [erased] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'retention_erase'));
    expect([erased!.staffEmail, erased!.applicationId, erased!.detail]).toEqual(['retention', ids['expired-1@example.com'], { term: 'Fall 2027', files: 2 }]);
    expect((await call('GET', '/staff/api/retention')).json().due).toEqual([]);
    expect(await eraseDueRetention({ db: t.database.db, storage, withdrawRunsCarrying })).toBe(0);
  });
  /** A file of the applicant's in the storage folder, as the portal's code writes it. */
  /** What is queued for removal now (an erased applicant's folders are queued again for later, LATE_UPLOAD_MS). */
  const duePurges = async () => (await t.database.db.select().from(storagePurges)).filter((row) => row.notBefore.getTime() <= clock.now().getTime());

  function stored(key: string, text: string) {
    const file = path.join(t.config.dataDir, 'files', key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  }
  /** Every stored file whose path names the applicant. */
  const filesNaming = (userId: string) => (readdirSync(path.join(t.config.dataDir, 'files'), { recursive: true }) as string[]).filter((name) => name.includes(userId));
  async function applicantWith(username: string) {
    const cookie = await signedInCookie(t, username);
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: `First ${username}` }, headers: { cookie } });
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
    return user!.id;
  }
  async function letterFrom(userId: string, name: string, waived: boolean) {
    const [asked] = await t.database.db
      .insert(recommenders)
      .values({ userId, role: 'teacher', name, email: `${name.toLowerCase()}@school.example`, tokenHash: `hash-${name}-${userId}`, expiresAt: new Date(Date.now() + 86_400_000), status: 'submitted', waived, sentAt: new Date(), answers: RATED })
      .returning({ id: recommenders.id });
    const key = `materials/${userId}/teacher_recommendation/r-${asked!.id}-letter`;
    stored(key, `%PDF-1.4 letter of ${name}`);
    await t.database.db.insert(materials).values({ userId, itemKey: 'teacher_recommendation', fileKey: key, fileName: `${name}.pdf`, status: 'completed', pdfKey: key, byEmail: `${name}@school.example`, createdAt: new Date(), source: 'recommender', recommenderId: asked!.id });
  }

  it('leaves out of the person’s zip a letter asked under the waiver, and its ratings, and says so; keeps a letter asked without it (issue 49, item 8)', async () => {
    const id = await applicantWith('waiving@example.com');
    await letterFrom(id, 'Waived', true);
    await letterFrom(id, 'Open', false);
    const zip = await JSZip.loadAsync((await call('GET', `/staff/api/applications/${id}/record`)).rawPayload);
    const record = JSON.parse(await zip.file('record.json')!.async('string'));
    const files = Object.keys(zip.files).filter((name) => name.startsWith('files/'));
    const texts = await Promise.all(files.map((name) => zip.file(name)!.async('string')));
    expect(texts.sort()).toEqual(['%PDF-1.4 letter of Open', '%PDF-1.4 letter of Open']);
    const byName = Object.fromEntries(record.recommenders.map((each: { name: string }) => [each.name, each]));
    expect([byName.Waived.waived, byName.Waived.answers, byName.Open.answers]).toEqual([true, null, RATED]);
    expect(record.withheld).toEqual([expect.stringContaining('waived the right to see them')]);
  });

  it('erases everywhere: the export runs that carried the person are withdrawn (410 to staff and machines, files gone, audited); every folder of theirs goes, an unfinished upload too (issue 49, item 2)', async () => {
    const id = await applicantWith('everywhere@example.com');
    const other = await applicantWith('bystander@example.com');
    stored(`uploads/${id}/additional_info_doc/never-finished`, 'half an upload');
    stored(`converted/${id}/additional_info_doc/x.pdf`, '%PDF-1.4 a conversion whose record was lost');
    await letterFrom(id, 'Teacher', true);
    const created = await call('POST', '/staff/api/export-templates', { ...(({ codeTables, schedule, ...rest }) => ({ ...rest, code_tables: codeTables, schedule: { every: schedule.every, hour_utc: schedule.hourUtc } }))(starterTemplate('Erasure reach')), format: 'csv', documents: true, columns: [{ field: 'email', header: 'EMAIL', codes: null }] });
    expect(created.statusCode, created.body).toBe(201);
    const started = await call('POST', `/staff/api/export-templates/${created.json().id}/runs`, { mode: 'all' });
    await expect.poll(async () => (await call('GET', `/staff/api/export-runs/${started.json().id}`)).json().status, { timeout: 30_000, interval: 50 }).toBe('succeeded');
    const runId = started.json().id as number;
    const before = await call('GET', `/staff/api/export-runs/${runId}/file`);
    expect(before.body).toContain('everywhere@example.com');
    const [{ fileKey }] = (await t.database.db.select({ fileKey: exportRuns.fileKey }).from(exportRuns).where(eq(exportRuns.id, runId))) as [{ fileKey: string }];
    // A run that carried only the bystander stays.
    const [kept] = await t.database.db.insert(exportRuns).values({ templateName: 'Other', format: 'csv', mode: 'all', status: 'succeeded', published: true, startedBy: 'admin@example.edu', startedAt: new Date(), fileKey: 'exports/9/run-kept.csv', fileName: 'kept.csv' }).returning({ id: exportRuns.id });
    await t.database.db.insert(exportRunApplicants).values({ runId: kept!.id, userId: other });
    stored('exports/9/run-kept.csv', 'EMAIL\r\nbystander@example.com\r\n');

    const client = await call('POST', '/staff/api/export-clients', { name: 'SIS loader', templates: [created.json().id] });
    const machine = (part: string) => t.app.inject({ method: 'GET', url: `/machine/api/runs/${runId}/${part}`, headers: { authorization: `Bearer ${client.json().key}` } });
    expect((await machine('file')).statusCode).toBe(200);

    const erased = await call('POST', `/staff/api/applications/${id}/erasure`, { reason: 'Asked on 2026-11-28.', email: 'everywhere@example.com' });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(filesNaming(id)).toEqual([]);
    expect(existsSync(path.join(t.config.dataDir, 'files', fileKey))).toBe(false);
    for (const part of ['file', 'documents']) {
      const refused = await call('GET', `/staff/api/export-runs/${runId}/${part}`);
      expect([refused.statusCode, refused.json().message]).toEqual([410, expect.stringMatching(/^Withdrawn: it carried an applicant whose records were erased/)]);
      expect((await machine(part)).statusCode).toBe(410);
    }
    const shown = (await call('GET', `/staff/api/export-runs/${runId}`)).json();
    expect([shown.file_name, shown.bundle_file_name, typeof shown.withdrawn_at]).toEqual([null, null, 'string']);
    expect((await call('GET', `/staff/api/export-runs/${kept!.id}/file`)).body).toContain('bystander@example.com');
    const [withdrawal] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'export_run_withdraw'));
    expect([withdrawal!.applicationId, withdrawal!.detail]).toEqual([id, { run: runId, template: 'Erasure reach' }]);
    expect(await duePurges()).toEqual([]);

    // An upload signed before the erasure lands after it (the bucket, or a slow POST /upload): its
    // folder is removed again once no such upload can still come, by the sweep.
    const late = stored(`uploads/${id}/additional_info_doc/late.pdf`, '%PDF-1.4 landed late');
    const storage = createStorage(t.config);
    await purgeQueued({ db: t.database.db, storage });
    expect(existsSync(late)).toBe(true);
    clock.advance(LATE_UPLOAD_MS);
    try {
      await purgeQueued({ db: t.database.db, storage });
      expect(filesNaming(id)).toEqual([]);
      expect((await t.database.db.select().from(storagePurges)).filter((row) => row.key.includes(id))).toEqual([]);
    } finally {
      clock.advance(-LATE_UPLOAD_MS);
    }
  });

  it('an erasure whose file removal is cut short leaves the files queued, with the record and its audit entry gone and written together; the sweep finishes it (issue 49, item 3)', async () => {
    const id = await applicantWith('cut-short@example.com');
    const file = stored(`copies/${id}/copy.pdf`, '%PDF-1.4 the copy');
    const storage = createStorage(t.config);
    // The process dies after the commit, before any file goes: the storage refuses every removal.
    const dying = { ...storage, delete: () => Promise.reject(new Error('killed')), deleteFolder: () => Promise.reject(new Error('killed')) };
    const done = await eraseApplicants({ db: t.database.db, storage: dying, withdrawRunsCarrying }, [id], (userId, files) => ({ staff: { id: null, email: 'retention' }, action: 'retention_erase', applicationId: userId, detail: { files }, ip: 'job' }));
    expect(done.applicants).toBe(1);
    expect(await t.database.db.select().from(users).where(eq(users.id, id))).toEqual([]);
    expect((await t.database.db.select().from(auditLog).where(eq(auditLog.applicationId, id))).map((entry) => entry.action)).toContain('retention_erase');
    expect(existsSync(file)).toBe(true);
    expect((await t.database.db.select().from(storagePurges)).map((row) => row.key)).toEqual(expect.arrayContaining([`copies/${id}/`]));
    // The worker's sweep, after the restart.
    await purgeQueued({ db: t.database.db, storage });
    expect(filesNaming(id)).toEqual([]);
    expect(await duePurges()).toEqual([]);
  });
  it('a run that carried someone erased while it ran does not succeed: no file, its cursor where it was (issue 49, item 2)', async () => {
    const id = await applicantWith('erased-mid-run@example.com');
    const created = await call('POST', '/staff/api/export-templates', { ...(({ codeTables, schedule, ...rest }) => ({ ...rest, code_tables: codeTables, schedule: { every: schedule.every, hour_utc: schedule.hourUtc } }))(starterTemplate('Mid-run')), format: 'csv', columns: [{ field: 'email', header: 'EMAIL', codes: null }] });
    const run = await createRun(t.database.db, created.json().id, 'changes', 'schedule');
    const storage = createStorage(t.config);
    const audit = (userId: string, files: number) => ({ staff: { id: null, email: 'retention' }, action: 'retention_erase' as const, applicationId: userId, detail: { files }, ip: 'job' });
    // Erased once the batch naming them is written, before the run commits.
    await executeRun({ db: t.database.db, storage }, run!.id, { afterStored: async () => void (await eraseApplicants({ db: t.database.db, storage, withdrawRunsCarrying }, [id], audit)) });
    const [ended] = await t.database.db.select().from(exportRuns).where(eq(exportRuns.id, run!.id));
    expect([ended!.status, ended!.fileKey, ended!.message]).toEqual(['failed', null, expect.stringContaining('erased while it ran')]);
    const [template] = await t.database.db.select().from(exportTemplates).where(eq(exportTemplates.id, created.json().id));
    expect(template!.cursorXid).toBeNull();
    expect((readdirSync(path.join(t.config.dataDir, 'files', 'exports', String(created.json().id))) as string[])).toEqual([]);
  });
  it('keeps the erased person’s audit entries, their e-mail and names replaced by their id; the chain still verifies (issue 49, item 11)', async () => {
    const cookie = await signedInCookie(t, 'named@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Zofia', last_name: 'Quarrington-Ode' }, headers: { cookie } });
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'named@example.com'));
    const id = user!.id;
    // Their own reply is written in their name; staff write their names in reasons.
    await recordAudit(t.database.db, { staff: { id: null, email: 'named@example.com' }, action: 'decision_reply', applicationId: id, detail: { reply: 'accept' }, ip: '192.0.2.1' });
    await recordAudit(t.database.db, { staff: { id: null, email: 'decider@example.edu' }, action: 'answer_correct', applicationId: id, detail: { key: 'last_name', reason: 'Zofia Quarrington-Ode called: "Quarrington-Ode" is hyphenated.' }, ip: '192.0.2.2' });
    const before = await t.database.db.select().from(auditLog);
    const erased = await call('POST', `/staff/api/applications/${id}/erasure`, { reason: 'Zofia Quarrington-Ode asked on 2026-11-28.', email: 'named@example.com' });
    expect(erased.statusCode, erased.body).toBe(200);
    const after = await t.database.db.select().from(auditLog);
    expect(after.filter((entry) => entry.id <= before.at(-1)!.id)).toHaveLength(before.length);
    const text = JSON.stringify(after);
    expect(text).not.toMatch(/named@example\.com|Zofia|Quarrington/);
    const reply = after.find((entry) => entry.action === 'decision_reply' && entry.applicationId === id)!;
    expect(reply.staffEmail).toBe(`applicant:${id}`);
    expect(after.find((entry) => entry.action === 'person_erase' && entry.applicationId === id)!.detail).toEqual({ reason: `applicant:${id} asked on 2026-11-28.`, files: 0 });
    const report = await verifyAuditChain(t.database.db);
    expect(report).toMatchObject({ ok: true, redacted: expect.any(Number) });
    expect((report as { redacted: number }).redacted).toBeGreaterThanOrEqual(3);
  });
});
