import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './support/fixtures';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';
import { openStep } from './support/form';
import { codeIn, resetLinkIn, waitForMail } from './support/mail';

/**
 * Accounts as an applicant meets them: the only tests that walk sign-up, the e-mailed code and the
 * reset link (every other test starts signed in by a fixture). A real browser: the cards, their
 * toasts and focus; the real server: codes and links arrive by real e-mail (an SMTP sink), and
 * sessions end on the server.
 */

const SESSION_INVALID = 'Your session is invalid. Please clear your cookies and login again.';

/** The newest toast with this label (earlier ones may still be showing). */
async function toast(page: Page, label: string, message?: string) {
  const toasts = page.locator('.toast').filter({ hasText: label });
  await expect((message ? toasts.filter({ hasText: message }) : toasts).last()).toBeVisible();
}

test('sign up → code from the e-mail → confirm → sign in → log out', async ({ page }) => {
  const email = uniqueEmail('flow');
  await page.goto('/signup');
  await page.getByLabel('Email Address').fill(email);
  const password = page.getByLabel('Password', { exact: true });
  await expect(page.locator('.requirement[data-state="inactive"]')).toHaveCount(6);
  await password.fill('short');
  await expect(page.locator('.requirement[data-state="error"]')).toHaveCount(4);
  await password.fill(PASSWORD);
  await expect(page.locator('.requirement[data-state="success"]')).toHaveCount(6);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/confirm$/);
  await toast(page, 'Success Notification');
  await expect(page.getByLabel('Email Address')).toHaveValue(email.toLowerCase());
  const code = codeIn(await waitForMail(email));
  // Pasting a code with spaces keeps the digits.
  await page.getByLabel('Confirmation Code').fill(` ${code.slice(0, 3)} ${code.slice(3)} `);
  await page.getByRole('button', { name: 'Confirm Account' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await toast(page, 'Success Notification');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await toast(page, 'Success Notification', 'You are now signed in.');

  await page.getByRole('button', { name: 'Account' }).click();
  const popover = page.getByRole('dialog', { name: 'Account' });
  await expect(popover).toContainText(email.toLowerCase());
  await popover.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toHaveText(SESSION_INVALID);
  expect((await page.request.get('/api/profile')).status()).toBe(401);
});

test('five wrong codes lock the code; a new code works', async ({ page }) => {
  const email = uniqueEmail('locked');
  await page.request.post('/public/signup', { data: { username: email, password: PASSWORD } });
  const code = codeIn(await waitForMail(email));
  const wrong = code === '000000' ? '111111' : '000000';
  await page.goto('/confirm');
  await page.getByLabel('Email Address').fill(email);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Confirmation Code').fill(wrong);
    await page.getByRole('button', { name: 'Confirm Account' }).click();
    await toast(page, 'Confirm Card Error');
  }
  await page.getByLabel('Confirmation Code').fill(code);
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page.locator('#code-error')).toContainText('incorrect or has expired');
  await expect(page).toHaveURL(/\/confirm$/);

  await page.getByRole('button', { name: 'Send a new code' }).click();
  const second = codeIn(await waitForMail(email, 2));
  await page.getByLabel('Confirmation Code').fill(second);
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('an unconfirmed account is told so at sign-in and can resend the code', async ({ page }) => {
  const email = uniqueEmail('unconfirmed');
  await page.request.post('/public/signup', { data: { username: email, password: PASSWORD } });
  await waitForMail(email);
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast(page, 'Login Card Error');
  await expect(page.locator('.toast')).toContainText('not confirmed');
  await page.getByRole('button', { name: 'Resend confirmation code' }).click();
  await expect(page).toHaveURL(/\/confirm$/);
  const code = codeIn(await waitForMail(email, 2));
  await page.getByLabel('Confirmation Code').fill(code);
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot → reset link from the e-mail → new password; the old session is gone', async ({ page, browser }) => {
  const email = uniqueEmail('reset');
  await confirmedAccount(page.request, email);
  // A session in another browser, which the reset must end.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  expect((await other.request.post('/public/login', { data: { username: email, password: PASSWORD } })).ok()).toBe(true);
  await otherPage.goto('/about');
  await expect(otherPage.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'reset the password' })).toBeVisible();

  const link = new URL(resetLinkIn(await waitForMail(email, 2)));
  await page.goto(link.pathname + link.search);
  await expect(page.getByLabel('Email Address')).toHaveValue(email.toLowerCase());
  const newPassword = 'Battery-Staple-77?';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await toast(page, 'Success Notification');

  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);

  // The other browser's session ended: its next call is refused and it lands on /login.
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login$/);
  await expect(otherPage.getByRole('alert')).toHaveText(SESSION_INVALID);
  await other.close();
  // The used link again: the reason once (the card's toast), and the way to a new link.
  const reuse = await browser.newContext();
  const reusePage = await reuse.newPage();
  await reusePage.goto(link.pathname + link.search);
  await reusePage.getByLabel('New Password', { exact: true }).fill(newPassword);
  await reusePage.getByLabel('Confirm New Password').fill(newPassword);
  await reusePage.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reusePage.locator('.toast').filter({ hasText: 'Reset Password Card Error' })).toContainText('This reset link is invalid or has expired.');
  await expect(reusePage.getByText('This reset link is invalid or has expired.')).toHaveCount(1);
  await reusePage.getByRole('link', { name: 'Ask for a new reset link' }).click();
  await expect(reusePage).toHaveURL(/\/forgot$/);
  await expect(reusePage.getByLabel('Email Address')).toHaveValue(email.toLowerCase());
  await reuse.close();
});

