import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeApplication } from '../../domain/catalogue/completeApplication';
import { staffMessages } from '../../domain/staff';
import { loadContract, operationsOf } from '../http/contract';
import { auditLog, staffUsers, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';

// The embedded database: a guard on every call on one application, and the lists' filter.
describe('conflicts of interest (issue 30)', () => {
  let t: TestApp;
  let conflicted = '';
  let conflictedEmail = '';
  let colleague = '';
  let admin = '';
  let id = '';
  beforeAll(async () => {
    t = await testApp({ env: { RATE_LIMIT_SCALE: '100' } });
    const account = await setUpStaff(t, 'decider');
    conflictedEmail = account.email;
    conflicted = await staffSignIn(t, account);
    colleague = await staffSignIn(t, await setUpStaff(t, 'decider'));
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    const cookie = await signedInCookie(t, 'neighbour@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { ...completeApplication, last_name: 'Thistlewood' }, headers: { cookie } });
    await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } });
    id = (await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'neighbour@example.com')))[0]!.id;
  }, 60_000);
  afterAll(async () => t?.close());

  const call = (cookie: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: { cookie } });
  const listed = async (cookie: string) => (await call(cookie, 'GET', '/staff/api/applications?q=thistlewood')).json().total;

  it('hides the application from the member who declared one, whatever the call, and from their lists; others still see it', async () => {
    await call(colleague, 'PUT', `/staff/api/applications/${id}/decision`, { decision: 'admit' });
    expect((await call(conflicted, 'PUT', `/staff/api/applications/${id}/conflict`, { reason: 'My neighbour’s daughter.' })).statusCode).toBe(204);
    expect((await call(conflicted, 'PUT', `/staff/api/applications/${id}/conflict`, {})).statusCode).toBe(204);

    for (const [method, url, payload] of [
      ['GET', `/staff/api/applications/${id}`, undefined],
      ['GET', `/staff/api/applications/${id}/documents/additional_info_doc`, undefined],
      ['GET', `/staff/api/applications/${id}/pdf`, undefined],
      ['POST', `/staff/api/applications/${id}/pdf`, undefined],
      ['POST', `/staff/api/applications/${id}/notes`, { text: 'x' }],
      ['PUT', `/staff/api/applications/${id}/decision`, { decision: 'deny' }],
      ['GET', `/staff/api/applications/${id}/letter?decision=admit`, undefined],
    ] as const) {
      const refused = await call(conflicted, method, url, payload);
      expect([refused.statusCode, refused.json()], `${method} ${url}`).toEqual([404, { message: staffMessages.conflicted }]);
    }
    expect(await listed(conflicted)).toBe(0);
    expect((await call(conflicted, 'GET', '/staff/api/application-counts?q=thistlewood')).json()).toEqual({ started: 0, validating: 0, submitted: 0 });
    expect((await call(conflicted, 'GET', '/staff/api/decisions?state=provisional')).json().items.map((item: { application_id: string }) => item.application_id)).not.toContain(id);
    expect((await call(conflicted, 'POST', '/staff/api/decisions', { application_ids: [id], decision: 'deny' })).json()).toEqual({ decided: 0, skipped: 1 });
    expect((await call(conflicted, 'POST', '/staff/api/decisions/release', { application_ids: [id] })).statusCode).toBe(409);

    expect(await listed(colleague)).toBe(1);
    expect((await call(colleague, 'GET', `/staff/api/applications/${id}`)).json().decision).toMatchObject({ decision: 'admit', state: 'provisional' });
    const entries = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'conflict_declare'))).map((entry) => [entry.staffEmail, entry.applicationId, entry.detail]);
    expect(entries).toEqual([[conflictedEmail, id, { reason: 'My neighbour’s daughter.' }]]);
    // Each refused attempt is on the record (issue 32), naming the application.
    const refused = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'access_refused'))).filter((entry) => entry.staffEmail === conflictedEmail);
    expect(refused.map((entry) => [entry.applicationId, entry.detail?.call, entry.detail?.reason])).toEqual([
      [id, 'GET /staff/api/applications/{id}', 'conflict of interest'],
      [id, 'GET /staff/api/applications/{id}/documents/{key}', 'conflict of interest'],
      [id, 'GET /staff/api/applications/{id}/pdf', 'conflict of interest'],
      [id, 'POST /staff/api/applications/{id}/pdf', 'conflict of interest'],
      [id, 'POST /staff/api/applications/{id}/notes', 'conflict of interest'],
      [id, 'PUT /staff/api/applications/{id}/decision', 'conflict of interest'],
      [id, 'GET /staff/api/applications/{id}/letter', 'conflict of interest'],
    ]);
  });

  it('walks every list-like call (a staff GET naming no application) as a decider and an administrator who declared the conflict: none shows the applicant (issue 49, item 4)', async () => {
    const adminAccount = await setUpStaff(t, 'admin');
    const conflictedAdmin = await staffSignIn(t, adminAccount);
    expect((await call(conflictedAdmin, 'PUT', `/staff/api/applications/${id}/conflict`, {})).statusCode).toBe(204);
    // A colleague's work puts the applicant in every list: a note, a view, a list page.
    await call(colleague, 'POST', `/staff/api/applications/${id}/notes`, { text: 'Strong essay.' });
    await call(colleague, 'GET', '/staff/api/applications?q=thistlewood');
    const contract = loadContract();
    const lists = operationsOf(contract).filter((op) => op.method === 'GET' && op.path.startsWith('/staff/api/') && !op.path.includes('{'));
    expect(lists.length).toBeGreaterThan(10);
    const shown: string[] = [];
    const answered: string[] = [];
    for (const op of lists) {
      // Only the query the call needs (an example's filter could hide the applicant and pass the walk for nothing).
      const operation = (contract.paths[op.path] as Record<string, { parameters?: { $ref?: string; in?: string; name?: string; required?: boolean; example?: unknown }[] }>).get!;
      const query = new URLSearchParams();
      for (const parameter of (operation.parameters ?? []).map((each) => (each.$ref ? ((contract as unknown as { components: { parameters: Record<string, typeof each> } }).components.parameters[each.$ref.split('/').at(-1)!]!) : each))) {
        if (parameter.in === 'query' && parameter.required) query.set(parameter.name!, String(parameter.example));
      }
      for (const [who, cookie] of [['decider', conflicted], ['admin', conflictedAdmin]] as const) {
        const response = await call(cookie, 'GET', op.path + (query.size ? `?${query}` : ''));
        if (response.statusCode !== 200) continue;
        answered.push(`${op.path} as ${who}`);
        if ([id, 'neighbour@example.com', 'Thistlewood'].some((trace) => response.body.includes(trace))) shown.push(`${op.path} as ${who}`);
      }
    }
    expect(answered.length).toBeGreaterThan(lists.length);
    expect(shown).toEqual([]);
    // The colleague still finds it in the same lists.
    expect((await call(colleague, 'GET', '/staff/api/applications')).body).toContain(id);
    // Another administrator sees that conflict, and withdraws it (the next test counts one).
    const [adminId] = (await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, adminAccount.email))).map((row) => row.id);
    expect((await call(admin, 'GET', '/staff/api/conflicts')).json().map((each: { staff_id: string }) => each.staff_id)).toContain(adminId);
    expect((await call(admin, 'DELETE', `/staff/api/applications/${id}/conflicts/${adminId}`)).statusCode).toBe(204);
  });

  it('lets an administrator list and withdraw one; the member sees the application again', async () => {
    const list = (await call(admin, 'GET', '/staff/api/conflicts')).json();
    const [memberId] = (await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, conflictedEmail))).map((row) => row.id);
    expect(list).toEqual([{ application_id: id, name: 'Jordan Thistlewood', staff_id: memberId, staff_email: conflictedEmail, reason: 'My neighbour’s daughter.', declared_at: expect.any(String) }]);
    expect((await call(conflicted, 'GET', '/staff/api/conflicts')).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `/staff/api/applications/${id}/conflicts/${memberId}`)).statusCode).toBe(204);
    const again = await call(admin, 'DELETE', `/staff/api/applications/${id}/conflicts/${memberId}`);
    expect([again.statusCode, again.json()]).toEqual([404, { message: staffMessages.conflictNotFound }]);
    expect(await listed(conflicted)).toBe(1);
    expect((await call(conflicted, 'GET', `/staff/api/applications/${id}`)).statusCode).toBe(200);
    const withdrawn = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'conflict_withdraw'))).at(-1);
    expect(withdrawn).toMatchObject({ applicationId: id, detail: { member: conflictedEmail } });
  });

  it('a member with several conflicts finds none of them in the list or its counts, and every other application', async () => {
    const ids: string[] = [];
    for (const email of ['quill-1@example.com', 'quill-2@example.com', 'quill-3@example.com']) {
      const cookie = await signedInCookie(t, email);
      await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { ...completeApplication, last_name: 'Quillfeather' }, headers: { cookie } });
      await t.app.inject({ method: 'POST', url: '/api/submit', headers: { cookie } });
      ids.push((await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, email)))[0]!.id);
    }
    for (const declared of ids.slice(0, 2)) expect((await call(conflicted, 'PUT', `/staff/api/applications/${declared}/conflict`, {})).statusCode).toBe(204);
    const list = (await call(conflicted, 'GET', '/staff/api/applications?q=quillfeather')).json();
    expect([list.total, list.items.map((item: { id: string }) => item.id)]).toEqual([1, [ids[2]]]);
    expect((await call(conflicted, 'GET', '/staff/api/application-counts?q=quillfeather')).json()).toEqual({ started: 0, validating: 0, submitted: 1 });
    expect((await call(colleague, 'GET', '/staff/api/applications?q=quillfeather')).json().total).toBe(3);
  });

  it('answers 404 for a conflict on an application that does not exist', async () => {
    const missing = await call(conflicted, 'PUT', '/staff/api/applications/00000000-0000-4000-8000-000000000000/conflict', {});
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: staffMessages.applicationNotFound }]);
  });
});
