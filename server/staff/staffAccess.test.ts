/**
 * Access control of the staff side, walked over every operation of the contract: each staff call
 * with an applicant's session, an expired or forged staff session, or none (401); each admin call
 * as a reader (403); each decider call as a reader (403); each applicant call with a staff session (401). Nothing of it is recorded in
 * the audit log as a view, a download or an export.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from '../http/contract';
import { exampleRequest } from '../testing/contractExamples';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { rowsOf } from '../infra/db';
import { auditLog, staffSessions, staffUsers } from '../infra/schema';

const contract = loadContract();
type OperationObject = { security?: Record<string, unknown>[]; responses: Record<string, { $ref?: string }> };
const operationOf = (op: { method: string; path: string }) => (contract.paths[op.path] as Record<string, OperationObject>)[op.method.toLowerCase()]!;
const operations = operationsOf(contract).filter((op) => op.operationId !== 'advanceDevClock');
const staffOperations = operations.filter((op) => operationOf(op).security?.some((s) => 'staffCookie' in s));
/** The contract names an admin call by its 403: `AdminOnly`. */
const adminOperations = staffOperations.filter((op) => operationOf(op).responses['403']?.$ref === '#/components/responses/AdminOnly');
/** The contract names a decider's call (a reader may not) by its 403: `DeciderOnly`. */
const deciderOperations = staffOperations.filter((op) => operationOf(op).responses['403']?.$ref === '#/components/responses/DeciderOnly');
const applicantOperations = operations.filter((op) => operationOf(op).security === undefined);

const DISCLOSURES = ['committee_view', 'application_view', 'document_view', 'document_download', 'pdf_download', 'export', 'export_run', 'export_download', 'export_template_change', 'export_client_change', 'person_export', 'person_erase'];

let t: TestApp;
let applicant = '';
let reader = '';
let readerEmail = '';

const inject = (request: { method: string; url: string; payload?: Record<string, unknown> }, cookie?: string) =>
  t.app.inject({ method: request.method as InjectOptions['method'], url: request.url, payload: request.payload, headers: cookie ? { cookie } : {} });
/** The refusals recorded for one call (issue 32: a refused attempt is on the record). */
const refusalsOf = async (call: string) =>
  (await t.database.db.select({ staffEmail: auditLog.staffEmail, detail: auditLog.detail }).from(auditLog).where(eq(auditLog.action, 'access_refused'))).filter((entry) => entry.detail?.call === call);
const disclosures = async () => (await t.database.db.select().from(auditLog).where(inArray(auditLog.action, DISCLOSURES))).length;

/**
 * Every table's content as one digest per table, but the refusal's own writes: its audit entry,
 * the rate limits that count it, and the sessions a call keeps alive (issue 49: a refusal writes
 * nothing else; the machine client's refused run once wrote its last use).
 */
