import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INACTIVITY_TIMEOUT_MS, SESSION_GRACE_MS } from '../domain/config';
import { clock, TEST_CLOCK_HEADER } from './infra/clock';
import { loadContract, operationsOf } from './http/contract';
import { exampleRequest } from './testing/contractExamples';
import { signedInCookie, testApp, type TestApp } from './testing/app';

const contract = loadContract();
const operations = operationsOf(contract);

let t: TestApp;
let app: FastifyInstance;
let cookie: string;

beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
  // One sign-in per operation below, all from one address: more than the client's limit of sign-ins in 15 minutes.
  t = await testApp({ clientDir, env: { RATE_LIMIT_SCALE: '10' } });
  app = t.app;
  cookie = await signedInCookie(t);
});
afterAll(async () => t?.close());

describe('routes from the contract', () => {
  it('lists the calls of both spec documents', () => {
    const ids = operations.map((op) => op.operationId);
    for (const id of [
      'login', 'signup', 'confirm', 'resendConfirm', 'forgotPassword', 'resetPassword', 'logout',
      'getProfile', 'postWebStatus', 'putLastPage', 'getAnonymousAnswers', 'getServiceView', 'getPdfCopy',
      'putAnswer', 'postValidations', 'submitApplication', 'getTabs', 'putTab', 'getAddAnother',
      'putAddAnother', 'getDocumentAnswers', 'deleteDocumentAnswer', 'createPresignedUpload',
      'uploadDocument', 'startDocumentConversion', 'getDocumentConversion', 'deleteDocumentConversion',
      'lookupFind',
    ]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(operations)('$operationId ($method $path) has a handler: its example request is not answered 501', async ({ method, path: route }) => {
    // A session of its own: the examples include logout, which must not end the other tests' session.
    const response = await app.inject({ ...exampleRequest(contract, method, route), headers: { cookie: await signedInCookie(t) } });
    expect(response.statusCode).not.toBe(501);
  });
});

describe('bad input', () => {
  it('answers 400 with the Error shape and the field names', async () => {
    const response = await app.inject({ method: 'POST', url: '/public/login', payload: { username: 'a@b.c' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request is invalid. Please check the highlighted fields.',
      errors: { password: ['This field is required.'] },
    });
  });

  it('names an enum that does not match', async () => {
    const response = await app.inject({ method: 'GET', url: '/lookup/find?category=planets&text=x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.category).toEqual(['This field must be one of: hs_ceeb, college_ceeb, address, name.']);
  });

  it('refuses a body that is not JSON with a JSON answer', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/public/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('accepts a POST without a body that still says it is JSON', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/keep-alive', headers: { 'content-type': 'application/json', cookie } });
    expect(response.statusCode).toBe(200);
  });

  it('refuses JSON that tries to set __proto__', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: '/api/answer',
      headers: { 'content-type': 'application/json', cookie },
      payload: '{"first_name":"x","__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a body that is too large with 413', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: '/api/answer',
      headers: { 'content-type': 'application/json', cookie },
      payload: JSON.stringify({ essay: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request is too large.' });
  });
});

describe('the contract declares what every edge check sends', () => {
  type Op = { requestBody?: unknown; parameters?: unknown[]; responses?: Record<string, unknown> };
  const entries = Object.entries(contract.paths).flatMap(([route, item]) =>
    Object.entries(item as Record<string, Op>).map(([method, op]) => ({ route, method: method.toUpperCase(), op })),
  );

  it.each(entries.map((e) => [`${e.method} ${e.route}`, e] as const))('%s', (_name, { method, op }) => {
    const codes = Object.keys(op.responses ?? {});
    // The cross-site check (403) on every state-changing call, which any client can also send a
    // body that is not JSON (415) or not valid (400); a NUL or broken character (400) wherever a parameter is taken.
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) expect(codes).toEqual(expect.arrayContaining(['400', '403', '415']));
    if (op.parameters?.length) expect(codes).toContain('400');
  });
});

describe('health and the client', () => {
  it('GET /healthz answers ok when the database responds', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', renderer: 'ok', storage: 'ok' });
  });

  it('GET /healthz says degraded, naming the renderer, when Chromium is not where CHROMIUM_PATH says', async () => {
    const broken = await testApp({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
    const response = await broken.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'degraded', database: 'ok', renderer: 'missing', storage: 'ok' });
    await broken.close();
  });

  it.each(['/about', '/login', '/some/unknown/path?token=abc'])('serves the client for %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('<div id="root">');
  });

  it('answers unknown API paths with a JSON 404, not the client', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'We could not find that.' });
  });
});

describe("the client's files", () => {
  it('are sent pre-compressed to browsers that take brotli or gzip; hashed assets kept a year, the page checked each time', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-built-'));
    mkdirSync(path.join(dir, 'assets'));
    const code = 'export const answer = 42;\n'.repeat(200);
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), code);
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(code));
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(code));
    const built = await testApp({ clientDir: dir });
    const get = (url: string, encoding?: string) => built.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

    const br = await get('/assets/index-abc123.js', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(code);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(code);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(code);
    for (const url of ['/index.html', '/about']) expect((await get(url, 'br'))).toMatchObject({ headers: { 'cache-control': 'no-cache' } });
    await built.close();
  });
});

