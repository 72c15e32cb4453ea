/**
 * Contract fuzz: thousands of generated and mutated requests over every operation of openapi.yaml
 * (valid and invalid bodies, every content type, NUL and lone surrogates, odd paths and queries,
 * anonymous, signed in, with a dead or forged session, from another site; the office's calls as an
 * admin and a reader, the machine calls with a client's key). Every answer must be in
 * the contract (its status declared for that operation, its JSON body valid against the schema, by
 * Ajv), no answer may be a 5xx, and another applicant's data must come through unchanged.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, operationsOf } from './contract';
import { exampleRequest, responseValidator } from '../testing/contractExamples';
import { cookieHeader, signedInCookie, testApp, TEST_PASSWORD, type TestApp } from '../testing/app';
import { createServiceToken } from '../service/tokens';
import { setUpStaff, staffSignIn } from '../testing/staff';
import { users } from '../infra/schema';
import { fullProof } from '../testing/proof';
import { eq } from 'drizzle-orm';

const contract = loadContract();
const validate = responseValidator(contract);
/** The clock helper moves every session's time: fuzzing it would only test that sessions expire. */
const operations = operationsOf(contract).filter((op) => op.operationId !== 'advanceDevClock');
/**
 * Generated requests, on top of the 1,325 fixed edge cases. `npm test` runs one seeded set of
 * 1,200 (the same requests every run: every operation its share, by every kind of caller);
 * `npm run test:proof` 10,000 on a new seed each run (a failure prints its seed to run it again).
 */
/** Fastify's body limit (server/app.ts). */
const BODY_LIMIT = 2 * 1024 * 1024;
const GENERATED = fullProof ? 10_000 : 1_200;
const SEED = fullProof ? undefined : 20_261_125;

type Op = (typeof operations)[number];
type Json = Record<string, unknown>;
type Operation = { parameters?: { name: string; in: string; $ref?: string }[]; requestBody?: unknown; responses: Record<string, unknown> };

const operationObject = (op: Op) => (contract.paths[op.path] as Record<string, Operation>)[op.method.toLowerCase()]!;
const namesIn = (op: Op, place: 'query' | 'header') =>
  (operationObject(op).parameters ?? []).flatMap((p) => {
    const resolved = p.$ref ? ((contract.components as { parameters: Record<string, { name: string; in: string }> }).parameters[p.$ref.split('/').pop()!] ?? p) : p;
    return resolved.in === place ? [resolved.name] : [];
  });
const queryNames = (op: Op) => namesIn(op, 'query');
/** What a header of the contract may carry (the page binding, the answers base): well-formed, near it, and not. */
const headerValue = fc.oneof(
  fc.uuid(),
  fc.constantFrom('_rev=0', '_rev=1,first_name=Ann', 'first_name=,city=Denver', 'additional_info_essay=#0123456789abcdef', '_rev=x', 'First=x', 'a=%E0%A4%A', 'city=#zz', ''),
  fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
);

/** Text that breaks things: control characters, lone surrogates, traversal, markup, very long. */
const nasty = fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '../../../etc/passwd', '%00', '<script>alert(1)</script>', "' OR 1=1 --", 'x'.repeat(3_000), '🎓'.repeat(200), 'null', '{}', '-1', '1e309');
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), nasty);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 3 }), text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));

/** The operation's own example with keys kept, replaced, removed, or added. */
function mutatedExample(op: Op): fc.Arbitrary<unknown> {
  const example = (exampleRequest(contract, op.method, op.path).payload ?? {}) as Json;
  const keys = Object.keys(example);
  return fc
    .record({
      replaced: fc.dictionary(fc.constantFrom(...(keys.length ? keys : ['x'])), anyJson, { maxKeys: 3 }),
      removed: fc.subarray(keys),
      added: fc.dictionary(fc.oneof(text, fc.constantFrom('answer', 'username', 'first_name', '__proto__', 'constructor', 'hs_ceeb_1', 'code')), anyJson, { maxKeys: 3 }),
    })
    .map(({ replaced, removed, added }) => {
      const body: Json = { ...example, ...replaced, ...added };
      for (const key of removed) delete body[key];
      return body;
    });
}

