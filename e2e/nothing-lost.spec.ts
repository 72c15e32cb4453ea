import { expect, test } from '@playwright/test';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { confirmedAccount, signInThroughUi, uniqueEmail } from './support/accounts';

/** Issue "Nothing an applicant types is lost": each test is one numbered item of it. */

test('4: while validating, a field that turns invalid again does not send focus to the error summary mid-typing', async ({ page }) => {
  const email = uniqueEmail('summary-focus');
  await confirmedAccount(page.request, email);
  await signInThroughUi(page, email);
  // Everything answered but the signature, and the application already validating.
  const { signature: _left, ...allButSignature } = completeApplication;
  expect((await page.request.put('/api/answer', { data: allButSignature })).ok()).toBe(true);
  for (const web_status of ['started', 'validating']) expect((await page.request.post('/api/web-status', { data: { web_status } })).ok()).toBe(true);

  await page.reload();
  const summary = page.getByRole('region', { name: "We're missing some information!" });
  await expect(summary).toBeFocused();
  await summary.getByRole('link', { name: 'Full Legal Name' }).click();
  const signature = page.locator('#signature');
  await expect(signature).toBeFocused();
  await page.keyboard.type('J');
  await expect(summary).toBeHidden();
  // Cleared: the field is missing again and the summary comes back, but the typing goes on in the field.
  await page.keyboard.press('Backspace');
  await expect(summary).toBeVisible();
  await page.keyboard.type('Jordan Rivera');
  await expect(signature).toHaveValue('Jordan Rivera');
  await expect(signature).toBeFocused();
});

test('9: typing a country by its common name in the dropdown picks it', async ({ page }) => {
  for (const [typed, value] of [
    ['China', 'CHN'],
    ['Iran', 'IRN'],
    ['Tanzania', 'TZA'],
    ['Moldova', 'MDA'],
  ] as const) {
    // A fresh page for each: the native type-ahead keeps what was typed for a moment.
    await page.goto('/about');
    const country = page.locator('#country');
    await country.focus();
    await page.keyboard.type(typed);
    await expect(country).toHaveValue(value);
    await expect(country.locator('option:checked')).toHaveText(typed);
  }
});
