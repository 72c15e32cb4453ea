import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { confirmedAccount, logOut, savedAnswers, signInOnCard, uniqueEmail } from './support/accounts';
import { openStep } from './support/form';

/**
 * Issue "Nothing an applicant types is lost", items 1–3: sessions that end while the applicant is
 * on the form, the page and the server agreeing on inactivity, and carried answers that never
 * outlive the person who typed them. A real browser: tabs, history, storage and the page's timers;
 * the real server: its sessions end and expire on their own clock.
 */

const SESSION_INVALID = 'Your session is invalid. Please clear your cookies and login again.';
const INACTIVITY = 'You have been automatically logged out due to inactivity.';

/** Opens the form of the applicant signed in, and waits for the calls of its first page load (status, last page). */
async function openNewApplication(page: Page) {
  const settled = Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/web-status')),
    page.waitForResponse((response) => response.url().endsWith('/api/last-page')),
  ]);
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  await settled;
}

/** A visitor's way to sign in: Account → Sign In, carrying what was typed. */
async function signInFromPopover(page: Page, email: string) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('dialog', { name: 'Account' }).getByRole('link', { name: 'Sign In' }).click();
  await signInOnCard(page, email);
}

/**
 * The session ends on the server the way a second tab's Log Out ends it, in a tab that cannot tell
 * this one (a tab frozen by the phone): this page finds out from the server. A tab that can tell
 * it takes it to /login at once (e2e/tabs.spec.ts).
 */
async function logOutInAnotherTab(page: Page) {
  const other = await page.context().newPage();
  await other.addInitScript(() => {
    // @ts-expect-error -- removed on purpose: this tab tells no other tab
    delete window.BroadcastChannel;
  });
  await other.goto('/about');
  await logOut(other);
  await other.close();
}

test.describe('1: a session that ends on the server', () => {
  test('Save & Continue goes to /login with the message, and the typing is saved after signing in again', async ({ page, applicant: { email } }) => {
    await page.goto('/about');
    await logOutInAnotherTab(page);

    await page.locator('#first_name').fill('Unsaved');
    await page.getByRole('button', { name: 'Save & Continue' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);
    await expect(page.getByRole('dialog', { name: 'Unexpected Error' })).toHaveCount(0);

    await signInOnCard(page, email);
    await expect(page.locator('#first_name')).toHaveValue('Unsaved');
    await expect.poll(async () => (await savedAnswers(page.request)).first_name, { timeout: 15_000 }).toBe('Unsaved');
  });

  test('a step link, autosave and Log Out each go to /login; the typing goes to the same account only', async ({ page, applicant: _owner }) => {
    const other = uniqueEmail('ended-other');
    await confirmedAccount(page.request, other);

    // A step link, with the session cookie gone (after the calls of the first page load).
    await openNewApplication(page);
    await page.context().clearCookies({ name: 'portal_session' });
    await page.locator('#last_name').fill('Typed-by-owner');
    await page.getByRole('navigation', { name: 'Application steps' }).getByRole('link', { name: 'Academics' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);

    // Another account signs in from here: the owner's typing is not theirs.
    await signInOnCard(page, other);
    await expect(page.locator('#last_name')).toHaveValue('');
    await page.locator('#city').fill('Lakewood');
    await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 15_000 });
    expect((await savedAnswers(page.request)).last_name ?? '').toBe('');

    // Autosave, with the session ended in another tab.
    await logOutInAnotherTab(page);
    await page.locator('#city').fill('Golden');
    await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
    await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);
    await signInOnCard(page, other);
    await expect(page.locator('#city')).toHaveValue('Golden');
    // The carried answer is saved before the session goes.
    await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 15_000 });

    // Log Out with the session already gone: /login with the message, not an error screen.
    await page.context().clearCookies({ name: 'portal_session' });
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);
    await expect(page.getByText('Something went wrong.')).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: 'Unexpected Error' })).toHaveCount(0);
  });
});

