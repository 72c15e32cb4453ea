import type { Page } from '@playwright/test';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { expect, test } from './support/fixtures';
import { confirmedAccount, logOut, savedAnswers, signInOnCard, uniqueEmail } from './support/accounts';
import { expectNoAxeViolations } from './axe';
import { openStep } from './support/form';

/**
 * Issue "Nothing an applicant types is lost": each test is one numbered item of it. A real browser:
 * focus, clicks, history, reloads and closed tabs; the real server: what it saved is read back.
 */

test('4: while validating, a field that turns invalid again does not send focus to the error summary mid-typing', async ({ page, applicant: _ }) => {
  await page.goto('/about');
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

test('8: switching tabs asks before removing a written answer, and Cancel keeps it', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  await openStep(page, 'Final Steps');
  await page.getByRole('button', { name: 'Add additional information' }).click();
  await page.getByRole('tab', { name: 'Write it here' }).click();
  const essay = page.getByRole('textbox', { name: 'Additional information' });
  await essay.fill('Why I want to study here.');
  await page.getByRole('tab', { name: 'Upload a document' }).click();
  const ask = page.getByRole('dialog', { name: 'Switch to Upload a document?' });
  await expect(ask).toContainText('Switching removes what you wrote in Additional information. This cannot be undone.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('tab', { name: 'Write it here' })).toHaveAttribute('aria-selected', 'true');
  await expect(essay).toHaveValue('Why I want to study here.');
});

test('13: with no file uploaded, a slow status call does not hold a tab switch', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  // The status of the (empty) upload question never answers.
  await page.route('**/api/pdf/document-answer/additional_info_doc', () => {});
  await openStep(page, 'Final Steps');
  await page.getByRole('button', { name: 'Add additional information' }).click();
  await page.getByRole('tab', { name: 'Write it here' }).click();
  await expect(page.getByRole('tab', { name: 'Write it here' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Additional information' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'File Upload in Progress' })).toBeHidden();
});

test("6: a visitor's answers come back with the browser's Back button", async ({ page }) => {
  for (const leave of ['Save & Continue', 'Create Account'] as const) {
    await page.goto('/about');
    await page.locator('#first_name').fill('Robin');
    await page.locator('#city').fill('Boulder');
    if (leave === 'Save & Continue') await page.getByRole('button', { name: 'Save & Continue' }).click();
    else {
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('link', { name: 'Create Account' }).click();
    }
    await expect(page).toHaveURL(/\/signup$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.locator('#first_name')).toHaveValue('Robin');
    await expect(page.locator('#city')).toHaveValue('Boulder');
  }
});

test('11: the mailing address and a second parent have headings of their own', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'Mailing Address' })).toHaveCount(0);
  await page.locator('input[name="mailing_addr_same_as_perm_addr"][value="N"]').check();
  await expect(page.getByRole('heading', { name: 'Mailing Address' })).toBeVisible();
  await page.locator('#parent_marital_status').selectOption('Married');
  await expect(page.getByRole('heading', { name: 'Primary Parent/Guardian' })).toBeVisible();
  await page.locator('input[name="parent_2_living"][value="Y"]').check();
  await expect(page.getByRole('heading', { name: 'Secondary Parent/Guardian' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('5: the first click after typing in a flagged text area lands where it was aimed', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  // Validating, with the conviction answered Yes and its explanation still missing.
  const { conviction_comment: _missing, ...rest } = completeApplication;
  expect((await page.request.put('/api/answer', { data: { ...rest, conviction: 'Y' } })).ok()).toBe(true);
  for (const web_status of ['started', 'validating']) expect((await page.request.post('/api/web-status', { data: { web_status } })).ok()).toBe(true);
  await page.reload();
  await openStep(page, 'Final Steps');
  const explain = page.locator('#conviction_comment');
  await expect(page.locator('#conviction_comment-error')).toBeVisible();
  await explain.fill('A parking ticket in 2024, paid the same week.');
  // The error line goes when the text area loses focus to this very click: the click still lands.
  await page.locator('input[name="suspended"][value="Y"]').click();
  await expect(page.locator('input[name="suspended"][value="Y"]')).toBeChecked();
  await expect(page.locator('#conviction_comment-error')).toHaveCount(0);
  await expect(explain).toHaveValue('A parking ticket in 2024, paid the same week.');
});

test('7: a text-area draft survives a reload and a closed tab before it was ever committed, and leaves the browser at logout', async ({ page, context, applicant: _ }) => {
  await page.goto('/about');
  await openStep(page, 'Final Steps');
  await page.locator('input[name="conviction"][value="Y"]').check();
  const essay = 'A parking ticket in 2024, paid the same week. '.repeat(20).trim();
  const explain = page.locator('#conviction_comment');
  await explain.click();
  await page.keyboard.insertText(essay);
  // Reloaded while the text area still has focus (never blurred, never committed).
  await page.reload();
  await expect(page.locator('#conviction_comment')).toHaveValue(essay);

  await page.locator('#conviction_comment').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Closed the tab.');
  await page.close();
  const again = await context.newPage();
  await again.goto('/about');
  await openStep(again, 'Final Steps');
  await expect(again.locator('#conviction_comment')).toHaveValue(`${essay} Closed the tab.`);
  await expect
    .poll(async () => (await savedAnswers(again.request)).conviction_comment)
    .toBe(`${essay} Closed the tab.`);

  await logOut(again);
  expect(await again.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('portal.drafts')))).toEqual([]);
});

test.describe('nothing lost', () => {
  /** One answer of every kind of field, as the applicant types it and as the page shows it. */
  const about = { first_name: 'Quinn', birth_date: '2008-04-17', phone_mobile: '(303) 555-0142', country: 'USA' } as const;
  const essay = 'I was fined for a parking ticket in 2024 and paid it the same week.';

  async function typeEveryKind(page: Page) {
    await page.locator('#first_name').fill(about.first_name);
    await page.locator('#birth_date').fill(about.birth_date);
    await page.locator('#phone_mobile').pressSequentially('3035550142');
    await page.locator('#country').selectOption(about.country);
    await page.locator('input[name="citizenship_type"][value="C"]').check();
    await page.locator('#optin_sms_ind').check();
  }

  async function expectEveryKind(page: Page) {
    for (const [key, value] of Object.entries(about)) await expect(page.locator(`#${key}`)).toHaveValue(value);
    await expect(page.locator('input[name="citizenship_type"][value="C"]')).toBeChecked();
    await expect(page.locator('#optin_sms_ind')).toBeChecked();
    await openStep(page, 'Final Steps');
    await expect(page.locator('input[name="conviction"][value="Y"]')).toBeChecked();
    await expect(page.locator('#conviction_comment')).toHaveValue(essay);
    // Back on About You once its visit is recorded: no call of this page is still to come.
    const recorded = page.waitForResponse((response) => response.url().endsWith('/api/last-page'));
    await openStep(page, 'About You');
    await recorded;
  }

  async function expectNoneOf(page: Page) {
    for (const key of Object.keys(about)) await expect(page.locator(`#${key}`)).not.toHaveValue(about[key as keyof typeof about]);
    await expect(page.locator('#optin_sms_ind')).not.toBeChecked();
    await openStep(page, 'Final Steps');
    await expect(page.locator('#conviction_comment')).toHaveCount(0);
    const saved = await savedAnswers(page.request);
    for (const key of [...Object.keys(about), 'optin_sms_ind', 'conviction', 'conviction_comment']) expect(saved[key] ?? '').toBe('');
    await openStep(page, 'About You');
  }

  test('every kind of field survives a reload, Back, a lost session, expiry and an account switch, in its own account only', async ({ page, applicant: { email: owner }, serverClock }) => {
    test.setTimeout(180_000);
    const other = uniqueEmail('lost-other');
    await confirmedAccount(page.request, other);
    await page.clock.install();
    await page.goto('/about');
    await typeEveryKind(page);
    await openStep(page, 'Final Steps');
    await page.locator('input[name="conviction"][value="Y"]').check();
    await page.locator('#conviction_comment').fill(essay);

    // Back while the text area still has focus: nothing typed there is lost either.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    await expectEveryKind(page);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    await expectEveryKind(page);

    // The session is lost (its cookie gone) while a new answer is typed. Once the reload's own
    // calls are answered: one still under way would meet the missing cookie first and take the page
    // to Sign In before the answer is typed (CI, 2026-11-26).
    await page.waitForLoadState('networkidle');
    await page.context().clearCookies({ name: 'portal_session' });
    await page.locator('#last_name').fill('Lane');
    await page.clock.runFor(2_000);
    await expect(page).toHaveURL(/\/login$/);
    await signInOnCard(page, owner);
    await expect(page.locator('#last_name')).toHaveValue('Lane');
    await expectEveryKind(page);

    // Fifteen idle minutes on both clocks: signed out with the message, everything kept.
    await page.locator('#last_name').fill('Lane-Idle');
    await serverClock.advance(15 * 60_000 + 1_000);
    await page.clock.runFor(15 * 60_000 + 1_000);
    await expect(page.getByRole('alert')).toHaveText('You have been automatically logged out due to inactivity.');
    await signInOnCard(page, owner);
    await expect(page.locator('#last_name')).toHaveValue('Lane-Idle');
    await expectEveryKind(page);

    // Another account on the same browser sees none of it, and holds none of it.
    await logOut(page);
    await signInOnCard(page, other);
    await expectNoneOf(page);
    await logOut(page);
    // Back to the form as a visitor: nothing of either account is on it.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    await expect(page.locator('#first_name')).toHaveValue('');
    await expect(page.locator('#optin_sms_ind')).not.toBeChecked();
    await page.goto('/login');
    await signInOnCard(page, owner);
    await expectEveryKind(page);
  });
});

test('12: the error summary is in form order, and two questions with the same words say which is which', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  const { first_name: _first, conviction_comment: _c, suspended_comment: _s, ...rest } = completeApplication;
  expect((await page.request.put('/api/answer', { data: { ...rest, conviction: 'Y', suspended: 'Y' } })).ok()).toBe(true);
  for (const web_status of ['started', 'validating']) expect((await page.request.post('/api/web-status', { data: { web_status } })).ok()).toBe(true);
  await page.reload();
  const summary = page.getByRole('region', { name: "We're missing some information!" });
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('link')).toHaveText([
    'Legal First Name',
    'Please explain. (Have you ever been convicted of a misdemeanor, felony or other crime?)',
    'Please explain. (Have you ever been suspended or expelled from a school?)',
  ]);
  await summary.getByRole('link', { name: /suspended or expelled/ }).click();
  await expect(page).toHaveURL(/\/final-steps#suspended_comment$/);
  await expect(page.locator('#suspended_comment')).toBeFocused();
});

// Issue 28, 11: the network goes and comes back in a real browser; the page's retry runs on its clock.
test("a failed save's error toast goes once the save has gone through", async ({ page, context, applicant: _ }) => {
  await page.clock.install();
  await page.goto('/about');
  await context.setOffline(true);
  await page.locator('#first_name').fill('Offline');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const toast = page.locator('.toast--error');
  // Issue 48: offline is said as such, and that what was typed is kept.
  await expect(toast).toContainText('We could not reach the portal: your connection seems to be down. What you typed is kept on this device and is saved once you are back online.');
  await context.setOffline(false);
  // Autosave tries again after its waits; the toast goes with the save, not after 5 minutes.
  await expect(async () => {
    await page.clock.runFor(5_000);
    await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(toast).toHaveCount(0);
  expect((await (await page.request.get('/api/profile')).json()).answer.first_name).toBe('Offline');
});
