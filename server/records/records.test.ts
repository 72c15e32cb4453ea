import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '../../domain/staff';
import { createStorage } from '../documents/storage';
import { applications, auditLog, documents, exportRunApplicants, exportRuns, outbox, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { eraseDueRetention, recordMessages } from './handlers';

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

  it('keeps each cycle as long as the administrator says: a dry run first with counts, then the daily erasure of a term past its date only, audited per application', async () => {
    const expiredFile = await withDocument(ids['expired-1@example.com']!);
    const twice = await call('PUT', '/staff/api/retention', { rules: [{ term: 'Fall 2027', delete_after: '2020-01-01' }, { term: 'Fall 2027', delete_after: '2030-01-01' }] });
    expect([twice.statusCode, twice.json().message]).toEqual([400, recordMessages.termTwice]);
    const set = await call('PUT', '/staff/api/retention', { rules: [{ term: 'Fall 2027', delete_after: '2020-01-01' }, { term: 'Spring 2028', delete_after: '2999-01-01' }] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ rules: [{ term: 'Fall 2027', delete_after: '2020-01-01' }, { term: 'Spring 2028', delete_after: '2999-01-01' }], due: [{ term: 'Fall 2027', applications: 1, files: 2 }] });
    // The dry run changed nothing.
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['expired-1@example.com']!))).toHaveLength(1);

    const storage = createStorage(t.config);
    expect(await eraseDueRetention({ db: t.database.db, storage })).toBe(1);
    expect(existsSync(expiredFile)).toBe(false);
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['expired-1@example.com']!))).toEqual([]);
    expect(await t.database.db.select().from(users).where(eq(users.id, ids['kept@example.com']!))).toHaveLength(1);
    const [erased] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'retention_erase'));
    expect([erased!.staffEmail, erased!.applicationId, erased!.detail]).toEqual(['retention', ids['expired-1@example.com'], { term: 'Fall 2027', files: 2 }]);
    expect((await call('GET', '/staff/api/retention')).json().due).toEqual([]);
    expect(await eraseDueRetention({ db: t.database.db, storage })).toBe(0);
  });
});
