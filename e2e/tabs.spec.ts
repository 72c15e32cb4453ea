import type { Page, Request, Route } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { confirmedAccount, logOut, savedAnswers, signInOnCard, uniqueEmail } from './support/accounts';
import { axeViolationsAtBothWidths } from './axe';

/**
 * Issue 28, items 1–5: one application in many tabs and on many devices. A real browser and a real
 * server: tabs of one browser context share cookies and storage and hear each other on a
 * BroadcastChannel; two contexts are two devices; the session ends on the server's clock. The
 * server's half of each rule (the binding, the version check) is tested at its own layer in
 * server/application/answers.test.ts; here, what the applicant sees.
 */

const SESSION_INVALID = 'Your session is invalid. Please clear your cookies and login again.';
const INACTIVITY = 'You have been automatically logged out due to inactivity.';
const ACCOUNT_CHANGED = 'This page was opened for another account, so nothing was saved. It now shows the account that is signed in.';

/** A tab that hears no other tab: frozen by the phone, discarded, or a browser without BroadcastChannel. */
async function deafTab(page: Page) {
  const tab = await page.context().newPage();
  await tab.addInitScript(() => {
    // @ts-expect-error -- removed on purpose: this tab misses every other tab's message
    delete window.BroadcastChannel;
  });
  return tab;
}

const saved = (page: Page) => expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();

test.describe('1: a page writes only into the account it was loaded for', () => {
  test('a sign-out reaches every tab at once; a tab that missed it cannot write into the account signed in since', async ({ page, applicant }) => {
    expect((await page.request.put('/api/answer', { data: { first_name: 'Ann' } })).ok()).toBe(true);
    await page.goto('/about');
    const listening = await page.context().newPage();
    await listening.goto('/about');
    const stale = await deafTab(page);
    await stale.goto('/about');
    await expect(stale.locator('#first_name')).toHaveValue('Ann');

    // Tab 1: A signs out; the listening tab follows at once, without a click.
    await logOut(page);
    await expect(listening).toHaveURL(/\/login$/);
    await expect(listening.getByRole('alert')).toHaveText(SESSION_INVALID);
    await expect(listening.locator('#first_name')).toHaveCount(0);

    // B signs in in tab 1 and saves a first name.
    const other = uniqueEmail('tabs-b');
    await confirmedAccount(page.request, other);
    await signInOnCard(page, other);
    await page.locator('#first_name').fill('Bea');
    await saved(page);

    // The tab still showing A's answers saves: refused, and it opens again as B, with word why.
    await stale.locator('#last_name').fill('Anderson');
    await stale.getByRole('button', { name: 'Save & Continue' }).click();
    await expect(stale.getByText(ACCOUNT_CHANGED).first()).toBeVisible();
    await expect(stale.locator('#first_name')).toHaveValue('Bea');
    await expect(stale.locator('#last_name')).toHaveValue('');
    const answers = await savedAnswers(page.request);
    expect(answers.first_name).toBe('Bea');
    expect(answers.last_name).toBeUndefined();
    expect(applicant.email).not.toBe(other);
  });
});