const REFUSALS_WRITE = new Set(['audit_log', 'rate_limits', 'sessions', 'staff_sessions', '__drizzle_migrations']);
async function fingerprint(): Promise<Record<string, string>> {
  const tables = rowsOf<{ name: string }>(await t.database.db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`))
    .map((row) => row.name)
    .filter((name) => !REFUSALS_WRITE.has(name));
  const digests = rowsOf<{ name: string; digest: string }>(
    await t.database.db.execute(sql.raw(tables.map((name) => `select '${name}' as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as digest from "${name}" x`).join(' union all '))),
  );
  return Object.fromEntries(digests.map((row) => [row.name, row.digest]));
}

beforeAll(async () => {
  t = await testApp({ env: { RATE_LIMIT_SCALE: '100' } });
  applicant = await signedInCookie(t, 'applicant@example.com');
  const account = await setUpStaff(t, 'reader');
  readerEmail = account.email;
  reader = await staffSignIn(t, account);
}, 60_000);
afterAll(async () => t?.close());

describe('the contract', () => {
  it('puts every /staff/api call under the staff session and names the admin calls', () => {
    expect(staffOperations.map((op) => op.path).every((p) => p.startsWith('/staff/api/'))).toBe(true);
    expect(operations.filter((op) => op.path.startsWith('/staff/api/'))).toHaveLength(staffOperations.length);
    expect(adminOperations.map((op) => op.operationId).sort()).toEqual(['changeStaffRole', 'createExportClient', 'createExportTemplate', 'deleteExportTemplate', 'downloadExportRun', 'downloadExportRunDocuments', 'erasePerson', 'exportApplications', 'exportPersonRecord', 'getAuditLog', 'getExportRun', 'getExportTemplate', 'getRetention', 'getSignInRules', 'inviteStaff', 'listConflicts', 'listExportClients', 'listExportRuns', 'listExportTemplates', 'listStaff', 'mergeApplications', 'removeStaff', 'revokeExportClient', 'setBins', 'setChecklistRules', 'setCompositeFormula', 'setLetterTemplate', 'setReplyDates', 'setRetention', 'setReviewForm', 'setSignInRules', 'startExportRun', 'unmergeApplication', 'updateExportTemplate', 'withdrawConflict']);
  });
});

describe('every staff call', () => {
  let written: Record<string, string> = {};
  // One expired session for the whole walk: each sign-in moves the clock a TOTP step (30 s), and a
  // sign-in per call once outlasted the reader's own idle time (15 minutes) as the contract grew.
  let expired = '';
  beforeAll(async () => {
    const expiredAccount = await setUpStaff(t, 'admin');
    expired = await staffSignIn(t, expiredAccount);
    const [staff] = await t.database.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, expiredAccount.email));
    await t.database.db.update(staffSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(staffSessions.staffId, staff!.id));
    written = await fingerprint();
  });
  it.each(staffOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 401 for an applicant, anonymous, forged or expired', async (_name, op) => {
    const before = await disclosures();
    const request = exampleRequest(contract, op.method, op.path);
    for (const [who, cookie] of [
      ['applicant session', applicant],
      ['anonymous', undefined],
      ['forged staff session', `staff_session=${'A'.repeat(43)}`],
      ['expired staff session', expired],
      ['applicant token as a staff cookie', `staff_session=${applicant.match(/portal_session=([^;]+)/)![1]}`],
    ] as const) {
      const response = await inject(request, cookie);
      expect(response.statusCode, `${who}: ${response.body}`).toBe(401);
    }
    expect(await disclosures()).toBe(before);
  });
  it('wrote nothing but the refusals’ audit entries, counters and sessions (issue 49, item 13)', async () => {
    expect(Object.keys(written).length).toBeGreaterThan(30);
    expect(await fingerprint()).toEqual(written);
  });
});

describe('every admin call', () => {
  let written: Record<string, string> = {};
  beforeAll(async () => {
    written = await fingerprint();
  });
  it.each(adminOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 403 for a reader, nothing disclosed, and the refusal recorded', async (_name, op) => {
    const before = await disclosures();
    const response = await inject(exampleRequest(contract, op.method, op.path), reader);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toEqual({ message: 'Only an administrator can do this.' });
    expect(await disclosures()).toBe(before);
    expect(await refusalsOf(`${op.method} ${op.path}`)).toEqual([{ staffEmail: readerEmail, detail: { call: `${op.method} ${op.path}`, status: 403 } }]);
  });
  it('wrote nothing but the refusals’ audit entries, counters and sessions (issue 49, item 13)', async () => {
    expect(Object.keys(written).length).toBeGreaterThan(30);
    expect(await fingerprint()).toEqual(written);
  });
});

describe('every decider call', () => {
  let written: Record<string, string> = {};
  beforeAll(async () => {
    written = await fingerprint();
  });
  it('is named by the contract', () => {
    expect(deciderOperations.map((op) => op.operationId).sort()).toEqual(['assignApplications', 'correctAnswer', 'decideMany', 'getCommittee', 'listDecisions', 'listDuplicates', 'listLetterTemplates', 'listReaders', 'moveApplications', 'previewLetter', 'recallDecisions', 'recordReply', 'reinstateApplication', 'releaseDecisions', 'setDecision', 'unassignApplication', 'withdrawApplication']);
  });
  it.each(deciderOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 403 for a reader, and only the refusal recorded', async (_name, op) => {
    const entries = async () => (await t.database.db.select({ id: auditLog.id }).from(auditLog)).length;
    const before = await entries();
    const response = await inject(exampleRequest(contract, op.method, op.path), reader);
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toEqual({ message: 'Only a decider or an administrator can do this.' });
    expect(await entries()).toBe(before + 1);
    expect(await refusalsOf(`${op.method} ${op.path}`)).toEqual([{ staffEmail: readerEmail, detail: { call: `${op.method} ${op.path}`, status: 403 } }]);
  });
  it('wrote nothing but the refusals’ audit entries, counters and sessions (issue 49, item 13)', async () => {
    expect(Object.keys(written).length).toBeGreaterThan(30);
    expect(await fingerprint()).toEqual(written);
  });
});

describe('every staff call from another page', () => {
  // An <img>, a prefetch or a form on a page of the same site (another port or subdomain) carries
  // the SameSite=Strict cookie: only the browser's word on where the call came from tells (issue 29, item 3).
  const consoleOperations = operations.filter((op) => op.path.startsWith('/staff/'));
  let admin = '';
  beforeAll(async () => {
    admin = await staffSignIn(t, await setUpStaff(t, 'admin'));
  });
  it.each(consoleOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 403 from the same site, another site or a foreign origin, and nothing recorded', async (_name, op) => {
    const entries = async () => (await t.database.db.select({ id: auditLog.id }).from(auditLog)).length;
    const before = await entries();
    const request = exampleRequest(contract, op.method, op.path);
    for (const from of [{ 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'http://127.0.0.1:9' }]) {
      const response = await t.app.inject({ method: request.method as InjectOptions['method'], url: request.url, payload: request.payload, headers: { cookie: admin, ...from } });
      expect(response.statusCode, `${JSON.stringify(from)}: ${response.body}`).toBe(403);
      expect(response.json()).toEqual({ message: 'This request came from another site and was refused.' });
      expect(operationOf(op).responses['403'], 'the contract declares it').toBeDefined();
    }
    expect(await entries()).toBe(before);
    // The console's own pages, and an address typed or bookmarked, are not refused by it.
    for (const from of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}]) {
      const response = await t.app.inject({ method: request.method as InjectOptions['method'], url: request.url, payload: request.payload, headers: { cookie: admin, ...from } });
      expect(response.body, JSON.stringify(from)).not.toContain('This request came from another site and was refused.');
    }
  });
});

describe('every applicant call', () => {
  let written: Record<string, string> = {};
  beforeAll(async () => {
    written = await fingerprint();
  });
  it.each(applicantOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 401 with a staff session', async (_name, op) => {
    const response = await inject(exampleRequest(contract, op.method, op.path), reader);
    expect(response.statusCode, response.body).toBe(401);
  });
  it('wrote nothing but the refusals’ audit entries, counters and sessions (issue 49, item 13)', async () => {
    expect(Object.keys(written).length).toBeGreaterThan(30);
    expect(await fingerprint()).toEqual(written);
  });
});

describe('the reader', () => {
  it('is still signed in after the walk, and the log holds none of the refused calls as a disclosure', async () => {
    expect((await inject({ method: 'GET', url: '/staff/api/me' }, reader)).json()).toEqual({ email: readerEmail, role: 'reader' });
    expect(await disclosures()).toBe(0);
  });
});