test.describe('3: carried answers never outlive the person who typed them', () => {
  test("after a logout, Back shows nothing of the last person's, and the next sign-in does not inherit it", async ({ page }) => {
    const first = uniqueEmail('carry-first');
    const next = uniqueEmail('carry-next');
    await confirmedAccount(page.request, first);
    await confirmedAccount(page.request, next);

    // A visitor types, then signs in: the answers are carried into their account.
    await page.goto('/about');
    await page.locator('#first_name').fill('Avery');
    await signInFromPopover(page, first);
    await expect(page.locator('#first_name')).toHaveValue('Avery');
    await expect.poll(async () => (await savedAnswers(page.request)).first_name, { timeout: 15_000 }).toBe('Avery');

    await logOut(page);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.locator('#first_name')).toHaveValue('');

    // The next person signs in from that very page.
    await signInFromPopover(page, next);
    await expect(page.locator('#first_name')).toHaveValue('');
    await page.reload();
    await expect(page.locator('#first_name')).toHaveValue('');
    expect((await savedAnswers(page.request)).first_name ?? '').toBe('');
  });

  test('answers carried to the sign-in never overwrite what the account saved since', async ({ page }) => {
    const email = uniqueEmail('carry-newer');
    await confirmedAccount(page.request, email);
    await page.goto('/about');
    await page.locator('#first_name').fill('Older');
    await signInFromPopover(page, email);
    await expect(page.locator('#first_name')).toHaveValue('Older');

    await page.locator('#first_name').fill('Newer');
    await expect.poll(async () => (await savedAnswers(page.request)).first_name, { timeout: 15_000 }).toBe('Newer');
    // This history entry still holds the answers carried to it; a reload must not bring them back.
    await page.reload();
    await expect(page.locator('#first_name')).toHaveValue('Newer');
    await openStep(page, 'Academics');
    await page.goBack();
    await expect(page.locator('#first_name')).toHaveValue('Newer');
    expect((await savedAnswers(page.request)).first_name).toBe('Newer');
  });
});

test.describe('2: the page and the server agree on inactivity', () => {
  test('sixteen minutes of only scrolling and reading keep the session; then fifteen idle minutes end it with the prompt and the message', async ({ page, applicant: { email }, serverClock }) => {
    test.setTimeout(120_000);
    /** Moves the page's fake clock and this test's server clock by the same time. */
    const pass = async (ms: number) => {
      await serverClock.advance(ms);
      await page.clock.runFor(ms);
    };
    await page.clock.install();
    await page.goto('/about');
    await page.locator('#first_name').fill('Reader');
    await pass(2_000);
    await expect.poll(async () => (await page.evaluate(() => fetch('/api/profile').then((r) => r.json()))).answer.first_name).toBe('Reader');

    // Sixteen minutes in which the applicant only scrolls, every two minutes.
    for (let minute = 0; minute < 16; minute += 2) {
      await pass(120_000);
      const keepAlive = page.waitForResponse((response) => response.url().endsWith('/api/keep-alive'));
      await page.mouse.move(200, 300);
      await page.mouse.wheel(0, minute % 4 === 0 ? 400 : -400);
      expect((await keepAlive).status()).toBe(200);
      await expect(page.getByRole('dialog', { name: 'Still working?' })).toHaveCount(0);
    }
    // The next answer typed is saved: the server kept the session the page showed as active.
    await page.locator('#last_name').fill('Still-here');
    await pass(2_000);
    await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);

    // Idle: the prompt 60 s before the end, and the server still answers 'Stay' at the last moment.
    await pass(14 * 60_000 + 30_000);
    const prompt = page.getByRole('dialog', { name: 'Still working?' });
    await expect(prompt).toBeVisible();
    const stay = page.waitForResponse((response) => response.url().endsWith('/api/keep-alive'));
    await prompt.getByRole('button', { name: 'Stay signed in' }).click();
    expect((await stay).status()).toBe(200);
    await expect(prompt).toBeHidden();

    // Idle again for the whole fifteen minutes: signed out with the message, answers kept.
    await pass(14 * 60_000 + 1_000);
    await expect(prompt).toBeVisible();
    await pass(60_000);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText(INACTIVITY);
    await signInOnCard(page, email);
    await expect(page.locator('#first_name')).toHaveValue('Reader');
    await expect(page.locator('#last_name')).toHaveValue('Still-here');
  });
});
