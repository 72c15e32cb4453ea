import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page, type Request, type Response } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { confirmedAccount, PASSWORD, savedAnswers, uniqueEmail } from './support/accounts';
import { SECOND_ADMIN_EMAIL, SECOND_ADMIN_LINK_FILE, STAFF_PASSWORD } from './support/staff';

/**
 * Issue 13, the CSRF/headers suite: pages of another site and of the same site (another port of
 * the same host: schemeful same-site, so the session cookie goes along) post forms, send text/plain
 * fetches, navigate to calls and frame the portal. None of it changes anything, and every answer
 * of the portal carries its security headers. A real browser: only a browser decides which cookies
 * go with another page's request; the real server: its answers and headers.
 */

const MARKER = 'Kept-By-Owner';
const ATTACKERS = ['another site', 'the same site (another port)'] as const;
type Attacker = (typeof ATTACKERS)[number];

/**
 * The same site's page comes from a server of this worker on 127.0.0.1 (another port): a page
 * Playwright fulfils has no address, and Chromium keeps such a page from reaching a loopback one,
 * so its requests would never reach the portal. Another site's page (no network serves it) is
 * fulfilled by `page.route`: the portal refuses what it sends before any loopback rule matters.
 */
let sameSiteHtml = '';
let sameSite: Promise<string> | null = null;
function sameSiteOrigin(): Promise<string> {
  sameSite ??= new Promise((resolve) => {
    const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(sameSiteHtml));
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    server.unref();
  });
  return sameSite;
}

/** A signed-in applicant with a saved answer, in this page's browser context. */
async function signedInApplicant(page: Page) {
  const email = uniqueEmail('csrf');
  await confirmedAccount(page.request, email);
  expect((await page.request.post('/public/login', { data: { username: email, password: PASSWORD } })).ok()).toBe(true);
  expect((await page.request.put('/api/answer', { data: { first_name: MARKER } })).ok()).toBe(true);
}

/** Serves `html` as the attacker's page and opens it. */
async function openAttackerPage(page: Page, who: Attacker, html: string) {
  const body = `<!doctype html><html><body>${html}</body></html>`;
  if (who === 'the same site (another port)') {
    sameSiteHtml = body;
    await page.goto(`${await sameSiteOrigin()}/attack`);
    return;
  }
  await page.route('http://attacker.example/**', (route) => route.fulfill({ contentType: 'text/html', body }));
  await page.goto('http://attacker.example/attack');
}

test.describe('requests from other pages change nothing', () => {
  for (const who of ATTACKERS) {
    test(`from ${who}: form posts, text/plain fetches and navigations are refused, and the session and answers stay`, async ({ page, baseURL }) => {
      await signedInApplicant(page);
      // Plain HTML forms (no script needed), each aimed at a call that changes something.
      for (const [path, body] of [
        ['/api/submit', ''],
        ['/api/logout', ''],
        ['/api/web-status', '{"web_status":"SUBMITTED"}'],
        ['/public/tmp', '{"answer":{"first_name":"Forged"}}'],
      ] as const) {
        const answer = page.waitForResponse((r) => r.url() === `${baseURL}${path}`);
        await openAttackerPage(
          page,
          who,
          `<form method="post" enctype="text/plain" action="${baseURL}${path}"><input name='${body.slice(0, -2)}' value='${body.slice(-2)}'></form>` +
            '<script>document.forms[0].submit()</script>',
        );
        const response = await answer;
        expect(response.status(), `${who} form post to ${path}`).toBe(403);
      }

      // Fetches a page may send anywhere without asking first: text/plain POSTs with the cookies.
      // They reach the server (which refuses them); the page reads nothing back either way.
      const sentFetches: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(baseURL!) && request.resourceType() === 'fetch') sentFetches.push(new URL(request.url()).pathname);
      });
      await openAttackerPage(page, who, '<p>attacker</p>');
      const read = await page.evaluate(async (base) => {
        const out: string[] = [];
        for (const path of ['/api/submit', '/api/logout', '/api/validations']) {
          const sent = fetch(base + path, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}' });
          // Opaque (status 0) or refused outright by the browser (Cross-Origin-Resource-Policy).
          out.push(await sent.then((response) => String(response.status), () => 'blocked'));
        }
        return out;
      }, baseURL!);
      expect(read.every((outcome) => outcome === '0' || outcome === 'blocked')).toBe(true);
      expect(sentFetches).toEqual(['/api/submit', '/api/logout', '/api/validations']);

      // A top-level navigation to a call: logging out takes a POST, so a link cannot do it.
      await page.goto(`${baseURL}/api/logout`);

      // The portal in a frame of the attacker's page: the browser asks for it and refuses to show
      // it (frame-ancestors 'none', X-Frame-Options DENY), leaving its error page in the frame.
      const framed = page.waitForRequest((r) => r.url() === `${baseURL}/about`);
      await openAttackerPage(page, who, `<iframe title="portal" src="${baseURL}/about" width="600" height="400"></iframe>`);
      await framed;
      const frame = await (await page.locator('iframe[title="portal"]').elementHandle())!.contentFrame();
      await expect.poll(() => frame!.url()).toMatch(/^chrome-error:/);

      // Still signed in, nothing submitted, the answer as it was.
      const profile = await page.request.get('/api/profile');
      expect(profile.status()).toBe(200);
      const body = (await profile.json()) as { web_status: string[] };
      expect(body.web_status).not.toContain('SUBMITTED');
      expect((await savedAnswers(page.request)).first_name).toBe(MARKER);
    });
  }
});

