import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { uniqueEmail } from './support/accounts';
import { waitForMail } from './support/mail';

/**
 * A visitor's answers kept under a private link. A real browser: two browsers, the link opened in
 * the second; the real server keeps the answers and e-mails the link.
 */

test("a visitor's answers saved for later come back in a fresh browser", async ({ page, browser }) => {
  const email = uniqueEmail('later');
  await page.goto('/about');
  await page.locator('#first_name').fill('Robin');
  await page.locator('#city').fill('Boulder');
  await page.getByRole('button', { name: 'Save and finish later' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save and Finish Later' });
  await dialog.getByLabel('Email Address (optional)').fill(email);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Save my answers' }).click();
  const link = dialog.getByRole('link');
  await expect(link).toHaveText(/\/about\?token=/);
  const url = new URL((await link.textContent())!);
  expect((await waitForMail(email)).text).toContain(url.search);
  await expectNoAxeViolations(page);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url.pathname + url.search);
  await expect(other.locator('#first_name')).toHaveValue('Robin');
  await expect(other.locator('#city')).toHaveValue('Boulder');
  await expect(other.locator('.toast').filter({ hasText: 'Your saved answers are back.' })).toBeVisible();
  await expect(other).toHaveURL(/\/about$/);
  await fresh.close();
});

test('an unknown or malformed saved-answers link says so clearly and shows the form', async ({ page }) => {
  for (const token of ['x'.repeat(43), 'cut-short']) {
    await page.goto(`/about?token=${token}`);
    const toast = page.locator('.toast').filter({ hasText: 'Saved Answers Error' });
    await expect(toast).toContainText('This link to saved answers has expired or is not valid. Your answers could not be restored.');
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);
    await toast.getByRole('button', { name: 'Close Saved Answers Error' }).click();
  }
});
