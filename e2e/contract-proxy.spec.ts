import { expect, test } from '@playwright/test';
import { startPrism } from '../mocks/prism';
import { confirmedAccount, signInThroughUi, uniqueEmail } from './support/accounts';
import { fillAndSubmit } from './support/form';

/**
 * Issue 13: the journey once more, every call of the page passing through
 * `prism proxy openapi.yaml <server> --errors`, a validator that is not ours: a request or an
 * answer outside the contract comes back from Prism as an error, and the journey fails.
 */

const PRISM_PORT = 3900 + (process.pid % 90);
/** The server's calls (the contract's paths); the page itself and its assets come from the server. */
const CALLS = /^\/(api|public|lookup|healthz)(\/|$|\?)/;

let prism: Awaited<ReturnType<typeof startPrism>> | null = null;
test.afterAll(() => prism?.stop());

test('the whole journey keeps to the contract, as Prism sees it', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  prism = await startPrism(PRISM_PORT, { proxyTo: baseURL! });
  const checked: string[] = [];
  const refused: string[] = [];
  await page.route(
    (url) => url.origin === baseURL && CALLS.test(url.pathname),
    async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${prism!.url}${url.pathname}${url.search}` });
      const line = `${route.request().method()} ${url.pathname} → ${response.status()}`;
      checked.push(line);
      // Prism's own errors are problem documents naming its error type (violations, unknown paths).
      const body = await response.text();
      if (/stoplight\.io\/prism\/errors/.test(body) || response.headers()['sl-violations']) refused.push(`${line}: ${body.slice(0, 300)}`);
      // Prism joins several Set-Cookie headers into one with commas, which a browser reads as one
      // cookie: split them again (Playwright takes several cookies joined by newlines).
      const headers = response.headers();
      if (headers['set-cookie']) headers['set-cookie'] = headers['set-cookie'].split(/,(?=\s*[\w.-]+=)/).join('\n');
      await route.fulfill({ response, body, headers });
    },
  );

  const email = uniqueEmail('prism');
  await confirmedAccount(page.request, email);
  await signInThroughUi(page, email);
  await fillAndSubmit(page);
  await expect(page.getByRole('link', { name: 'Download a PDF copy of your application' })).toBeVisible({ timeout: 90_000 });

  expect(refused).toEqual([]);
  // The journey's calls did go through Prism: sign-in, saves, lookups, submit and the copy's status.
  for (const call of ['POST /public/login', 'PUT /api/answer', 'GET /lookup/find', 'POST /api/submit', 'GET /api/pdf']) {
    expect(checked.some((line) => line.startsWith(`${call} `)), call).toBe(true);
  }
  console.log(`prism proxy: ${checked.length} calls checked against openapi.yaml, 0 violations`);
});
