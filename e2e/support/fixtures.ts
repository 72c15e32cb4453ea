import { test as base, expect, type BrowserContext } from '@playwright/test';
import { confirmedAccount, PASSWORD, uniqueEmail } from './accounts';

/** The name of the header a test server reads a test's own clock from (server/infra/clock.ts). */
const TEST_CLOCK_HEADER = 'x-test-clock';

export interface ServerClock {
  /** Moves this test's server clock by `ms`; returns the server's time after the move. */
  advance(ms: number): Promise<Date>;
  /** Another browser context of the test reads the same clock. */
  join(context: BrowserContext): Promise<void>;
}

/**
 * The fixtures every browser test starts from:
 * - `applicant`: a new confirmed account, signed in through the API in the page's browser context
 *   (its cookies set); the test opens its first page itself. Sign-up by e-mail and sign-in through
 *   the cards are walked by accounts.spec.ts, not by every test.
 * - `serverClock`: the server's clock for this test alone (tests run side by side on one server),
 *   read by every request of the page's context; moved in step with `page.clock` where a test
 *   fakes the page's time.
 */
export const test = base.extend<{ applicant: { email: string }; serverClock: ServerClock; pageErrors: void }>({
  // What the page said went wrong (uncaught errors, console errors), attached to a failed test: a
  // page that stops answering leaves its last words here.
  pageErrors: [
    async ({ page }, use, testInfo) => {
      const said: string[] = [];
      const at = () => new Date().toISOString().slice(11, 23);
      page.on('pageerror', (error) => said.push(`${at()} pageerror ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') said.push(`${at()} console.${message.type()} ${message.text()}`);
      });
      page.on('crash', () => said.push(`${at()} the page crashed`));
      await use();
      if (testInfo.status !== testInfo.expectedStatus && said.length) await testInfo.attach('page errors', { body: said.join('\n'), contentType: 'text/plain' });
    },
    { auto: true },
  ],
  applicant: async ({ page }, use) => {
    const email = uniqueEmail('applicant');
    await confirmedAccount(page.request, email);
    expect((await page.request.post('/public/login', { data: { username: email, password: PASSWORD } })).ok()).toBe(true);
    await use({ email });
  },
  serverClock: async ({ context }, use, testInfo) => {
    const headers = { [TEST_CLOCK_HEADER]: testInfo.testId };
    await context.setExtraHTTPHeaders(headers);
    await use({
      advance: async (ms) => {
        const moved = await context.request.post('/dev/clock', { data: { advance_ms: ms }, headers });
        expect(moved.ok()).toBe(true);
        return new Date(((await moved.json()) as { now: string }).now);
      },
      join: (other) => other.setExtraHTTPHeaders(headers),
    });
  },
});

export { expect };
