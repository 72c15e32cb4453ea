import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, webStatusEvents } from '../infra/schema';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { createMetrics } from '../infra/metrics';
import { SERVER_RENDER_DIR } from './signedInPage';

/**
 * The server's part of a signed-in page drawn per request, with a stand-in for the build of
 * src/serverRender.tsx that shows what it was given (e2e/drawn.spec.ts runs the real build).
 */
const HOLD_CODE = '(function(w){w.portalHeld=[]})(window);';
const HOLD = `<script data-hold>${HOLD_CODE}</script>`;
const built = '<!doctype html><html><head><title>Portal</title>\n<script type="module" src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
const standIn = `
let prepared = false;
export async function prepare() { prepared = true; }
export function renderSignedIn(url, cookies, data) {
  if (data.profile.answer.first_name === 'Throw') throw new Error('a stand-in failure');
  return '<main><h1>About You</h1><p id="drawn-for">' + url + ' ' + data.profile.username + ' ' + cookies.includes('portal-idp.') + ' ' + prepared + '</p></main>';
}`;

const SESSION_BURST = 10;
let t: TestApp;
let session: string;
/** The app's metrics: drawn pages served and refused (issue 33). */
const metrics = createMetrics({ executeSql: async () => ({ rows: [] }), poolStats: () => ({ total: 1, idle: 1, waiting: 0 }) });
const drawnCount = async (outcome: string) => (await metrics.registry.getSingleMetric('portal_drawn_pages_total')!.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
const username = `drawn-${Date.now()}@example.com`;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-built-'));
  mkdirSync(path.join(dir, 'prerendered'));
  mkdirSync(path.join(dir, SERVER_RENDER_DIR));
  writeFileSync(path.join(dir, 'index.html'), built);
  writeFileSync(path.join(dir, 'prerendered', 'login.html'), built.replace('</title>\n', `</title>\n    ${HOLD}\n`));
  writeFileSync(path.join(dir, 'prerendered', 'pages.json'), JSON.stringify({ '/login': 'login.html' }));
  writeFileSync(path.join(dir, SERVER_RENDER_DIR, 'serverRender.js'), standIn);
  // A session's draws refill once in ~17 minutes: counted here without a clock, however slow the
  // machine; ten at once, so that the other tests' pages are refused only for their own reasons.
  // (Past it, a page waits 250 ms: not here, where only the page matters.)
  t = await testApp({ clientDir: dir, drawLimits: { sessionPerSecond: 0.001, sessionBurst: SESSION_BURST, overRatePauseMs: 0 }, metrics });
  session = await signedInCookie(t, username);
});
afterAll(async () => t?.close());

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="portal-page-data">(.*?)<\/script>/.exec(html)![1]!) as { profile: { answer: Record<string, string> } };

describe('a signed-in form page drawn by the server', () => {
  it('is drawn for its applicant with the data it was drawn from, titled, holding presses, and never stored', async () => {
    const injection = '</script><script>alert(1)</script><!--';
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', headers: { cookie: session }, payload: { first_name: injection } })).statusCode).toBe(200);

    const response = await get('/about?from=mail', session);
    expect(response.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-store' });
    const html = response.body;
    expect(html).toContain(`<div id="root" data-drawn="/about"><main><h1>About You</h1><p id="drawn-for">/about?from=mail ${username} true true</p></main></div>`);
    expect(html).toContain('<title>About You | Northfield University Undergraduate Application</title>');
    expect(html).toContain(HOLD);
    // The holding script is in the page, allowed by its hash and by nothing that would let another run.
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(HOLD_CODE).digest('base64')}'`);
    expect(csp).not.toContain('unsafe-inline');
    // The answers are data in the page, never markup: no `<` ends the script or opens a comment.
    expect(html).not.toContain(injection);
    const data = dataOf(html);
    expect(data.profile.answer.first_name).toBe(injection);
    expect(Object.keys(data).sort()).toEqual(['addAnother', 'profile', 'tabs']);
  });

  it('is sent compressed to a browser that takes it (brotli, else gzip), as it is to one that does not (issue 33)', async () => {
    const plain = await get('/about', session);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const brotli = await t.app.inject({ method: 'GET', url: '/about', headers: { cookie: session, 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    const gzipped = await t.app.inject({ method: 'GET', url: '/about', headers: { cookie: session, 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
    // A page built ahead (not drawn) too.
    const built = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(built.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(built.rawPayload).toString()).toContain(HOLD);
  });

  it('is not drawn without a session that holds, for another path or spelling, or for the print view', async () => {
    const asBuilt = async (url: string, cookie?: string) => {
      const response = await get(url, cookie);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).not.toContain('data-drawn');
      return response.body;
    };
    await asBuilt('/about');
    await asBuilt('/about', 'portal-idp.session=1; portal_session=forged');
    await asBuilt('/About', session);
    await asBuilt('/', session);
    await asBuilt('/completion', session);
    await asBuilt('/about?service_token=abc', session);
    expect(await asBuilt('/login', session)).toContain(HOLD);
  });

  it('is not drawn where the app goes elsewhere first: a last page to go back to, a submitted application', async () => {
    expect((await t.app.inject({ method: 'PUT', url: '/api/last-page', headers: { cookie: session }, payload: { last_page: '/education' } })).statusCode).toBe(200);
    expect((await get('/about', session)).body).not.toContain('data-drawn');
    expect((await get('/education', session)).body).toContain('data-drawn="/education"');

    const [user] = await t.database.db.select().from(users).where(eq(users.username, username));
    await t.database.db.insert(webStatusEvents).values({ userId: user!.id, webStatus: 'submitted' });
    expect((await get('/education', session)).body).not.toContain('data-drawn');
  });

  it('draws a session reloading again and again its first pages, then sends them as built; another applicant is still drawn (issue 29, item 1)', async () => {
    const reloading = await signedInCookie(t);
    const drawn: boolean[] = [];
    const [served, refused] = [await drawnCount('served'), await drawnCount('refused')];
    for (let i = 0; i <= SESSION_BURST; i++) drawn.push((await get('/about', reloading)).body.includes('data-drawn="/about"'));
    // Past its ten at once: the next goes as built, still the page.
    expect(drawn).toEqual([...Array<boolean>(SESSION_BURST).fill(true), false]);
    // What an operator sees of it.
    expect([(await drawnCount('served')) - served, (await drawnCount('refused')) - refused]).toEqual([SESSION_BURST, 1]);
    const other = await signedInCookie(t);
    expect((await get('/about', other)).body).toContain('data-drawn="/about"');
  });

  it('sends the page as built when drawing it fails, and draws the next', async () => {
    const failing = await signedInCookie(t);
    expect((await t.app.inject({ method: 'PUT', url: '/api/answer', headers: { cookie: failing }, payload: { first_name: 'Throw' } })).statusCode).toBe(200);
    const response = await get('/about', failing);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect((await get('/about', session)).statusCode).toBe(200);
    expect((await get('/about', await signedInCookie(t))).body).toContain('data-drawn="/about"');
  });

  it("keeps the server's build from browsers", async () => {
    const response = await get(`/${SERVER_RENDER_DIR}/serverRender.js`);
    expect(response.body).not.toContain('renderSignedIn');
  });
});
