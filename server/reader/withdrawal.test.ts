import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawalMessages } from '../../domain/corrections';
import { rowsOf } from '../infra/db';
import { applications, assignments, auditLog, bins, decisions, staffUsers } from '../infra/schema';
import { applicantWithAnswers, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

describe('withdrawing or cancelling an application at the applicant’s request (issue 32)', () => {
  let t: TestApp;
  let decider = '';
  let deciderEmail = '';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await testApp();
    const account = await setUpStaff(t, 'decider');
    deciderEmail = account.email;
    decider = await staffSignIn(t, account);
    for (const [username, submitted] of [
      ['withdrawn@example.com', true],
      ['cancelled@example.com', false],
    ] as const) ids[username] = (await applicantWithAnswers(t, username, { first_name: 'Wren' }, submitted)).id;
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', id: string, body?: object) =>
    t.app.inject({ method, url: method === 'GET' ? `/staff/api/applications/${id}` : `/staff/api/applications/${id}/withdrawal`, payload: body, headers: { cookie: decider } });
  const changedXid = async (id: string) => rowsOf<{ x: string }>(await t.database.db.execute(sql`select changed_xid::text as x from applications where user_id = ${id}`))[0]!.x;

  it('marks a submitted application withdrawn and one in progress cancelled, keeps the record, says so on the application, and the export sees a change; audited', async () => {
    const id = ids['withdrawn@example.com']!;
    const before = await changedXid(id);
    const withdrawn = await call('POST', id, { reason: '  Enrolling elsewhere (e-mail of 2026-11-24).  ' });
    expect([withdrawn.statusCode, withdrawn.json()]).toEqual([200, { kind: 'withdrawn', at: expect.any(String), reason: 'Enrolling elsewhere (e-mail of 2026-11-24).', by: deciderEmail }]);
    expect(await changedXid(id)).not.toBe(before);
    expect((await call('GET', id)).json().withdrawal).toEqual(withdrawn.json());
    const again = await call('POST', id, { reason: 'Twice.' });
    expect([again.statusCode, again.json().message]).toEqual([409, withdrawalMessages.already]);
    expect((await call('POST', ids['cancelled@example.com']!, { reason: 'Changed their mind.' })).json().kind).toBe('cancelled');
    expect((await call('POST', id, { reason: ' ' })).json().errors).toEqual({ reason: [withdrawalMessages.reasonRequired] });

    expect((await call('DELETE', id)).statusCode).toBe(204);
    expect((await call('GET', id)).json().withdrawal).toBeNull();
    expect((await call('DELETE', id)).statusCode).toBe(404);
    const entries = await t.database.db.select().from(auditLog).where(sql`${auditLog.action} in ('application_withdraw', 'application_reinstate')`);
    expect(entries.map((entry) => [entry.action, entry.applicationId, entry.detail])).toEqual([
      ['application_withdraw', id, { reason: 'Enrolling elsewhere (e-mail of 2026-11-24).', kind: 'withdrawn' }],
      ['application_withdraw', ids['cancelled@example.com'], { reason: 'Changed their mind.', kind: 'cancelled' }],
      ['application_reinstate', id, {}],
    ]);
  });

  it('takes a withdrawn application out of my queue, its bin and the counts, refuses to decide or release it until reinstated, and tells the applicant (issue 51)', async () => {
    const db = t.database.db;
    const { id, cookie: applicant } = await applicantWithAnswers(t, 'leaving@example.com', { first_name: 'Lee' }, true);
    const myStatus = async () => (await t.app.inject({ method: 'GET', url: '/api/decision', headers: { cookie: applicant } })).json();
    const other = (await applicantWithAnswers(t, 'staying@example.com', { first_name: 'Sam' }, true)).id;
    const [bin] = await db.insert(bins).values({ name: 'Leavers’ read', position: 9 }).returning();
    const [me] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, deciderEmail));
    for (const userId of [id, other]) {
      await db.update(applications).set({ binId: bin!.id }).where(eq(applications.userId, userId));
      await db.insert(assignments).values({ userId, staffId: me!.id, assignedByEmail: deciderEmail, assignedAt: new Date() });
    }
    // A decision made before the withdrawal, not yet released.
    expect((await t.app.inject({ method: 'PUT', url: `/staff/api/applications/${id}/decision`, payload: { decision: 'admit' }, headers: { cookie: decider } })).statusCode).toBe(200);
    const listed = async (query: string) => (await t.app.inject({ method: 'GET', url: `/staff/api/applications?${query}`, headers: { cookie: decider } })).json().items.map((item: { id: string }) => item.id);
    const binCount = async () => (await t.app.inject({ method: 'GET', url: '/staff/api/bins', headers: { cookie: decider } })).json().bins.find((each: { id: number }) => each.id === bin!.id).count;
    const myLoad = async () => (await t.app.inject({ method: 'GET', url: '/staff/api/readers', headers: { cookie: decider } })).json().find((reader: { email: string }) => reader.email === deciderEmail).open;
    expect([await listed('queue=mine'), await listed(`bin=${bin!.id}`), await binCount(), await myLoad()]).toEqual([expect.arrayContaining([id, other]), expect.arrayContaining([id, other]), 2, 2]);

    expect(await myStatus()).toEqual({ state: 'under_review' });
    const withdrawn = await call('POST', id, { reason: 'Enrolling elsewhere.' });
    expect(withdrawn.statusCode).toBe(200);
    // The applicant's status page says so.
    expect(await myStatus()).toEqual({ state: 'withdrawn', withdrawn_at: withdrawn.json().at });
    expect(await listed('queue=mine')).toEqual([other]);
    expect(await listed(`bin=${bin!.id}`)).toEqual([other]);
    expect([await binCount(), await myLoad()]).toEqual([1, 1]);
    // The whole list still has it.
    expect(await listed('q=lee')).toEqual([id]);

    const decide = await t.app.inject({ method: 'PUT', url: `/staff/api/applications/${id}/decision`, payload: { decision: 'deny' }, headers: { cookie: decider } });
    expect([decide.statusCode, decide.json().message]).toEqual([409, 'This application was withdrawn at the applicant’s request: reinstate it before deciding.']);
    const many = await t.app.inject({ method: 'POST', url: '/staff/api/decisions', payload: { application_ids: [id, other], decision: 'waitlist' }, headers: { cookie: decider } });
    expect(many.json()).toEqual({ decided: 1, skipped: 1 });
    const release = await t.app.inject({ method: 'POST', url: '/staff/api/decisions/release', payload: { application_ids: [id, other] }, headers: { cookie: decider } });
    expect([release.statusCode, release.json().scheduled]).toEqual([202, 1]);
    const [held] = await db.select().from(decisions).where(eq(decisions.userId, id));
    expect([held!.decision, held!.releaseAt]).toEqual(['admit', null]);

    // Reinstated, it is work again.
    expect((await call('DELETE', id)).statusCode).toBe(204);
    expect(await myStatus()).toEqual({ state: 'under_review' });
    expect(await listed('queue=mine')).toContain(id);
    expect((await t.app.inject({ method: 'PUT', url: `/staff/api/applications/${id}/decision`, payload: { decision: 'deny' }, headers: { cookie: decider } })).statusCode).toBe(200);
  });
});

