import type { Page } from '@playwright/test';
import { startPrism } from '../../mocks/prism';

/** The server's calls (the contract's paths); the page itself and its assets come from the server. */
const CALLS = /^\/(api|public|lookup|healthz)(\/|$|\?)/;

/**
 * Sends every call of `page` to the server at `baseURL` through `prism proxy openapi.yaml <server>
 * --errors`, a validator that is not ours: a request or an answer outside the contract comes back
 * from Prism as an error. Returns the calls checked and those Prism refused, and how to stop it.
 */
export async function throughPrism(page: Page, baseURL: string, port: number) {
  const prism = await startPrism(port, { proxyTo: baseURL });
  const checked: string[] = [];
  const refused: string[] = [];
  await page.route(
    (url) => url.origin === baseURL && CALLS.test(url.pathname),
    async (route) => {
      const url = new URL(route.request().url());
      // Prism's server closes a keep-alive connection idle for 5 s (Node's default); a call written
      // onto one as it closes is reset before Prism reads it (CI, 2026-11-26: ECONNRESET on a PUT
      // mid-walk). Playwright sends exactly that call again on a fresh connection, and nothing else.
      const response = await route.fetch({ url: `${prism.url}${url.pathname}${url.search}`, maxRetries: 1 });
      const line = `${route.request().method()} ${url.pathname} → ${response.status()}`;
      checked.push(line);
      const body = await response.body();
      const headers = response.headers();
      // Prism's own errors are problem documents naming its error type (violations, unknown paths).
      const text = /json/.test(headers['content-type'] ?? '') ? body.toString('utf8') : '';
      if (/stoplight\.io\/prism\/errors/.test(text) || headers['sl-violations']) refused.push(`${line}: ${text.slice(0, 300)}`);
      // Prism joins several Set-Cookie headers into one with commas, which a browser reads as one
      // cookie: split them again (Playwright takes several cookies joined by newlines).
      if (headers['set-cookie']) headers['set-cookie'] = headers['set-cookie'].split(/,(?=\s*[\w.-]+=)/).join('\n');
      await route.fulfill({ response, body, headers });
    },
  );
  return { checked, refused, stop: prism.stop };
}
