import { expect, test } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './support/accounts';
import { fillAndSubmit } from './support/form';
import { keyboard, tabUntil } from './support/hands';
import { codeIn, waitForMail } from './support/mail';

/**
 * Issue 13: a keyboard-only walk from sign-up to the downloaded PDF copy. Nothing is clicked: Tab
 * moves, typing fills, arrows and Space choose, Enter acts, and at every stop the focused element
 * shows its focus ring.
 */
test('sign up, confirm, sign in, fill three pages, submit and download the copy with the keyboard alone', async ({ page }) => {
  test.setTimeout(240_000);
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
});