/** Bodies the server must take apart: valid-ish JSON, any JSON, broken JSON, other media types. */
function body(op: Op): fc.Arbitrary<{ contentType?: string; payload?: string }> {
  const json = (value: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(value) });
  return fc.oneof(
    { weight: 4, arbitrary: mutatedExample(op).map(json) },
    { weight: 2, arbitrary: anyJson.map(json) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', '\u0000', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}').map((payload) => ({ contentType: 'application/json', payload })) },
    {
      weight: 2,
      arbitrary: fc.record({
        contentType: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/pdf', 'application/octet-stream'),
        payload: fc.oneof(text, mutatedExample(op).map((value) => JSON.stringify(value))),
      }),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/** A path parameter: a real document key, another answer key, or anything, encoded or raw. */
const pathParameter = fc.oneof(
  fc.constantFrom('additional_info_doc', 'ap_ib_transcript_doc', 'first_name', 'nothing', '1'),
  text.map((value) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  // A cut-off escape, NUL, a surrogate's UTF-8 bytes (not valid UTF-8), an encoded traversal.
  fc.constantFrom('%', '%E0%A4%A', '%00', '%ED%A0%80', '..%2F..%2Fetc', 'a%2Fb'),
);

type Who = 'anonymous' | 'applicant' | 'dead session' | 'forged session' | 'service token' | 'machine client' | 'forged key' | 'admin' | 'reader';
const who = fc.constantFrom<Who>('anonymous', 'applicant', 'applicant', 'applicant', 'dead session', 'forged session', 'service token');
const site = fc.constantFrom<Record<string, string>>({}, {}, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' });

/** The machine calls (/machine/api/) mostly with the client's key: without one every answer is a 401. */
const machineWho = fc.constantFrom<Who>('machine client', 'machine client', 'machine client', 'forged key', 'anonymous', 'applicant');

/**
 * The office's calls (/staff/api/) mostly as an admin and a reader, so they reach their handlers
 * and their refusals (issue 49, item 14: 400 bodies a staff caller met broke the contract).
 */
const staffWho = fc.constantFrom<Who>('admin', 'admin', 'admin', 'reader', 'reader', 'applicant', 'anonymous');

function request(op: Op) {
  return fc.record({
    who: op.path.startsWith('/machine/') ? machineWho : op.path.startsWith('/staff/api/') ? staffWho : who,
    site,
    key: pathParameter,
    rawQuery: fc.option(fc.constantFrom('text=%00', 'text=%ED%A0%80', 'text=%', 'a=%E0%A4%A', 'max_results=1e400', 'category[]=x', 'text=' + 'x'.repeat(5_000)), { nil: undefined }),
    query: fc.record(Object.fromEntries([...queryNames(op), 'extra'].map((name) => [name, fc.option(text, { nil: undefined })]))) as fc.Arbitrary<Record<string, string | undefined>>,
    headers: fc.record(Object.fromEntries(namesIn(op, 'header').filter((name) => name !== 'X-Test-Clock').map((name) => [name.toLowerCase(), fc.option(headerValue, { nil: undefined })]))) as fc.Arbitrary<Record<string, string | undefined>>,
    body: operationObject(op).requestBody ? body(op) : fc.oneof(fc.constant({}), body(op)),
  });
}

type Sent = { op: Op; who: Who; site: Record<string, string>; key: string; rawQuery?: string; query: Record<string, string | undefined>; headers?: Record<string, string | undefined>; body: { contentType?: string; payload?: string } };

describe('contract fuzz', () => {
  let t: TestApp;
  let applicant = '';
  let applicantName = '';
  let victim = '';
  let serviceToken = '';
  let machineKey = '';
  let admin = '';
  let reader = '';
  let staffAccounts: Record<'admin' | 'reader', { email: string; secret: string }>;
  const statuses = new Map<number, number>();
  let sent = 0;

  /** What the other applicant holds: read through the API, compared before and after. */
  async function victimData() {
    const read = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { cookie: victim } })).json();
    return { profile: await read('/api/profile'), tabs: await read('/api/tabs'), addAnother: await read('/api/add-another'), documents: await read('/api/document-answer') };
  }

  beforeAll(async () => {
    // The renderer is left out: a fuzzed submit must not start a browser per request.
    t = await testApp({ env: { RATE_LIMIT_SCALE: '100', CHROMIUM_PATH: '/nonexistent/chromium' } });
    applicantName = 'fuzz-applicant@example.com';
    applicant = await signedInCookie(t, applicantName);
    victim = await signedInCookie(t, 'fuzz-victim@example.com');
    const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: { cookie: victim }, payload });
    await put('/api/answer', { first_name: 'Vera', last_name: 'Victim', citizenship_status: '1', citizenship_status_desc: 'U.S. Citizen' });
    await put('/api/last-page', { last_page: '/education' });
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'fuzz-victim@example.com'));
    serviceToken = await createServiceToken(t.database.db, row!.id);
    // A machine client scoped to template 1, so its calls get past the key to the handlers.
    staffAccounts = { admin: await setUpStaff(t, 'admin'), reader: await setUpStaff(t, 'reader') };
    admin = await staffSignIn(t, staffAccounts.admin);
    reader = await staffSignIn(t, staffAccounts.reader);
    const template = { name: 'Fuzz', format: 'csv', columns: [{ field: 'email', header: 'EMAIL', codes: null }], filter: { stages: ['submitted'], terms: [], decisions: [], checklist: 'any' }, code_tables: {}, schedule: { every: 'never', hour_utc: 0 }, documents: false };
    expect((await t.app.inject({ method: 'POST', url: '/staff/api/export-templates', payload: template, headers: { cookie: admin } })).json().id).toBe(1);
    machineKey = (await t.app.inject({ method: 'POST', url: '/staff/api/export-clients', payload: { name: 'Fuzz SIS', templates: [1] }, headers: { cookie: admin } })).json().key;
  }, 60_000);
  afterAll(async () => t?.close());

  async function send(r: Sent): Promise<LightMyRequestResponse> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(r.query)) if (value !== undefined) query.set(name, value);
    if (r.who === 'service token' && r.op.operationId === 'getServiceView') query.set('service_token', serviceToken);
    const url = r.op.path.replace(/\{[^}]+\}/g, r.key) + (query.size ? `?${query}` : '') + (r.rawQuery && r.op.method === 'GET' ? `${query.size ? '&' : '?'}${r.rawQuery}` : '');
    const cookie = { applicant, admin, reader, anonymous: '', 'dead session': 'portal_session=' + 'A'.repeat(43), 'forged session': 'portal_session=../../x; portal-idp.x=1', 'service token': '', 'machine client': '', 'forged key': '' }[r.who];
    const bearer = { 'machine client': machineKey, 'forged key': `pk_${'A'.repeat(43)}` }[r.who as string];
    const given = Object.fromEntries(Object.entries(r.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const headers: Record<string, string> = { ...given, ...r.site, ...(cookie ? { cookie } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(r.body.contentType ? { 'content-type': r.body.contentType } : {}) };
    sent++;
    const response = await t.app.inject({ method: r.op.method as 'GET', url, headers, ...(r.body.payload !== undefined ? { payload: r.body.payload } : {}) });
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    // A fuzzed logout or reset ends the applicant's session: sign in again so the rest is signed in.
    if (r.who === 'applicant' && response.statusCode === 401) {
      const login = await t.app.inject({ method: 'POST', url: '/public/login', payload: { username: applicantName, password: TEST_PASSWORD } });
      if (login.statusCode === 200) applicant = cookieHeader(login);
    }
    // The same for a staff member whose fuzzed sign-out ended their session.
    if ((r.who === 'admin' || r.who === 'reader') && response.statusCode === 401 && r.op.path.startsWith('/staff/api/')) {
      const fresh = await staffSignIn(t, staffAccounts[r.who]).catch(() => null);
      if (fresh && r.who === 'admin') admin = fresh;
      if (fresh && r.who === 'reader') reader = fresh;
    }
    return response;
  }

  /** Empty when the answer is in the contract; otherwise what is wrong with it. */
  function breaches(r: Sent, response: LightMyRequestResponse): string[] {
    const { statusCode } = response;
    if (statusCode >= 500) return [`${statusCode}: ${response.body.slice(0, 300)}`];
    const declared = operationObject(r.op).responses[String(statusCode)];
    if (!declared) return [`status ${statusCode} is not in the contract: ${response.body.slice(0, 200)}`];
    const isJson = /application\/json/.test(String(response.headers['content-type'] ?? ''));
    // A file (a PDF copy, an export's CSV or zip) is in the contract under its own media type.
    const declaredTypes = Object.keys((declared as { content?: Record<string, unknown> }).content ?? {});
    const answeredType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    // A redirect (the institution's sign-in) carries no body to check.
    if (!isJson) return statusCode === 204 || statusCode === 302 || declaredTypes.includes(answeredType) ? [] : [`status ${statusCode} answered ${response.headers['content-type']}, not JSON`];
    let json: unknown;
    try {
      json = response.json();
    } catch {
      return ['a JSON content type with a body that is not JSON'];
    }
    return validate(r.op.method, r.op.path, statusCode, json);
  }

  it('names the fields of a refused staff form as the contract says (`code_tables`, `rules.0.label`), not as the code calls them (issue 49, item 14)', async () => {
    const bad = [
      ['POST', '/staff/api/export-templates', { name: '', format: 'csv', columns: [], filter: { stages: [], terms: [], decisions: [], checklist: 'any' }, code_tables: { '': { a: 'b' } }, schedule: { every: 'never', hour_utc: 0 }, documents: false }],
      ['PUT', '/staff/api/export-templates/{template}', { name: 'Fuzz', format: 'csv', columns: [], filter: { stages: [], terms: [], decisions: [], checklist: 'any' }, code_tables: { ' ': {} }, schedule: { every: 'never', hour_utc: 0 }, documents: false }],
      ['PUT', '/staff/api/checklist-rules', { rules: [{ key: 'x', label: '', from: 'form', document_key: null, when: [] }] }],
      ['PUT', '/staff/api/composite-formula', { terms: [{ source: 'scale', name: 'Music', weight: 1 }] }],
    ] as const;
    for (const [method, path, payload] of bad) {
      const op = operations.find((each) => each.path === path && each.method.toLowerCase() === method.toLowerCase())!;
      expect(op, `${method} ${path}`).toBeDefined();
      const response = await t.app.inject({ method, url: path.replace('{template}', '1'), payload, headers: { cookie: admin, 'sec-fetch-site': 'same-origin' } });
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json().errors ?? {}).length, response.body).toBeGreaterThan(0);
      expect(breaches({ op, who: 'applicant', site: {}, key: '', query: {}, body: {} }, response), response.body).toEqual([]);
    }
  });

  it('answers a body key named like an Object member (constructor, toString, __proto__) with field errors, never a 500', async () => {
    // The fuzz's counterexample (seed -412468127): `constructor` crashed the field-error map.
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      for (const url of ['/api/validations', '/api/answer']) {
        const payload = `{"first_name":["Legal First Name"],"${key}":{"6":null}}`;
        const method = url === '/api/answer' ? 'PUT' : 'POST';
        const response = await t.app.inject({ method, url, headers: { cookie: applicant, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, payload });
        expect(response.statusCode, `${method} ${url} with ${key}: ${response.body}`).toBe(400);
        expect(breaches({ op: operations.find((op) => op.path === url && op.method.toLowerCase() === method.toLowerCase())!, who: 'applicant', site: {}, key: '', query: {}, body: {} }, response)).toEqual([]);
      }
    }
  });

  it('declares the 413 and 431 every operation can answer: a body over the limit, headers over the limit on a real socket', async () => {
    const wrong: string[] = [];
    const tooLarge = new Map<number, number>();
    // A body over the limit, from an applicant and from a visitor: whatever answers first (the
    // session check, the size check) is declared. GET and HEAD bodies are never read.
    for (const op of operations.filter((op) => op.method !== 'GET')) {
      for (const who of ['applicant', 'anonymous'] as const) {
        const r: Sent = { op, who, site: { 'sec-fetch-site': 'same-origin' }, key: 'additional_info_doc', query: {}, body: { contentType: 'application/json', payload: `{"x":"${'a'.repeat(BODY_LIMIT)}"}` } };
        const response = await send(r);
        tooLarge.set(response.statusCode, (tooLarge.get(response.statusCode) ?? 0) + 1);
        for (const breach of breaches(r, response)) wrong.push(`${op.method} ${op.path} as ${who}, body over the limit: ${breach}`);
      }
    }
    // Node's HTTP parser answers 431 before Fastify sees the request: only a socket shows it.
    const origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    for (const op of operations) {
      const response = await fetch(origin + op.path.replace(/\{[^}]+\}/g, 'x'), { method: op.method, headers: { 'x-padding': 'a'.repeat(20_000) } });
      const body = await response.text();
      if (response.status !== 431) wrong.push(`${op.method} ${op.path}, headers over the limit: answered ${response.status}, not 431`);
      else if (!operationObject(op).responses['431']) wrong.push(`${op.method} ${op.path}: 431 is not in the contract`);
      // The body is the contract's Error (before: Fastify's own {error, message, statusCode}, declared nowhere).
      else if (!response.headers.get('content-type')?.startsWith('application/json') || JSON.stringify(Object.keys(JSON.parse(body) as object)) !== '["message"]') wrong.push(`${op.method} ${op.path}: the 431's body is not the contract's Error: ${body}`);
    }
    expect(wrong).toEqual([]);
    // The size check is reached, not only declared: every write outside /staff/api/ and
    // /machine/api/ (where a missing staff session or key answers 401 first) is answered 413 for
    // one of the two senders at least.
    const reachable = operations.filter((op) => op.method !== 'GET' && !op.path.startsWith('/staff/api/') && !op.path.startsWith('/machine/api/'));
    expect(tooLarge.get(413) ?? 0).toBeGreaterThanOrEqual(reachable.length);
  });

  it(`answers every operation within the contract and never with a 5xx, over ${GENERATED}+ generated requests`, async () => {
    const before = await victimData();

    // Fixed edge cases first: every operation with each body kind a browser or a script could send.
    const fixed: string[] = [];
    for (const op of operations) {
      for (const contentType of [undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        for (const payload of [undefined, '', '{"x":"\u0000"}', '{"x":"\\ud800"}', 'a=1&b=%00']) {
          const r = { op, who: 'applicant' as Who, site: {}, key: 'additional_info_doc', query: {}, rawQuery: undefined, body: { contentType, payload } };
          const response = await send(r);
          for (const wrong of breaches(r, response)) fixed.push(`${op.method} ${op.path} ${contentType} ${JSON.stringify(payload)}: ${wrong}`);
        }
      }
    }
    expect(fixed).toEqual([]);

    const fixedSent = sent;
    const reached = new Map<string, number>();
    // Each operation its share of the set: drawn at random, a new operation could be left with one or two.
    const perOperation = Math.ceil(GENERATED / operations.length);
    for (const [index, op] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(request(op), async (parts) => {
          const r = { op, ...parts };
          for (const part of [op.operationId, r.who]) reached.set(part, (reached.get(part) ?? 0) + 1);
          const response = await send(r);
          const wrong = breaches(r, response);
          if (wrong.length) throw new Error(`${op.method} ${op.path} as ${r.who}: ${wrong.join('; ')}`);
        }),
        // A seed of its own per operation: with one seed for all, every operation drew the same
        // callers in the same order, and a caller late in that order reached none.
        { numRuns: perOperation, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED + index }) },
      );
    }

    expect(await victimData()).toEqual(before);
    // The generated set reached every operation and every kind of caller, several times over.
    for (const part of [...operations.map((op) => op.operationId), 'anonymous', 'applicant', 'dead session', 'forged session', 'service token', 'machine client', 'forged key', 'admin', 'reader']) {
      expect(reached.get(part) ?? 0, part).toBeGreaterThanOrEqual(5);
    }
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
    console.log(`contract fuzz: ${sent} requests (${fixedSent} fixed, ${sent - fixedSent} generated${SEED === undefined ? '' : `, seed ${SEED}`}) over ${operations.length} operations, 0 outside the contract, 0 5xx (${summary})`);
    expect(sent - fixedSent).toBeGreaterThanOrEqual(GENERATED);
  }, 900_000);
});
