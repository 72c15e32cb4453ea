import { expect, test } from './support/fixtures';
import { savedAnswers } from './support/accounts';

/**
 * Issue 13's fault suite, the page's side: while the server answers 503 (its database gone, its
 * disk full) the typing stays on the page, the applicant is told it is not saved yet, and the
 * page tries again by itself until the server is back, with nothing retyped. A real browser: the
 * page's own timers and its status line; the real server answers once the outage is over.
 */
test('a save that meets 503 stays on the page and is sent again, with back-off, until the server is back', async ({ page, applicant: _ }) => {
  // The page's clock: the wait after typing and the back-off pass when the test moves it.
  await page.clock.install();
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  // From here the page's time moves only when the test moves it.
  await page.clock.pauseAt(new Date(Date.now() + 5_000));

  // The database is gone for the next two saves.
  let refused = 0;
  let sent = 0;
  await page.route('**/api/answer', async (route) => {
    if (route.request().method() === 'PUT') sent++;
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
  // The page schedules its save in an effect after the typing is committed: on a busy machine that
  // can come after a single jump of the clock, which then never reaches the save. So the clock is
  // moved to just short of the wait, then on in steps of 50 ms until the save goes out. A step is
  // shorter than the margins below (100 ms), so the retries' times are still known to within them.
  await page.clock.runFor(1_400);
  await expect.poll(async () => {
    if (sent === 0) await page.clock.runFor(50);
    return sent;
  }, { intervals: [10], timeout: 20_000 }).toBe(1);
  const notSaved = page.getByRole('status').filter({ hasText: 'Not saved yet: we will try again in a moment.' });
  await expect(notSaved).toBeVisible();
  await expect(page.locator('#first_name')).toHaveValue('Outage');
  // No one touches the page: the retries alone get it saved once the server answers again, the
  // first 5 s after the failure (refused again), the next 10 s after that.
  expect(sent).toBe(1);
  await page.clock.runFor(4_900);
  expect(sent).toBe(1);
  await page.clock.runFor(100);
  await expect.poll(() => refused).toBe(2);
  await expect(notSaved).toBeVisible();
  await page.clock.runFor(9_900);
  expect(sent).toBe(2);
  await page.clock.runFor(100);
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  expect(sent).toBe(3);
  expect(refused).toBe(2);
  expect((await savedAnswers(page.request)).first_name).toBe('Outage');
});
