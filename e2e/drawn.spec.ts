import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './support/fixtures';
import { holdAppCode } from './support/holdAppCode';
import { savedAnswers } from './support/accounts';

/**
 * A signed-in form page is drawn on the server with the applicant's answers
 * (server/http/signedInPage.ts), and the app's code, when it comes, hydrates it. These tests hold
 * the app's code back to do what a phone on a slow network allows: read, type and press before it
 * runs. A real browser: parsing, hydration and input before scripts; the real server: it draws the
 * page.
 */

/** The signed-in applicant of this page's browser context saves these answers. */
async function saveAnswers(page: Page, answers: Record<string, unknown>) {
  expect((await page.request.put('/api/answer', { data: answers })).ok()).toBe(true);
}

const INJECTION = '</script><script>window.injected = true</script>';

test('a signed-in form page arrives drawn with its saved answers, titled, private, and passes axe before the app has run', async ({ page, applicant: _ }) => {
  await saveAnswers(page, { first_name: 'Ada', last_name: INJECTION, disability: 'Y', accommodations: 'A quiet room' });
  const response = await page.request.get('/about');
  expect(response.headers()['cache-control']).toBe('private, no-store');
  const html = await response.text();
  expect(html).toContain('<div id="root" data-drawn="/about">');
  expect(html).toContain('<title>About You | Northfield University Undergraduate Application</title>');
  // The answer is text in the markup and in the data the page carries, never a script.
  expect(html).not.toContain(INJECTION);

  const app = await holdAppCode(page);
  await page.goto('/about', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  await expect(page.locator('#first_name')).toHaveValue('Ada');
  await expect(page.locator('#last_name')).toHaveValue(INJECTION);
  await expect(page.getByLabel('Accommodations you would like us to know about')).toHaveValue('A quiet room');
  await expect(page).toHaveTitle('About You | Northfield University Undergraduate Application');
  await expectNoAxeViolations(page);

  const field = await page.locator('#first_name').elementHandle();
  app.release();
  await app.started();
  // Hydrated, not drawn again: the field shown first is the one the app uses.
  expect(await field!.evaluate((input) => input.isConnected)).toBe(true);
  expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
  await expect(page.locator('#last_name')).toHaveValue(INJECTION);
});

test('what is typed, chosen and pressed on a drawn page before the app has run is kept and saved', async ({ page, applicant: _ }) => {
  await saveAnswers(page, { first_name: 'Ada', last_name: 'Lovelace', disability: 'Y' });
  const app = await holdAppCode(page);
  await page.goto('/about', { waitUntil: 'commit' });
  await page.locator('#middle_name').fill('Byron');
  await page.getByLabel('Pronouns').selectOption('They/them');
  await page.getByLabel('Send me text message updates about my application.').check();
  await page.getByLabel('Not a U.S. citizen or permanent resident').check();
  await page.getByLabel('Accommodations you would like us to know about').fill('Extra time');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // Nothing left the page: the browser's own submit would have put the answers in the address.
  await expect(page).toHaveURL(/\/about$/);

  app.release();
  await app.started();
  await expect(page.locator('.toast').filter({ hasText: 'Your answers are saved.' })).toBeVisible();
  expect(await savedAnswers(page.request)).toMatchObject({
    first_name: 'Ada',
    middle_name: 'Byron',
    pronouns: 'They/them',
    optin_sms_ind: true,
    citizenship_type: 'N',
    accommodations: 'Extra time',
  });
  // The app holds the choice: the question it opens is shown.
  await expect(page.getByLabel('Country of Citizenship')).toBeVisible();
  await expect(page.locator('#middle_name')).toHaveValue('Byron');
});

test('a page is drawn only for the applicant it belongs to, and never when the session has ended', async ({ page, browser, applicant: _ }) => {
  await saveAnswers(page, { first_name: 'Grace' });
  const html = await (await page.request.get('/about')).text();
  expect(html).toContain('data-drawn="/about"');
  expect(html).toContain('Grace');

  // No session, a session cookie that is not one, the print view's token: the page as built.
  const stranger = await browser.newContext();
  for (const cookie of ['', 'portal-idp.session=1; portal_session=forged']) {
    const page = await (await stranger.request.get('/about', { headers: cookie ? { cookie } : {} })).text();
    expect(page).not.toContain('data-drawn');
    expect(page).not.toContain('Grace');
  }
  await stranger.close();
  expect(await (await page.request.get('/about?service_token=x')).text()).not.toContain('data-drawn');
});
