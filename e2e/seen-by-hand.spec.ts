import { completeApplication } from '../domain/catalogue/completeApplication';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './support/fixtures';
import { PASSWORD, savedAnswers } from './support/accounts';
import { openStep } from './support/form';

/**
 * Issue "Nothing an applicant types is lost", "The rest, smaller but seen": each test one line of
 * it. A real browser: addresses, toasts, focus and presses as a person makes them; the real server
 * where a test reads what was saved.
 */

const SESSION_INVALID = 'Your session is invalid. Please clear your cookies and login again.';

test('a route typed in another case or with a trailing slash goes to the spec spelling, query kept', async ({ page }) => {
  for (const [typed, lands] of [
    ['/ABOUT', /\/about$/],
    ['/about/', /\/about$/],
    ['/LOGIN?x=1', /\/login\?x=1$/],
  ] as const) {
    await page.goto(typed);
    await expect(page).toHaveURL(lands);
  }
});

test('sign-in: a wrong password or a refused call is the card error, and it does not follow onto the form', async ({ page, applicant: { email } }) => {
  // Signed in by the fixture: this test signs in through the card, so the session starts over.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);

  // The server refusing with 401, then answering with no body at all.
  await page.route('**/public/login', (route) => route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ message: 'Incorrect username or password.' }) }));
  await page.getByLabel('Password', { exact: true }).fill('Wrong-Password-1!');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const cardError = page.locator('.toast').filter({ hasText: 'Login Card Error' });
  await expect(cardError).toContainText('Incorrect username or password.');
  await page.unroute('**/public/login');
  await page.route('**/public/login', (route) => route.fulfill({ status: 200, body: '' }));
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(cardError.filter({ hasText: "We've encountered an unexpected error at this time. Please try again later." })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Unexpected Error' })).toHaveCount(0);
  await page.unroute('**/public/login');

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.locator('.toast').filter({ hasText: 'You are now signed in.' })).toBeVisible();
  await expect(cardError).toHaveCount(0);
});

test('the session notice on /login goes after a reload; a signed-in applicant on /login is told so', async ({ page, applicant: _ }) => {
  await page.goto('/about');

  await page.goto('/login');
  await expect(page.getByText('You are already signed in.')).toBeVisible();
  await page.getByRole('link', { name: 'Go back to your application' }).click();
  await expect(page).toHaveURL(/\/about$/);

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);
  await expect(page.getByText('You are already signed in.')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page.getByText(SESSION_INVALID)).toHaveCount(0);
});

test('the account popover closes on a press outside it and on Escape wherever focus is', { tag: '@layout' }, async ({ page }) => {
  await page.goto('/about');
  const toggle = page.getByRole('button', { name: 'Account' });
  const popover = page.getByRole('dialog', { name: 'Account' });
  await toggle.click();
  await expect(popover).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'About You' }).click();
  await expect(popover).toBeHidden();

  await toggle.click();
  await expect(popover).toBeVisible();
  await page.locator('#first_name').focus();
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(toggle).toBeFocused();
});

test('a phone typed key by key with a leading 1 keeps every digit', async ({ page }) => {
  await page.goto('/about');
  await page.locator('#phone_mobile').pressSequentially('13035550142');
  await expect(page.locator('#phone_mobile')).toHaveValue('(303) 555-0142');
});

test('Save saves and stays; the Additional Information gate stays open after a reload once its tab was chosen', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  await page.locator('#first_name').fill('Sasha');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Your answers are saved.' })).toBeVisible();
  await expect(page).toHaveURL(/\/about$/);
  expect((await savedAnswers(page.request)).first_name).toBe('Sasha');

  await openStep(page, 'Final Steps');
  await page.getByRole('button', { name: 'Add additional information' }).click();
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/tabs') && response.request().method() === 'PUT');
  await page.getByRole('tab', { name: 'Write it here' }).click();
  await saved;
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Write it here' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Add additional information' })).toHaveCount(0);
});

test('the completion page has the logo line and the account popover, and no axe violation', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  expect((await page.request.put('/api/answer', { data: completeApplication })).ok()).toBe(true);
  expect((await page.request.post('/api/submit')).ok()).toBe(true);
  await page.goto('/completion');
  await expect(page).toHaveURL(/\/completion$/);
  const header = page.locator('header.site-header');
  await expect(header.locator('svg.site-header__logo')).toBeVisible();
  await expect(header).toContainText('Northfield University Undergraduate Application');
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Application steps' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