test('from the same site (another port): images and a prefetch aimed at the staff console write nothing to the audit log and run no export', async ({ page, baseURL }) => {
  // A real browser: only a browser decides that a same-site <img> or prefetch carries the
  // SameSite=Strict staff cookie (issue 29, item 3). The second admin's link comes from the command
  // line before the server starts (playwright.config.ts).
  const token = new URL(readFileSync(SECOND_ADMIN_LINK_FILE, 'utf8').trim().split('\n')[0]!).searchParams.get('token')!;
  const secret = (await (await page.request.get(`/staff/public/setup?token=${token}`)).json()).totp_secret as string;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const setUp = await page.request.post('/staff/public/setup', { data: { token, password: STAFF_PASSWORD, code } });
  expect(setUp.status(), await setUp.text()).toBe(200);
  const recovery = ((await setUp.json()) as { recovery_codes: string[] }).recovery_codes[0]!;
  expect((await page.request.post('/staff/public/login', { data: { email: SECOND_ADMIN_EMAIL, password: STAFF_PASSWORD, code: recovery } })).status()).toBe(200);
  await signedInApplicant(page);
  const applications = await (await page.request.get('/staff/api/applications?page_size=1')).json();
  const id = (applications as { items: { id: string }[] }).items[0]!.id;
  const entries = async () => ((await (await page.request.get(`/staff/api/audit?staff=${encodeURIComponent(SECOND_ADMIN_EMAIL)}`)).json()) as { items: { action: string }[] }).items.map((i) => i.action);
  const before = await entries();

  const aimed = [`/staff/api/applications/${id}`, `/staff/api/applications/${id}/pdf`, '/staff/api/applications?q=a', '/staff/api/dashboard', '/staff/api/audit', '/staff/api/export?format=csv'];
  // A page of the same site (served from this machine, see sameSiteOrigin): images and a
  // prefetch, which go with the SameSite=Strict cookie and never read an answer.
  const ended = new Set<string>();
  const end = (request: Request) => {
    const url = new URL(request.url());
    ended.add(url.pathname + url.search);
  };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  const images = aimed.map((path) => `<img alt="" src="${baseURL}${path}">`).join('');
  await openAttackerPage(page, 'the same site (another port)', `${images}<link rel="prefetch" href="${baseURL}/staff/api/export?format=jsonl">`);
  await expect.poll(() => aimed.filter((path) => ended.has(path)).length).toBe(aimed.length);

  // Only the test's own second reading of the log is new: no view, list, dashboard or export.
  const after = await entries();
  expect(after.length).toBe(before.length + 1);
  expect(after[0]).toBe('audit_view');
});

test('every answer of the portal carries its security headers, and /api answers are never stored', async ({ page, baseURL }) => {
  const seen: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(baseURL!)) seen.push(response);
  });
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(uniqueEmail('headers'));
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1A!');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert').or(page.getByRole('status')).first()).toBeVisible();
  await page.goto('/about');
  await page.request.get('/healthz');
  await page.goto('/no/such/page');
  await expect(page.locator('#root')).not.toBeEmpty();

  expect(seen.length).toBeGreaterThan(5);
  const missing: string[] = [];
  for (const response of seen) {
    const headers = await response.allHeaders();
    const where = `${response.request().method()} ${new URL(response.url()).pathname} (${response.status()})`;
    if (headers['x-content-type-options'] !== 'nosniff') missing.push(`${where}: nosniff`);
    if (!headers['referrer-policy']) missing.push(`${where}: Referrer-Policy`);
    if (headers['x-frame-options'] !== 'DENY') missing.push(`${where}: X-Frame-Options`);
    if (!/camera=\(\)/.test(headers['permissions-policy'] ?? '')) missing.push(`${where}: Permissions-Policy`);
    if (headers['cross-origin-opener-policy'] !== 'same-origin') missing.push(`${where}: COOP`);
    const csp = headers['content-security-policy'] ?? '';
    if (!/frame-ancestors 'none'/.test(csp)) missing.push(`${where}: CSP frame-ancestors`);
    if (/script-src[^;]*'unsafe-inline'/.test(csp)) missing.push(`${where}: CSP allows inline script`);
    if (/^\/(api|public)\//.test(new URL(response.url()).pathname) && !/no-store/.test(headers['cache-control'] ?? '')) missing.push(`${where}: no-store`);
    // HSTS only where the portal is served over https, never on this loopback http.
    if (headers['strict-transport-security']) missing.push(`${where}: HSTS on http`);
  }
  expect(missing).toEqual([]);
});