describe('a form page of the client', () => {
  it("announces the form's chunks and styles with the page, never a call (a session may have ended); other pages as built", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-built-'));
    mkdirSync(path.join(dir, '.vite'));
    const built = '<!doctype html><html><head><title>Portal</title><script type="module" src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
    writeFileSync(path.join(dir, 'index.html'), built);
    writeFileSync(
      path.join(dir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_client-1.js'] },
        '_client-1.js': { file: 'assets/client-1.js' },
        '_shared-1.js': { file: 'assets/shared-1.js', imports: ['_client-1.js', 'index.html'] },
        'src/app/FormOrPrintRoot.tsx': { file: 'assets/FormOrPrintRoot-1.js', isDynamicEntry: true, imports: ['index.html', '_shared-1.js'], css: ['assets/FormOrPrintRoot-1.css'] },
        'src/features/application/FormPage.tsx': { file: 'assets/FormPage-1.js', isDynamicEntry: true, imports: ['_shared-1.js'] },
        'src/features/application/CompletionPage.tsx': { file: 'assets/CompletionPage-1.js', isDynamicEntry: true },
      }),
    );
    const withClient = await testApp({ clientDir: dir });
    const session = await signedInCookie(withClient);
    const page = async (url: string, cookie?: string) => {
      const response = await withClient.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      expect(response.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      return response.body;
    };
    const modules = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]).sort();

    const visitor = await page('/about');
    expect(modules(visitor)).toEqual(['/assets/FormOrPrintRoot-1.js', '/assets/FormPage-1.js', '/assets/shared-1.js']);
    expect(visitor).toContain('<link rel="preload" as="style" crossorigin href="/assets/FormOrPrintRoot-1.css">');
    expect(await page('/Education/', session)).toBe(visitor);
    expect(await page('/', session)).toBe(visitor);
    expect(visitor).not.toContain('/api/');
    // The sign-in screens carry none of the form.
    for (const url of ['/login', '/signup?x=1', '/completion']) expect(await page(url, session)).toBe(built);
    await withClient.close();
  });
});

describe('a sign-in screen rendered ahead by the build', () => {
  it('is sent for its exact path; another spelling, and every other page, as before', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-built-'));
    mkdirSync(path.join(dir, 'prerendered'));
    const built = '<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div></body></html>';
    const login = built.replace('<div id="root"></div>', '<div id="root" data-prerendered="/login"><h1>Sign In</h1></div>');
    writeFileSync(path.join(dir, 'index.html'), built);
    writeFileSync(path.join(dir, 'prerendered', 'login.html'), login);
    writeFileSync(path.join(dir, 'prerendered', 'pages.json'), JSON.stringify({ '/login': 'login.html' }));
    const withClient = await testApp({ clientDir: dir });
    const page = async (url: string) => {
      const response = await withClient.app.inject({ method: 'GET', url });
      expect(response.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      return response.body;
    };
    expect(await page('/login')).toBe(login);
    expect(await page('/login?x=1')).toBe(login);
    // The app redirects these to /login itself (a screen drawn for /login would not be its first render).
    for (const url of ['/LOGIN', '/login/', '/signup', '/about']) expect(await page(url)).toBe(built);
    await withClient.close();
  });
});

describe('errors the page reports', () => {
  it('are logged with what the page sent, and limited per address', async () => {
    const logged = vi.spyOn(app.log, 'error');
    const report = { message: "Cannot read properties of undefined (reading 'answer')", stack: 'at FormPage', path: '/education' };
    const first = await app.inject({ method: 'POST', url: '/public/client-errors', payload: report, remoteAddress: '203.0.113.9' });
    expect(first.statusCode).toBe(202);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ clientError: expect.objectContaining(report) }), 'error reported by the page');
    let last = first;
    // The limit times this app's RATE_LIMIT_SCALE (10), then refused.
    for (let i = 0; i < 300 && last.statusCode === 202; i++) {
      last = await app.inject({ method: 'POST', url: '/public/client-errors', payload: report, remoteAddress: '203.0.113.9' });
    }
    expect(last.statusCode).toBe(429);
    const tooLong = await app.inject({ method: 'POST', url: '/public/client-errors', payload: { message: 'x'.repeat(2001), path: '/' } });
    expect(tooLong.statusCode).toBe(400);
    logged.mockRestore();
  });
});

describe("the server's session clock", () => {
  it('keeps an idle session through the 15 minutes of the page and its grace, and ends it after', async () => {
    const session = await signedInCookie(t);
    let moved = 0;
    const advance = (ms: number) => {
      moved += ms;
      return app.inject({ method: 'POST', url: '/dev/clock', payload: { advance_ms: ms } });
    };
    try {
      expect((await advance(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS - 1_000)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: session } })).statusCode).toBe(200);
      expect((await advance(INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS + 1_000)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: session } })).statusCode).toBe(401);
    } finally {
      // Put back: the suites after this one in its worker share the clock.
      clock.advance(-moved);
    }
    cookie = await signedInCookie(t); // the shared session of this file ended with the clock's move
  });

  it('moves only the clock a request names (X-Test-Clock), so browser tests side by side keep their own time', async () => {
    const on = (name: string) => ({ [TEST_CLOCK_HEADER]: name });
    // Three sessions made before any clock moves: on clock a, on clock b, and on the shared clock.
    // A named clock starts at the real time (not the shared clock's, which the test above moved).
    const [onA, onB, shared] = [await signedInCookie(t, undefined, on('test-a')), await signedInCookie(t, undefined, on('test-b')), await signedInCookie(t)];
    const moved = await app.inject({ method: 'POST', url: '/dev/clock', headers: on('test-a'), payload: { advance_ms: INACTIVITY_TIMEOUT_MS + SESSION_GRACE_MS + 1_000 } });
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json<{ now: string }>().now) - Date.now()).toBeGreaterThan(INACTIVITY_TIMEOUT_MS);
    const profile = (cookie: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/api/profile', headers: { cookie, ...headers } });
    expect((await profile(onA, on('test-a'))).statusCode).toBe(401);
    expect((await profile(onB, on('test-b'))).statusCode).toBe(200);
    expect((await profile(shared)).statusCode).toBe(200);
  });
});
