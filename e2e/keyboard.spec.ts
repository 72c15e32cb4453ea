import { expect, test } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './support/accounts';
import { fillAndSubmit } from './support/form';
import { keyboard, tabUntil } from './support/hands';
import { codeIn, waitForMail } from './support/mail';
import { throughPrism } from './support/throughPrism';

/**
 * Issue 13's two journeys in one: from sign-up to the downloaded PDF copy with the keyboard alone,
 * every call of the page passing through `prism proxy openapi.yaml <server> --errors`. Nothing is
 * clicked: Tab moves, typing fills, arrows and Space choose, Enter acts, and at every stop the
 * focused element shows its focus ring. And a request or an answer outside the contract comes back
 * from Prism as an error, and the journey fails. A real browser: only a browser moves focus with
 * Tab and draws the ring; the real server, for the calls the app really makes and their answers.
 */

const PRISM_PORT = 3900 + (process.pid % 90);
let stopPrism: (() => void) | undefined;
test.afterAll(() => stopPrism?.());
// A call still on its way through Prism when the test ends (the completion page asks for the copy
// once a second) had its answer disposed under the handler as the context closed, and that error
// failed a journey that had passed (CI, 2026-11-27): the route goes first, its late calls ignored.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

test('sign up, confirm, sign in, fill three pages, submit and download the copy with the keyboard alone, every call as the contract says', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const prism = await throughPrism(page, baseURL!, PRISM_PORT);
  stopPrism = prism.stop;
  const email = uniqueEmail('keys');

  await page.goto('/signup');
  await keyboard.fill(page, 'username', email);
  await keyboard.fill(page, 'password', PASSWORD);
  await keyboard.press(page, 'Create Account');
  await expect(page).toHaveURL(/\/confirm$/);

  await keyboard.fill(page, 'code', codeIn(await waitForMail(email)));
  await keyboard.press(page, 'Confirm Account');
  await expect(page).toHaveURL(/\/login$/);

  // The address is kept from the card before: only the password is typed.
  await keyboard.fill(page, 'password', PASSWORD);
  await page.keyboard.press('Enter');
  await fillAndSubmit(page, keyboard);

  const link = page.getByRole('link', { name: 'Download a PDF copy of your application' });
  await expect(link).toBeVisible({ timeout: 90_000 });
  await tabUntil(page, 'the download link', 'a[href*="/api/pdf/download"]');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);

  expect(prism.refused).toEqual([]);
  // The journey's calls did go through Prism: sign-up, sign-in, saves, lookups, submit and the copy.
  for (const call of ['POST /public/signup', 'POST /public/confirm', 'POST /public/login', 'PUT /api/answer', 'GET /lookup/find', 'POST /api/submit', 'GET /api/pdf']) {
    expect(prism.checked.some((line) => line.startsWith(`${call} `)), call).toBe(true);
  }
  console.log(`prism proxy: ${prism.checked.length} calls checked against openapi.yaml, 0 violations`);
});
