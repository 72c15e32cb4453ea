import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../infra/signIn';
import { readableLogs } from '../app';
import { signedInCookie, testApp, type TestApp } from '../testing/app';
import { confirmationCodeMail } from '../accounts/mails';
import { redactUrl } from './security';
import { CALL_HEADERS, CROSS_SITE_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from './security';

function clientDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
  writeFileSync(path.join(dir, 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'app.js.map'), '{"sources":["secret.ts"]}');
  return dir;
}

describe('headers and cross-site requests', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await testApp({ clientDir: clientDir() });
    cookie = await signedInCookie(t);
  });
  afterAll(async () => t?.close());

  it('every answer carries the security headers; applicant data is never cached; no HSTS on a loopback address', async () => {
    for (const [url, headers] of [
      ['/about', {}],
      ['/api/profile', { cookie }],
      ['/public/tmp?token=xxxxxxxxxxxxxxxxxxxx', {}],
      ['/healthz', {}],
      // Refused by the router itself (a path part over 100 characters), before any hook.
      [`/api/pdf/document-answer/${'x'.repeat(150)}`, { cookie }],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['permissions-policy']).toContain('camera=()');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    const profile = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(profile.headers['cache-control']).toBe('no-store');
  });

  it("a call's answer carries the call headers only, a page helmet's document headers too; a call's own Cache-Control stands", async () => {
    const call = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(Object.fromEntries(Object.keys(CALL_HEADERS).map((name) => [name, call.headers[name]]))).toEqual(CALL_HEADERS);
    expect(call.headers['x-dns-prefetch-control']).toBeUndefined();
    expect(call.headers['origin-agent-cluster']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/about' });
    expect(page.headers['x-dns-prefetch-control']).toBe('off');
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(String(page.headers['content-security-policy'])).toContain("style-src 'self'");
    expect(page.headers['cache-control']).not.toBe('no-store');
    // The lists are the same for everyone: the lookup's own header is sent, not the call's.
    const lookup = await t.app.inject({ method: 'GET', url: '/lookup/find?category=hs_ceeb&text=x' });
    expect(lookup.headers['cache-control']).toBe('public, max-age=300');
  });

  it('a state-changing call from another site or origin is refused and changes nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json().answer;
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'http://apply.example.edu.evil.example' },
    ]) {
      const response = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Forged' }, headers: { ...headers, cookie } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: CROSS_SITE_MESSAGE });
      const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { ...headers, cookie } });
      expect(out.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).json().answer).toEqual(before);
    // The page itself (same origin) goes through.
    const own = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Own' }, headers: { 'sec-fetch-site': 'same-origin', cookie } });
    expect(own.statusCode).toBe(200);
  });

  it('a GET cannot sign anyone out, and a form-encoded post is refused before any handler', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode).toBe(200);
    const form = await t.app.inject({ method: 'POST', url: '/api/submit', payload: 'a=1', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    // Multipart is read by the upload alone.
    const multipart = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: '--x\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nA\r\n--x--\r\n', headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' } });
    expect([multipart.statusCode, multipart.json()]).toEqual([415, { message: 'The request must be sent as JSON.' }]);
    // A type the contract only answers with (a PDF, a CSV) is refused as a body as any other is.
    for (const type of ['application/pdf', 'text/csv', 'image/gif']) {
      const other = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: '%PDF-1.4', headers: { cookie, 'content-type': type } });
      expect([type, other.statusCode, other.json()]).toEqual([type, 415, { message: 'The request must be sent as JSON.' }]);
    }
    // A call that takes a body and got none is told so; one that takes none goes through without.
    const empty = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: '', headers: { cookie, 'content-type': 'application/json' } });
    expect([empty.statusCode, empty.json()]).toEqual([400, { message: 'The request has no body: send its fields as JSON.' }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/keep-alive', payload: '', headers: { cookie, 'content-type': 'application/json' } })).statusCode).toBe(200);
  });
});

describe('in production behind https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({
      clientDir: clientDir(),
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://apply.example.edu', SESSION_SECRET: 'x'.repeat(64), SMTP_URL: 'smtp://127.0.0.1:2525' },
    });
  });
  afterAll(async () => t?.close());

  it('sends HSTS and serves no source map', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/about' });
    expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
    expect((await t.app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/app.js.map' })).body).not.toContain('secret.ts');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).headers['strict-transport-security']).toContain('max-age=31536000');
  });
});

