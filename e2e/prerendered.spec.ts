import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { holdAppCode } from './support/holdAppCode';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';

/**
 * The sign-in screens are rendered ahead by the build (scripts/prerender.ts): the screen is in the
 * page the server sends, and the app's code, when it comes, hydrates it. These tests hold the app's
 * code back to do what a phone on a slow network allows: read, type and press before it runs. A
 * real browser: parsing and input before any script; the real server serves the build's pages.
 */

test('the sign-in screens arrive drawn, titled, and pass axe before the app has run', async ({ page, request }) => {
  for (const [url, heading] of [
    ['/login', 'Sign In'],
    ['/signup', 'Create Account'],
    ['/forgot', 'Forgot Password'],
  ] as const) {
    const html = await (await request.get(url)).text();
    expect(html).toContain(`<h1 id="card-title">${heading}</h1>`);
    expect(html).toContain(`<title>${heading} | Northfield University Undergraduate Application</title>`);
  }
  await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page).toHaveTitle('Sign In | Northfield University Undergraduate Application');
  // The theme's colours are there before the app sets them: the button is painted as it will be.
  // Waited for: the heading is laid out before the stylesheet (render-blocking, so never painted
  // without it) has arrived, and a read then sees the browser's default; the app stays held.
  const background = () => page.getByRole('button', { name: 'Sign In' }).evaluate((button) => getComputedStyle(button).backgroundColor);
  await expect.poll(background).toBe('rgb(31, 78, 140)');
  await expectNoAxeViolations(page);
});

test('what is typed and pressed before the app has run is kept: the same fields, then signed in', async ({ page, request }) => {
  const email = uniqueEmail('ahead');
  await confirmedAccount(request, email);
  const app = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const emailField = page.getByLabel('Email Address');
  await emailField.fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Show password' }).click();
  await page.getByLabel('Password', { exact: true }).press('Enter');
  // Nothing left the page: the browser's own submit would have put the password in the address.
  await expect(page).toHaveURL(/\/login$/);
  const field = await emailField.elementHandle();
  // The app's sign-in call is held until the card has been looked at: once it is answered the app
  // moves on to /about and the card (hydrated or not) is gone.
  let answerSignIn!: () => void;
  const signInHeld = new Promise<void>((resolve) => (answerSignIn = resolve));
  await page.route(/\/public\/login$/, async (route) => {
    await signInHeld;
    await route.continue();
  });
  const signInSent = page.waitForRequest(/\/public\/login$/);

  app.release();
  await app.started();
  await signInSent;
  // Hydrated, not drawn again: the field typed in is the one the app uses.
  expect(await field!.evaluate((input) => input.isConnected)).toBe(true);
  answerSignIn();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
});

test('Create Account typed before the app has run goes on to the code', async ({ page }) => {
  const email = uniqueEmail('ahead-signup');
  const app = await holdAppCode(page);
  await page.goto('/signup', { waitUntil: 'commit' });
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  app.release();
  await expect(page).toHaveURL(/\/confirm$/);
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
});
