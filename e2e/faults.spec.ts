import { expect, test } from '@playwright/test';
import { confirmedAccount, savedAnswers, signInThroughUi, uniqueEmail } from './support/accounts';

/**
 * Issue 13's fault suite, the page's side: while the server answers 503 (its database gone, its
 * disk full) the typing stays on the page, the applicant is told it is not saved yet, and the
 * page tries again by itself until the server is back, with nothing retyped.
 */
test('a save that meets 503 stays on the page and is sent again, with back-off, until the server is back', async ({ page }) => {
  const email = uniqueEmail('outage');
  await confirmedAccount(page.request, email);
  await signInThroughUi(page, email);

  // The database is gone for the next two saves.
  let refused = 0;
  await page.route('**/api/answer', async (route) => {
    if (route.request().method() === 'PUT' && refused < 2) {
      refused++;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'retry-after': '30' },
        body: JSON.stringify({ message: 'The portal is not available for a moment. Everything you saved before is safe; please try again in a few minutes.', code: 'UNAVAILABLE' }),
      });
    }
    return route.continue();
  });

  await page.locator('#first_name').fill('Outage');
  await expect(page.getByRole('status').filter({ hasText: 'Not saved yet: we will try again in a moment.' })).toBeVisible();
  await expect(page.locator('#first_name')).toHaveValue('Outage');
  // No one touches the page: the retries alone get it saved once the server answers again.
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 45_000 });
  expect(refused).toBe(2);
  expect((await savedAnswers(page.request)).first_name).toBe('Outage');
});