test.describe('2: no save reverts a newer answer', () => {
  test('an older device takes the answers it had not changed, and asks about the one changed on both (axe on the question at both widths)', async ({ page, applicant: { email }, browser }) => {
    expect((await page.request.put('/api/answer', { data: { first_name: 'Old', last_name: 'Lee' } })).ok()).toBe(true);
    await page.clock.install();
    await page.goto('/about');
    await expect(page.locator('#first_name')).toHaveValue('Old');

    // The phone: another device of the same applicant changes both names.
    const phoneContext = await browser.newContext();
    const phone = await phoneContext.newPage();
    await phone.goto('/login');
    await signInOnCard(phone, email);
    await phone.locator('#first_name').fill('New');
    await phone.locator('#last_name').fill('Phone-Lee');
    await saved(phone);
    await phoneContext.close();

    // The laptop, open since before, changes only the last name and presses Save & Continue (its
    // clock held, so autosave does not send it first).
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.locator('#last_name').fill('Laptop-Lee');
    await page.getByRole('button', { name: 'Save & Continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Answers changed elsewhere' });
    await expect(dialog).toBeVisible();
    await page.clock.resume();
    await expect(dialog.getByRole('group')).toHaveCount(1);
    await expect(dialog.getByRole('radio', { name: 'Keep mine: Laptop-Lee' })).toBeChecked();
    await expect(page.locator('#first_name')).toHaveValue('New');
    expect(await axeViolationsAtBothWidths(page, 'the answers-changed question')).toEqual([]);
    await expect(page).toHaveURL(/\/about$/);
    expect(await savedAnswers(page.request)).toMatchObject({ first_name: 'New', last_name: 'Phone-Lee' });

    await dialog.getByRole('radio', { name: 'Use the newer one: Phone-Lee' }).check();
    await dialog.getByRole('button', { name: 'Save these answers' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('#last_name')).toHaveValue('Phone-Lee');
    await page.getByRole('button', { name: 'Save & Continue' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Academics' })).toBeVisible();
    expect(await savedAnswers(page.request)).toMatchObject({ first_name: 'New', last_name: 'Phone-Lee' });
  });
});

test.describe('3: tabs keep in step', () => {
  test('an answer saved in one tab shows in the other; a Log Out in one takes every tab to /login with the message', async ({ page, applicant: _applicant }) => {
    await page.goto('/about');
    const other = await page.context().newPage();
    await other.goto('/about');
    await page.locator('#preferred_name').fill('Jo');
    await saved(page);
    await expect(other.locator('#preferred_name')).toHaveValue('Jo');

    await logOut(page);
    await expect(other).toHaveURL(/\/login$/);
    await expect(other.getByRole('alert')).toHaveText(SESSION_INVALID);
    await expect(other.locator('#preferred_name')).toHaveCount(0);
  });
});

test.describe('4: a session ended by inactivity shows the inactivity message, however it was noticed', () => {
  test('after a laptop sleeps 17 minutes, both open tabs show the inactivity message', async ({ page, applicant: _applicant, serverClock }) => {
    // Nothing of the pages reaches the server while it sleeps: a call the page makes after its
    // clock paused waits here, and goes on once both clocks have moved, as after a real sleep.
    // Without that, a call timed just before the pause could meet the server's moved clock while
    // the page's had not (its 401 then reads as a session ended for another reason).
    const underWay = new Set<Request>();
    const held: Route[] = [];
    let asleep = false;
    page.context().on('request', (request) => underWay.add(request));
    page.context().on('requestfinished', (request) => underWay.delete(request));
    page.context().on('requestfailed', (request) => underWay.delete(request));
    // Playwright tells of a request before it asks its route: one not held is in `underWay` first.
    await page.context().route('**/*', (route) => (asleep ? held.push(route) : route.continue()));
    await page.clock.install();
    await page.goto('/about');
    const other = await page.context().newPage();
    await other.goto('/about');
    await expect(other.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    for (const tab of [page, other]) await tab.waitForLoadState('networkidle');
    // Paused a moment ahead of the page's own clock. On a busy machine the call can reach the page
    // after that moment (a pause in its past is refused): then again, from its new time. Not
    // further ahead: timers due in between would fire.
    let paused = false;
    for (let tries = 0; !paused && tries < 10; tries++) {
      paused = await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500).then(
        () => true,
        (error: Error) => (/fast-forward to the past/.test(error.message) ? false : Promise.reject(error)),
      );
    }
    expect(paused, 'the page clock paused').toBe(true);
    asleep = true;
    // A call sent before the sleep is answered on the server's own time first.
    await expect.poll(() => [...underWay].filter((request) => !held.some((route) => route.request() === request)).length).toBe(0);
    await serverClock.advance(17 * 60_000);
    await page.clock.fastForward(17 * 60_000);
    asleep = false;
    for (const route of held.splice(0)) await route.continue();
    await page.clock.resume();
    for (const tab of [page, other]) {
      await expect(tab).toHaveURL(/\/login$/);
      await expect(tab.getByRole('alert')).toHaveText(INACTIVITY);
    }
  });
});

test.describe('5: a step button opens the next page at its top', () => {
  test('Save & Continue and Back land at the top of the page, focus on its heading', async ({ page, applicant: _applicant }) => {
    await page.goto('/about');
    const next = page.getByRole('button', { name: 'Save & Continue' });
    await next.scrollIntoViewIfNeeded();
    await next.click();
    const academics = page.getByRole('heading', { level: 1, name: 'Academics' });
    await expect(academics).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const back = page.getByRole('button', { name: 'Back' });
    await back.scrollIntoViewIfNeeded();
    await back.click();
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeFocused();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // A second press of the same spot is on the heading's page, not a step further.
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeFocused();
  });
});
