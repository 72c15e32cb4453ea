/**
 * Access control, walked over every operation of the contract: each call that needs a session is
 * tried anonymous, with an expired session, with a forged cookie and with a service token (401
 * every time); then every operation is tried as another applicant holding the owner's identifiers
 * (the owner's file key, the document keys): the owner's answers appear in no answer,
 * nothing of the owner's changes, and a file of the owner's is refused (403/404).
 */
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from './contract';
import { exampleRequest } from '../testing/contractExamples';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { makeFixtureFiles } from '../testing/files';
import { createServiceToken } from '../service/tokens';
import { sessions, users } from '../infra/schema';

const contract = loadContract();
type OperationObject = { security?: unknown[] };
const operations = operationsOf(contract)
  .filter((op) => op.operationId !== 'advanceDevClock')
  .map((op) => ({ ...op, needsSession: (contract.paths[op.path] as Record<string, OperationObject>)[op.method.toLowerCase()]!.security === undefined }));
const sessionOperations = operations.filter((op) => op.needsSession);

/** A string only the owner's answers hold: found in any answer to anyone else, it is a leak. */
const MARKER = 'Owner-Secret-Zq7';

let t: TestApp;
let ownerCookie = '';
let ownerFileKey = '';
let ownerRecommenderId = '';
let serviceToken = '';
let pngBytes: Buffer;

const inject = (request: { method: string; url: string; payload?: Record<string, unknown> }, cookie?: string) =>
  t.app.inject({ method: request.method as InjectOptions['method'], url: request.url, payload: request.payload, headers: cookie ? { cookie } : {} });

async function ownerData() {
  const read = async (url: string) => (await inject({ method: 'GET', url }, ownerCookie)).body;
  return [await read('/api/profile'), await read('/api/tabs'), await read('/api/add-another'), await read('/api/document-answer'), await read('/api/pdf/document-answer/additional_info_doc'), await read('/api/recommenders')];
}

beforeAll(async () => {
  t = await testApp({ env: { RATE_LIMIT_SCALE: '100' } });
  pngBytes = (await makeFixtureFiles()).png;
  ownerCookie = await signedInCookie(t, 'owner@example.com');
  await inject({ method: 'PUT', url: '/api/answer', payload: { first_name: MARKER, last_name: MARKER, counselor_waiver_request: 'N' } }, ownerCookie);
  // The owner's recommender: their id is what a stranger would try on the recommender calls.
  const asked = await inject({ method: 'POST', url: '/api/recommenders', payload: { role: 'teacher', name: MARKER, email: 'owners-teacher@school.example' } }, ownerCookie);
  expect(asked.statusCode, asked.body).toBe(201);
  ownerRecommenderId = asked.json().id;
  // The owner's uploaded file, converted: its key and its signed policy are what a stranger would try.
  const presigned = await inject({ method: 'POST', url: '/api/presigned-url', payload: { answer_key: 'additional_info_doc', content_type: 'image/png' } }, ownerCookie);
  const ownerPolicy: Record<string, string> = presigned.json().fields;
  ownerFileKey = ownerPolicy.key!;
  const form = new FormData();
  for (const [key, value] of Object.entries(ownerPolicy)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(pngBytes)], { type: 'image/png' }), 'owner.png');
  expect((await t.app.inject({ method: 'POST', url: '/upload', payload: form })).statusCode).toBe(204);
  const started = await inject({ method: 'POST', url: '/api/pdf/document-answer/additional_info_doc', payload: { file_key: ownerFileKey, file_name: 'owner.png' } }, ownerCookie);
  expect(started.statusCode).toBe(202);
  const [owner] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'owner@example.com'));
  serviceToken = await createServiceToken(t.database.db, owner!.id);
}, 60_000);
afterAll(async () => t?.close());

/** The contract's example of the call, with the owner's file key wherever a body names one, and the owner's recommender wherever the path names one. */
function requestFor(op: { method: string; path: string }) {
  const request = exampleRequest(contract, op.method, op.path);
  if (op.path.includes('{recommender}')) request.url = request.url.replace(/\/api\/recommenders\/[^/?]+/, `/api/recommenders/${ownerRecommenderId}`);
  if (request.payload && 'file_key' in request.payload) request.payload = { ...request.payload, file_key: ownerFileKey };
  return request;
}

describe('every call that needs a session', () => {
  it.each(sessionOperations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s: 401 anonymous, expired, forged, or with a service token', async (_name, op) => {
    const stale = await signedInCookie(t);
    const staleUser = (await t.database.db.select({ userId: sessions.userId }).from(sessions)).at(-1)!.userId;
    await t.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(sessions.userId, staleUser));
    const request = requestFor(op);
    const separator = request.url.includes('?') ? '&' : '?';
    const attempts = [
      ['anonymous', request, undefined],
      ['expired session', request, stale],
      ['forged session', request, 'portal_session=' + 'A'.repeat(43)],
      ['service token', { ...request, url: `${request.url}${separator}service_token=${serviceToken}` }, undefined],
    ] as const;
    for (const [who, attempt, cookie] of attempts) {
      const response = await inject(attempt, cookie);
      expect(response.statusCode, `${who}: ${response.body}`).toBe(401);
      expect(response.body).not.toContain(MARKER);
    }
  });
});

describe('another applicant', () => {
  it('reaches nothing of the owner through any operation, and changes nothing of it', async () => {
    const before = await ownerData();
    expect(before.join()).toContain(MARKER);
    const stranger = await signedInCookie(t, 'stranger@example.com');
    const seen: string[] = [];
    // Log out last: the walk goes on signed in.
    for (const op of [...operations.filter((o) => o.operationId !== 'logout'), ...operations.filter((o) => o.operationId === 'logout')]) {
      const request = requestFor(op);
      if (op.path.includes('{recommender}')) expect(request.url).toContain(ownerRecommenderId);
      const response = await inject(request, stranger);
      seen.push(`${op.method} ${op.path} → ${response.statusCode}`);
      expect(response.statusCode, `${op.method} ${op.path}`).toBeLessThan(500);
      expect(response.body, `${op.method} ${op.path}`).not.toContain(MARKER);
    }
    // The owner's file, named directly: refused.
    const again = await signedInCookie(t, 'stranger-2@example.com');
    const convert = await inject({ method: 'POST', url: '/api/pdf/document-answer/additional_info_doc', payload: { file_key: ownerFileKey, file_name: 'x.png' } }, again);
    expect(convert.statusCode).toBe(403);
    expect(await ownerData()).toEqual(before);
    expect(seen).toHaveLength(operations.length);
  }, 60_000);
});
