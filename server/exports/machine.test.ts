import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from '../http/contract';
import { applications, auditLog, users } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { MACHINE_CALLS_PER_MINUTE, machineMessages, WRONG_KEYS_PER_MINUTE } from './machine';

const machineOperations = operationsOf(loadContract()).filter((op) => op.path.startsWith('/machine/api/'));

// The SIS's own client: a key scoped to named templates, revocable, rate limited, audited (issue 32).
describe('the machine client of the exports (issue 32)', () => {
  let t: TestApp;
  let admin = '';
  let applicant = '';
  let key = '';
  let clientId = 0;
  let template = 0;
  let otherTemplate = 0;
  beforeAll(async () => {
    // Loosened as the browser tests' server is: the client's limits are its contract, and stay (issue 51).
    t = await testApp({ env: { RATE_LIMIT_SCALE: '20' } });
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
    applicant = await signedInCookie(t, 'machine-applicant@example.com');
    await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Mika', phone_international: '+81 3-1234-5678' }, headers: { cookie: applicant } });
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'machine-applicant@example.com'));
    await t.database.db.update(applications).set({ submittedAt: new Date() }).where(eq(applications.userId, user!.id));
    const body = (name: string) => ({
      name,
      format: 'csv',
      columns: [
        { field: 'email', header: 'EMAIL', codes: null },
        { field: 'phone_international', header: 'PHONE', codes: null },
      ],
      filter: { stages: ['submitted'], terms: [], decisions: [], checklist: 'any' },
      code_tables: {},
      schedule: { every: 'never', hour_utc: 0 },
      documents: false,
    });
    template = (await staffCall('POST', '/staff/api/export-templates', body('SIS'))).json().id;
    otherTemplate = (await staffCall('POST', '/staff/api/export-templates', body('CRM'))).json().id;
    const made = await staffCall('POST', '/staff/api/export-clients', { name: 'Banner SIS', templates: [template] });
    expect(made.statusCode, made.body).toBe(201);
    ({ key } = made.json());
    clientId = made.json().client.id;
  }, 60_000);
  afterAll(async () => t?.close());

  function staffCall(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
    return t.app.inject({ method, url, payload, headers: { cookie: admin } });
  }
  const machine = (method: 'GET' | 'POST', url: string, bearer = key) => t.app.inject({ method, url, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  it('shows the key once and keeps only its hash; the list names the client and its scope', async () => {
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    const listed = (await staffCall('GET', '/staff/api/export-clients')).json();
    expect(listed.clients).toEqual([{ id: clientId, name: 'Banner SIS', templates: [template], created_by: expect.stringMatching(/^admin-/), created_at: expect.any(String), revoked_at: null, last_used_at: null }]);
    expect(JSON.stringify(listed)).not.toContain(key);
    const twice = await staffCall('POST', '/staff/api/export-clients', { name: 'Banner SIS', templates: [template] });
    expect([twice.statusCode, twice.json().message]).toEqual([409, machineMessages.nameTaken]);
    const unknown = await staffCall('POST', '/staff/api/export-clients', { name: 'Ghost', templates: [999_999] });
    expect([unknown.statusCode, unknown.json().message]).toEqual([400, machineMessages.unknownTemplates]);
  });

  it('takes the next batch, lists the feed of runs after the last it loaded, and downloads each file as typed; recorded as the client', async () => {
    expect((await machine('GET', '/machine/api/templates')).json()).toEqual({ templates: [{ id: template, name: 'SIS', format: 'csv' }] });
    const first = await machine('POST', `/machine/api/templates/${template}/runs`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'succeeded', rows: 1, started_by: 'client:Banner SIS' });
    const file = await machine('GET', `/machine/api/runs/${first.json().id}/file`);
    expect(parse(file.body, { columns: true, record_delimiter: '\r\n' })).toEqual([{ EMAIL: 'machine-applicant@example.com', PHONE: '+81 3-1234-5678' }]);
    const second = (await machine('POST', `/machine/api/templates/${template}/runs`)).json();
    expect(second).toMatchObject({ status: 'succeeded', rows: 0 });
    const feed = (await machine('GET', `/machine/api/templates/${template}/runs?after=${first.json().id}`)).json();
    expect(feed.runs.map((run: { id: number }) => run.id)).toEqual([second.id]);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.staffEmail, 'client:Banner SIS'));
    expect(entries.map((entry) => [entry.action, entry.detail?.run])).toEqual([
      ['export_run', first.json().id],
      ['export_download', first.json().id],
      ['export_run', second.id],
    ]);
    expect((await staffCall('GET', '/staff/api/export-clients')).json().clients[0].last_used_at).not.toBeNull();
  });

  it('refuses a template outside its scope, and the runs and files of one', async () => {
    for (const [method, url] of [
      ['GET', `/machine/api/templates/${otherTemplate}/runs`],
      ['POST', `/machine/api/templates/${otherTemplate}/runs`],
    ] as const) {
      const refused = await machine(method, url);
      expect([refused.statusCode, refused.json().message]).toEqual([403, machineMessages.outOfScope]);
    }
    const theirs = (await staffCall('POST', `/staff/api/export-templates/${otherTemplate}/runs`, { mode: 'all' })).json();
    const refused = await machine('GET', `/machine/api/runs/${theirs.id}/file`);
    expect(refused.statusCode).toBe(403);
  });

  // Issue 49: an out-of-scope POST …/runs (403) moved the client's last use; wrong keys were never counted.
  it('writes nothing on a refusal: a client only ever refused keeps no last use', async () => {
    const made = (await staffCall('POST', '/staff/api/export-clients', { name: 'Only refused', templates: [template] })).json();
    for (const [method, url] of [
      ['POST', `/machine/api/templates/${otherTemplate}/runs`],
      ['GET', `/machine/api/templates/${otherTemplate}/runs`],
    ] as const) expect((await machine(method, url, made.key)).statusCode).toBe(403);
    const clients = (await staffCall('GET', '/staff/api/export-clients')).json().clients as { name: string; last_used_at: string | null }[];
    expect(clients.find((client) => client.name === 'Only refused')!.last_used_at).toBeNull();
    expect((await machine('GET', '/machine/api/templates', made.key)).statusCode).toBe(200);
    const after = (await staffCall('GET', '/staff/api/export-clients')).json().clients as { name: string; last_used_at: string | null }[];
    expect(after.find((client) => client.name === 'Only refused')!.last_used_at).not.toBeNull();
  });

  it('answers 401 to every machine call without a live key: none, forged, an applicant’s or a member’s cookie, and a revoked key', async () => {
    const other = await staffCall('POST', '/staff/api/export-clients', { name: 'Revoked CRM', templates: [template] });
    const revokedKey = other.json().key as string;
    expect((await machine('GET', '/machine/api/templates', revokedKey)).statusCode).toBe(200);
    expect((await staffCall('DELETE', `/staff/api/export-clients/${other.json().client.id}`)).statusCode).toBe(204);
    expect((await staffCall('DELETE', `/staff/api/export-clients/${other.json().client.id}`)).statusCode).toBe(404);
    expect(machineOperations.length).toBe(5);
    for (const op of machineOperations) {
      const url = op.path.replace('{template}', String(template)).replace('{run}', '1');
      for (const [who, headers] of [
        ['no key', {}],
        ['forged key', { authorization: `Bearer pk_${'A'.repeat(43)}` }],
        ['revoked key', { authorization: `Bearer ${revokedKey}` }],
        ['applicant cookie', { cookie: applicant }],
        ['staff cookie', { cookie: admin }],
        ['key in a cookie', { cookie: `staff_session=${key}` }],
      ] as const) {
        const response = await t.app.inject({ method: op.method as 'GET', url, headers });
        expect([response.statusCode, response.json().message], `${op.method} ${op.path}: ${who}`).toEqual([401, machineMessages.keyInvalid]);
        expect(response.headers['www-authenticate']).toBe('Bearer');
      }
    }
    const revoked = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'export_client_change'))).map((entry) => entry.detail);
    expect(revoked).toContainEqual({ client: 'Revoked CRM', change: 'revoke' });
  });

  it(`allows ${MACHINE_CALLS_PER_MINUTE} calls a minute per client, then 429 with Retry-After`, async () => {
    const made = (await staffCall('POST', '/staff/api/export-clients', { name: 'Busy loader', templates: [template] })).json();
    const statuses: number[] = [];
    for (let i = 0; i <= MACHINE_CALLS_PER_MINUTE; i++) statuses.push((await machine('GET', '/machine/api/templates', made.key)).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MACHINE_CALLS_PER_MINUTE);
    const refused = await machine('GET', '/machine/api/templates', made.key);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client's limit is its own.
    expect((await machine('GET', '/machine/api/templates')).statusCode).toBe(200);
  });

  it(`slows a key guessed again and again: ${WRONG_KEYS_PER_MINUTE} wrong keys a minute from one address, then 429`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= WRONG_KEYS_PER_MINUTE; i++) statuses.push((await machine('GET', '/machine/api/templates', `pk_${String(i).padStart(43, 'x')}`)).statusCode);
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(0);
    expect(statuses.slice(0, first).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(first).every((status) => status === 429)).toBe(true);
  });
});