describe('the request log', () => {
  it.each([
    ['production', 1],
    ['development', 0],
  ] as const)('in %s holds %i info line(s) per request, without its tokens', async (nodeEnv, lines) => {
    const written: Record<string, unknown>[] = [];
    // Development is refused on an https address of another machine (its outbox shows every link).
    const env = { NODE_ENV: nodeEnv, SESSION_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: nodeEnv === 'production' ? 'https://apply.example.edu' : 'http://localhost:3000' };
    const logged = await testApp({ env, logger: { stream: { write: (line) => void written.push(JSON.parse(line)) } } });
    await logged.app.inject({ method: 'GET', url: '/public/tmp?token=s3cr3t-restore-token' });
    await logged.app.close();
    const requests = written.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(lines);
    if (lines) expect(requests[0]).toMatchObject({ level: 30, method: 'GET', url: '/public/tmp?token=REDACTED', status: expect.any(Number) });
    expect(JSON.stringify(written)).not.toContain('s3cr3t-restore-token');
    expect(written.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toEqual([]);
    // Nothing at start a newcomer reads as a fault (five "ContentTypeParser … not found" warnings were).
    expect(written.filter((line) => (line.level as number) >= 40)).toEqual([]);
    await logged.database.dispose();
  });
});

describe('the log a developer reads', () => {
  it.each([
    ['development', true, 'pino-pretty'],
    ['development', false, undefined],
    ['production', true, undefined],
    ['test', true, undefined],
  ] as const)('in %s at a terminal (%s): lines by %s, else JSON', (nodeEnv, terminal, target) => {
    expect(readableLogs(nodeEnv, terminal).transport?.target).toBe(target && import.meta.resolve(target));
  });
});

describe('what the logs and mail subjects may hold', () => {
  it('request lines lose the value of every bearer parameter', () => {
    expect(redactUrl('/about?service_token=s3rv1ceT0ken&x=1')).toBe('/about?service_token=REDACTED&x=1');
    expect(redactUrl('/public/tmp?token=abc')).toBe('/public/tmp?token=REDACTED');
    expect(redactUrl('/reset?username=a%40b.co&id=secret')).toBe('/reset?username=a%40b.co&id=REDACTED');
    expect(redactUrl('/api/profile')).toBe('/api/profile');
  });

  it('a confirmation code is never in the subject', () => {
    const mail = confirmationCodeMail('a@example.com', '482913');
    expect(mail.subject).not.toContain('482913');
    expect(mail.text).toContain('482913');
  });
});

describe('text no database can keep', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it('a NUL or a lone surrogate anywhere is refused with 400 at the edge, signed in or not', async () => {
    const cookie = await signedInCookie(t);
    const cases = [
      { method: 'POST', url: '/public/signup', payload: '{"username":"a\\u0000@example.com","password":"Correct-Horse-42!"}' },
      { method: 'POST', url: '/public/tmp', payload: '{"answer":{"first_name":"\\ud800"}}' },
      { method: 'GET', url: '/lookup/find?text=%00' },
      { method: 'PUT', url: '/api/answer', payload: '{"first_name":"Jo\\u0000rdan"}', headers: { cookie } },
      // Upper-case hex, in a key: the JSON text is looked at before the parsed body is walked.
      { method: 'PUT', url: '/api/answer', payload: '{"first_name":"Jo","x\\uDC00":"y"}', headers: { cookie } },
    ] as const;
    for (const { method, url, ...rest } of cases) {
      const payload = 'payload' in rest ? rest.payload : undefined;
      const headers = { 'content-type': 'application/json', ...('headers' in rest ? rest.headers : {}) };
      const response = await t.app.inject({ method, url, payload, headers });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ message: UNSTORABLE_TEXT_MESSAGE });
    }
    // A real pair (an emoji) is text like any other.
    const emoji = await t.app.inject({ method: 'PUT', url: '/api/answer', payload: { first_name: 'Jo 🎓' }, headers: { cookie } });
    expect(emoji.statusCode).toBe(200);
  });
});

describe('behind a proxy', () => {
  it('with TRUST_PROXY the client address for rate limits comes from X-Forwarded-For, without it never', async () => {
    // The per-client limit scaled down to a twentieth (5 sign-ins): the limit itself is
    // rateLimit.test.ts's and accounts.test.ts's to prove; here, whose address it counts.
    const scale = 0.05;
    const limit = Math.ceil(LOGIN_LIMITS.client.max * scale);
    for (const [trust, separate] of [
      ['1', true],
      ['false', false],
    ] as const) {
      const t = await testApp({ env: { TRUST_PROXY: trust, RATE_LIMIT_SCALE: String(scale) } });
      let n = 0;
      const login = (forwardedFor: string) =>
        t.app.inject({
          method: 'POST',
          url: '/public/login',
          // A new address each time: only the per-client limit can apply.
          payload: { username: `someone-${n++}@example.com`, password: 'Wrong-Password-1!' },
          headers: { 'x-forwarded-for': forwardedFor },
          remoteAddress: '10.0.0.1',
        });
      for (let i = 0; i < limit; i++) expect((await login('198.51.100.7')).statusCode).toBe(400);
      expect((await login('198.51.100.7')).statusCode).toBe(429);
      // Another client behind the same proxy has its own budget only when the proxy's word is taken.
      expect((await login('203.0.113.9')).statusCode === 429).toBe(!separate);
      await t.close();
    }
  });
});
