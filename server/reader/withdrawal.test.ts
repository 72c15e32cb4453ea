import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawalMessages } from '../../domain/corrections';
import { rowsOf } from '../infra/db';
import { auditLog } from '../infra/schema';
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
});