test('validation on submit shows the exact messages, with no axe violations', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('#username-error')).toHaveText('Error: Please provide a valid email address.');
  await expect(page.locator('#password-error')).toHaveText('Error: Password is required.');
  await expect(page.getByLabel('Email Address')).toBeFocused();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Resend confirmation code' }).click();
  await expect(page.locator('#username-error')).toHaveText(
    'Error: You must provide a valid email address to resend a confirmation code.',
  );

  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.locator('#username-error')).toHaveText('Error: Your email address must be valid.');
  await expectNoAxeViolations(page);

  await page.goto('/confirm');
  await page.getByLabel('Email Address').fill('a@example.com');
  await page.getByLabel('Confirmation Code').fill('123');
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page.locator('#code-error')).toHaveText('Error: The confirmation code must be exactly 6 numbers.');
  await expectNoAxeViolations(page);

  await page.goto('/forgot');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.locator('#username-error')).toHaveText('Error: Your email address must be valid.');
  await expectNoAxeViolations(page);

  await page.goto('/reset?username=a%40example.com&id=abc');
  await page.getByLabel('New Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm New Password').fill('different');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.locator('#confirm_password-error')).toHaveText('Error: The passwords do not match.');
  await expectNoAxeViolations(page);
});

test('a wrong password gets the Login Card Error toast', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password', { exact: true }).fill('Wrong-Password-1!');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast(page, 'Login Card Error');
  await expect(page.locator('.toast')).toContainText('Incorrect username or password.');
  await expectNoAxeViolations(page);
});

test('inactivity: warning, stay, warning, expiry → /login with the message', async ({ page, applicant: _ }) => {
  await page.clock.install();
  await page.goto('/about');
  // The timer starts once the app knows it is signed in (it records the activity for all tabs).
  await page.waitForFunction(() => localStorage.getItem('portal.lastActivity') !== null);
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();

  await page.clock.fastForward('14:01');
  const dialog = page.getByRole('dialog', { name: 'Still working?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();

  await page.clock.fastForward('14:01');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape'); // Escape means stay
  await expect(dialog).toBeHidden();

  await page.clock.fastForward('14:01');
  await expect(dialog).toBeVisible();
  await page.clock.fastForward('01:00');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toHaveText('You have been automatically logged out due to inactivity.');
  expect((await page.request.get('/api/profile')).status()).toBe(401);
});

test('a second tab follows the same inactivity timer', async ({ page, context, applicant: _ }) => {
  await context.clock.install();
  await page.goto('/about');
  await page.waitForFunction(() => localStorage.getItem('portal.lastActivity') !== null);
  const second = await context.newPage();
  await second.goto('/about');
  await openStep(second, 'Academics');

  await context.clock.fastForward('10:00');
  await second.keyboard.press('Shift'); // activity in the second tab
  await context.clock.fastForward('04:01');
  // 14 minutes after sign-in, but only 4 after the activity in the other tab: no warning anywhere.
  await expect(page.getByRole('dialog', { name: 'Still working?' })).toBeHidden();
  await context.clock.fastForward('10:00');
  await expect(page.getByRole('dialog', { name: 'Still working?' })).toBeVisible();
  await expect(second.getByRole('dialog', { name: 'Still working?' })).toBeVisible();
  await second.getByRole('button', { name: 'Stay signed in' }).click();
  // Staying in one tab closes the warning in the other.
  await expect(page.getByRole('dialog', { name: 'Still working?' })).toBeHidden();
});
