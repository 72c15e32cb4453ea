import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentSkipped, binNotEmpty, reviewMessages } from '../../domain/reviews';
import { applications, auditLog, staffUsers, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

// The embedded database: bins, moves, queues and the share-out (plain SQL, the same on PostgreSQL).
describe('bins, queues and assignment (issue 30)', () => {
  let t: TestApp;
  let admin = '';
  let decider = '';
  const readers: { id: string; email: string; cookie: string }[] = [];
  const ids: string[] = [];

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });

  beforeAll(async () => {
    t = await testApp();
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    decider = await staffSignIn(t, await setUpStaff(t, 'decider'));
    for (const n of [1, 2]) {
      const account = await setUpStaff(t, 'reader', `queue-reader-${n}@example.edu`);
      const cookie = await staffSignIn(t, account);
      const [member] = await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, account.email));
      readers.push({ id: member!.id, email: account.email, cookie });
    }
    for (const n of [1, 2, 3, 4]) {
      await signedInCookie(t, `binned-${n}@example.com`);
      const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, `binned-${n}@example.com`));
      await t.database.db.update(applications).set({ submittedAt: new Date(Date.UTC(2026, 10, n)) }).where(eq(applications.userId, user!.id));
      ids.push(user!.id);
    }
  }, 60_000);
  afterAll(async () => t?.close());

  const binsNow = async () => (await call(admin, 'GET', '/staff/api/bins')).json();
  const listed = async (cookie: string, query: string) => (await call(cookie, 'GET', `/staff/api/applications?${query}`)).json();

  it('starts with the office’s usual stages; an administrator renames, reorders, adds and removes them, never one that holds applications', async () => {
    const start = await binsNow();
    expect(start.bins.map((b: { name: string; blind: boolean }) => [b.name, b.blind])).toEqual([
      ['Awaiting materials', false],
      ['First read', false],
      ['Second read', true],
      ['Committee', false],
      ['Decided', false],
    ]);
    expect(start.unplaced).toBe(4);
    const [, first, second, committee, decided] = start.bins;
    // A swap of two names in one go, a bin added, one removed.
    const changed = await call(admin, 'PUT', '/staff/api/bins', {
      bins: [
        { id: first.id, name: 'Second read', blind: true },
        { id: second.id, name: 'First read', blind: false },
        { id: committee.id, name: 'Committee', blind: false },
        { name: 'Final review', blind: false },
        { id: decided.id, name: 'Decided', blind: false },
      ],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().bins.map((b: { name: string }) => b.name)).toEqual(['Second read', 'First read', 'Committee', 'Final review', 'Decided']);
    expect(changed.json().bins.find((b: { name: string }) => b.name === 'Awaiting materials')).toBeUndefined();
    expect((await call(admin, 'PUT', '/staff/api/bins', { bins: [{ name: 'A', blind: false }, { name: ' a', blind: true }] })).json()).toEqual({ message: reviewMessages.binNameRepeated, errors: { bins: [reviewMessages.binNameRepeated] } });
    expect((await call(admin, 'PUT', '/staff/api/bins', { bins: [{ id: 999_999, name: 'Gone', blind: false }] })).json()).toEqual({ message: reviewMessages.binNotFound });
    const twice = await call(admin, 'PUT', '/staff/api/bins', { bins: [{ id: first.id, name: 'One', blind: false }, { id: first.id, name: 'Two', blind: false }] });
    expect([twice.statusCode, twice.json()]).toEqual([400, { message: reviewMessages.binNotFound }]);
    expect((await binsNow()).bins.map((b: { name: string }) => b.name)).toEqual(['Second read', 'First read', 'Committee', 'Final review', 'Decided']);

    await call(decider, 'POST', '/staff/api/bins/moves', { application_ids: [ids[0]], bin_id: committee.id });
    const refused = await call(admin, 'PUT', '/staff/api/bins', { bins: [{ id: first.id, name: 'Second read', blind: true }] });
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: binNotEmpty('Committee', 1) }]);
    expect((await binsNow()).bins).toHaveLength(5);
    await call(decider, 'POST', '/staff/api/bins/moves', { application_ids: [ids[0]], bin_id: null });
  });

  it('moves a selection into a bin, audited per application moved; the list filters by bin', async () => {
    const { bins } = await binsNow();
    const committee = bins.find((b: { name: string }) => b.name === 'Committee');
    const moved = await call(decider, 'POST', '/staff/api/bins/moves', { application_ids: [ids[1], ids[2], ids[2]], bin_id: committee.id });
    expect([moved.statusCode, moved.json()]).toEqual([200, { moved: 2 }]);
    expect((await call(decider, 'POST', '/staff/api/bins/moves', { application_ids: [ids[1]], bin_id: committee.id })).json()).toEqual({ moved: 0 });
    const inCommittee = await listed(readers[0]!.cookie, `bin=${committee.id}`);
    expect(inCommittee.items.map((item: { id: string; bin: string }) => [item.id, item.bin]).sort()).toEqual([[ids[1], 'Committee'], [ids[2], 'Committee']].sort());
    expect((await listed(readers[0]!.cookie, 'bin=0')).total).toBe(2);
    const moves = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'bin_move'));
    expect(moves.filter((e) => e.applicationId === ids[1]).map((e) => e.detail)).toEqual([{ from: null, to: 'Committee' }]);
    const unknown = await call(decider, 'POST', '/staff/api/bins/moves', { application_ids: [ids[3]], bin_id: 999_999 });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: reviewMessages.binNotFound }]);
  });

  it('shares applications out round-robin by load, never to a reader with a conflict; each reader’s queue is what they have yet to review', async () => {
    const conflict = await call(readers[0]!.cookie, 'PUT', `/staff/api/applications/${ids[3]}/conflict`, { reason: 'My cousin.' });
    expect(conflict.statusCode).toBe(204);
    const shared = await call(decider, 'POST', '/staff/api/assignments', { application_ids: ids, reader_ids: readers.map((r) => r.id) });
    expect(shared.statusCode, shared.body).toBe(200);
    const given = shared.json().assigned.map((a: { application_id: string; staff_email: string }) => [ids.indexOf(a.application_id), a.staff_email]);
    // Even loads: in turn; the fourth cannot go to reader 1 (conflict), so it goes to reader 2.
    expect(given).toEqual([
      [0, readers[0]!.email],
      [1, readers[1]!.email],
      [2, readers[0]!.email],
      [3, readers[1]!.email],
    ]);
    // Given again: its reader holds it and has not reviewed it, so it is skipped, naming them;
    // asked for a second reader, only one who does not hold it can take it.
    const again = (await call(decider, 'POST', '/staff/api/assignments', { application_ids: [ids[0]], reader_ids: [readers[0]!.id] })).json();
    expect(again).toEqual({ assigned: [], skipped: [{ application_id: ids[0], reason: assignmentSkipped.held(readers[0]!.email) }] });
    const sameReader = (await call(decider, 'POST', '/staff/api/assignments', { application_ids: [ids[0]], reader_ids: [readers[0]!.id], second_reader: true })).json();
    expect(sameReader).toEqual({ assigned: [], skipped: [{ application_id: ids[0], reason: assignmentSkipped.conflicted }] });
    // Shared among both readers, the held one is not given to the other (issue 51 §4: round-robin keeps a held file with its reader).
    const shared2 = (await call(decider, 'POST', '/staff/api/assignments', { application_ids: [ids[0]], reader_ids: readers.map((r) => r.id) })).json();
    expect(shared2).toEqual({ assigned: [], skipped: [{ application_id: ids[0], reason: assignmentSkipped.held(readers[0]!.email) }] });

    const queue = await listed(readers[0]!.cookie, 'queue=mine');
    expect(queue.items.map((item: { id: string }) => item.id).sort()).toEqual([ids[0], ids[2]].sort());
    const readersNow = (await call(decider, 'GET', '/staff/api/readers')).json();
    expect(readersNow.filter((r: { email: string }) => r.email.startsWith('queue-reader')).map((r: { open: number }) => r.open)).toEqual([2, 2]);

    // A review completes it: it leaves the queue, and the application shows it reviewed.
    const form = (await call(readers[0]!.cookie, 'GET', '/staff/api/review-form')).json();
    const ratings = Object.fromEntries(form.scales.map((scale: { name: string }) => [scale.name, 1]));
    expect((await call(readers[0]!.cookie, 'POST', `/staff/api/applications/${ids[0]}/reviews`, { form_version: form.version, ratings, recommendation: form.recommendations[0], comment: '' })).statusCode).toBe(201);
    expect((await listed(readers[0]!.cookie, 'queue=mine')).items.map((item: { id: string }) => item.id)).toEqual([ids[2]]);
    const application = (await call(decider, 'GET', `/staff/api/applications/${ids[0]}`)).json();
    expect(application.assignments).toEqual([{ staff_id: readers[0]!.id, staff_email: readers[0]!.email, assigned_at: expect.any(String), reviewed_at: expect.any(String) }]);

    // A conflict declared later takes it out of the queue at once.
    expect((await call(readers[0]!.cookie, 'PUT', `/staff/api/applications/${ids[2]}/conflict`, {})).statusCode).toBe(204);
    expect((await listed(readers[0]!.cookie, 'queue=mine')).total).toBe(0);

    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'assign'));
    expect(entries).toHaveLength(4);
  });

  it('takes an application back from a reader’s queue, audited; an unknown assignment answers 404', async () => {
    const taken = await call(decider, 'DELETE', `/staff/api/applications/${ids[1]}/assignments/${readers[1]!.id}`);
    expect(taken.statusCode, taken.body).toBe(204);
    expect((await listed(readers[1]!.cookie, 'queue=mine')).items.map((item: { id: string }) => item.id)).toEqual([ids[3]]);
    const again = await call(decider, 'DELETE', `/staff/api/applications/${ids[1]}/assignments/${readers[1]!.id}`);
    expect([again.statusCode, again.json()]).toEqual([404, { message: reviewMessages.assignmentNotFound }]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'unassign'));
    expect([entry?.applicationId, entry?.detail]).toEqual([ids[1], { member: readers[1]!.email }]);
    const unknownReader = await call(decider, 'POST', '/staff/api/assignments', { application_ids: [ids[1]], reader_ids: ['00000000-0000-4000-8000-000000000000'] });
    expect([unknownReader.statusCode, unknownReader.json()]).toEqual([404, { message: reviewMessages.readerNotFound }]);
  });
});
