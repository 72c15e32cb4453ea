import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffMessages } from '../../domain/staff';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { auditLog, users } from '../infra/schema';

// The embedded database: the calls' rules (the statements are plain inserts and selects).
describe('notes on an application (issue 30)', () => {
  let t: TestApp;
  let reader = '';
  let readerEmail = '';
  let other = '';
  let applicationId = '';
  beforeAll(async () => {
    t = await testApp();
    await signedInCookie(t, 'noted@example.com');
    applicationId = (await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'noted@example.com')))[0]!.id;
    const account = await setUpStaff(t, 'reader');
    readerEmail = account.email;
    reader = await staffSignIn(t, account);
    other = await staffSignIn(t, await setUpStaff(t, 'admin', 'second-reader@example.edu'));
  }, 60_000);
  afterAll(async () => t?.close());

  const addNote = (cookie: string, id: string, payload: object) => t.app.inject({ method: 'POST', url: `/staff/api/applications/${id}/notes`, headers: { cookie }, payload });
  const application = async (cookie: string) => (await t.app.inject({ method: 'GET', url: `/staff/api/applications/${applicationId}`, headers: { cookie } })).json();

  it('keeps each note as written, with its author and time, for every staff member to read, oldest first; each is audited', async () => {
    const first = await addNote(reader, applicationId, { text: 'Strong essay.\nAsk for the senior-year grades.  \n' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ id: expect.any(Number), author_email: readerEmail, text: 'Strong essay.\nAsk for the senior-year grades.', created_at: expect.any(String) });
    const second = await addNote(other, applicationId, { text: 'Agreed.' });
    expect(second.statusCode).toBe(201);
    const seen = await application(reader);
    expect(seen.notes.map((note: { author_email: string; text: string }) => [note.author_email, note.text])).toEqual([
      [readerEmail, 'Strong essay.\nAsk for the senior-year grades.'],
      ['second-reader@example.edu', 'Agreed.'],
    ]);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'note_add'));
    expect(entries.map((entry) => [entry.staffEmail, entry.applicationId, entry.detail])).toEqual([
      [readerEmail, applicationId, { note: first.json().id }],
      ['second-reader@example.edu', applicationId, { note: second.json().id }],
    ]);
  });

  it('refuses an empty note, one of spaces alone and one over 4,000 characters (400), and an unknown application (404), keeping nothing', async () => {
    const before = (await application(reader)).notes.length;
    const blank = await addNote(reader, applicationId, { text: ' \n\t ' });
    expect([blank.statusCode, blank.json()]).toEqual([400, { message: staffMessages.noteEmpty, errors: { text: ['Write the note before adding it.'] } }]);
    expect((await addNote(reader, applicationId, { text: '' })).statusCode).toBe(400);
    expect((await addNote(reader, applicationId, { text: 'x'.repeat(4001) })).statusCode).toBe(400);
    expect((await addNote(reader, applicationId, { text: 'x', extra: 1 })).statusCode).toBe(400);
    const unknown = await addNote(reader, '00000000-0000-4000-8000-000000000000', { text: 'Lost?' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: staffMessages.applicationNotFound }]);
    expect((await application(reader)).notes).toHaveLength(before);
  });
});
