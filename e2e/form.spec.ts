import { expectNoAxeViolations } from './axe';
import type { Locator } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { mouse, touch } from './support/hands';
import { PASSWORD, uniqueEmail } from './support/accounts';
import { codeIn, waitForMail } from './support/mail';
import { choose, fill, fillAbout, fillEducation, fillFinalSteps, pick } from './support/form';

/**
 * The form as an applicant fills it. A real browser: the pages render from the catalogue, focus and
 * scrolling follow the error summary, axe reads the rendered page. The real server: answers are
 * saved, validated again at submit and read back through the API.
 */

/** spec/platform.md §1: said on the first page and the completion page (issue 28). */
const NO_FEE = 'There is no application fee, and every applicant is automatically considered for scholarships.';

/**
 * The whole journey by one hand (issue 48): sign-up, the code from the e-mail, sign-in, three pages,
 * the summary's fix, submit and the PDF copy, at 1280 px with the mouse alone and at 390 px with a
 * finger alone (the phone project touches); e2e/keyboard.spec.ts walks it by the keyboard. A real
 * browser and server: what each hand sends is what is stored, and a single tab never meets a 409.
 */
test('sign-up to the PDF copy by one hand: the mouse at 1280 px, a finger at 390 px, every answer stored as typed', { tag: '@layout' }, async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const byTouch = testInfo.project.name === 'phone';
  const hands = byTouch ? touch : mouse;
  const activate = (locator: Locator) => (byTouch ? locator.tap() : locator.click());
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/answer') && response.status() === 409) refused.push(response.request().postData() ?? '');
  });
  const email = uniqueEmail(byTouch ? 'touch' : 'mouse');

  await page.goto('/signup');
  await hands.fill(page, 'username', email);
  await hands.fill(page, 'password', PASSWORD);
  await hands.press(page, 'Create Account');
  await expect(page).toHaveURL(/\/confirm$/);
  await hands.fill(page, 'code', codeIn(await waitForMail(email)));
  await hands.press(page, 'Confirm Account');
  await expect(page).toHaveURL(/\/login$/);
  await hands.fill(page, 'password', PASSWORD);
  await hands.press(page, 'Sign In');
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { name: "You're in! Now, let's get started on your application!" })).toBeVisible();
  await expect(page.getByText(NO_FEE)).toBeVisible();
  await expectNoAxeViolations(page);

  await fillAbout(page, {}, hands);
  await expectNoAxeViolations(page);
  await hands.press(page, 'Save & Continue');
  await expect(page).toHaveURL(/\/education$/);
  await fillEducation(page, hands);
  await expectNoAxeViolations(page);
  await hands.press(page, 'Save & Continue');
  await expect(page).toHaveURL(/\/final-steps$/);
  await fillFinalSteps(page, { signature: false }, hands);
  await hands.press(page, 'Save and Submit');

  // Something is missing: the default route with the error summary, focused, and the title says so.
  await expect(page).toHaveURL(/\/about$/);
  const summary = page.getByRole('region', { name: "We're missing some information!" });
  await expect(summary).toBeFocused();
  await expect(page).toHaveTitle(/^Error: About You/);
  await expect(summary.getByRole('link')).toHaveText(['Full Legal Name']);
  await expectNoAxeViolations(page);
  await activate(summary.getByRole('link', { name: 'Full Legal Name' }));
  await expect(page).toHaveURL(/\/final-steps#signature$/);
  await expect(page.locator('#signature')).toBeFocused();
  await expect(page.locator('#signature-error')).toHaveText('Error: Full Legal Name');
  await expectNoAxeViolations(page);
  await page.keyboard.type('Jordan Rivera');
  await hands.press(page, 'Save and Submit');

  await expect(page).toHaveURL(/\/completion$/);
  await expect(page.locator('.toast').filter({ hasText: 'Your application was successfully submitted.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Thanks, Jordan!' })).toBeVisible();
  await expect(page.getByText(NO_FEE)).toBeVisible();
  await expectNoAxeViolations(page);

  const profile = await (await page.request.get('/api/profile')).json();
  expect(profile.answer).toMatchObject({
    first_name: 'Jordan',
    last_name: 'Rivera',
    birth_date: '2008-04-17',
    phone_mobile: '(303) 555-0142',
    address_line_1: '1200 Larimer St',
    city: 'Denver',
    zip: '80204',
    country: 'USA',
    country_desc: 'United States',
    state: 'Colorado',
    citizenship_type: 'C',
    citizenship_type_desc: 'U.S. citizen or U.S. national',
    parent_first_name: 'Ana',
    sibling_first_name: 'Sam',
    sibling_age: '12',
    sibling_2_first_name: 'Lee',
    sibling_2_relationship: 'Sister',
    applied_major: 'Biology',
    hs_name: 'East High School',
    hs_ceeb: expect.stringMatching(/^\d{6}$/),
    hs_city: 'Denver',
    hs_2_name: 'Denver School of the Arts',
    conviction: 'N',
    legal_agree: true,
    signature: 'Jordan Rivera',
  });
  expect(refused, 'a save refused as changed elsewhere, in a single tab').toEqual([]);

  const link = page.getByRole('link', { name: 'Download a PDF copy of your application' });
  await expect(link).toBeVisible({ timeout: 90_000 });
  const download = page.waitForEvent('download');
  await activate(link);
  expect((await download).suggestedFilename()).toMatch(/^Rivera_Jordan_\d+_Application\.pdf$/);
  // Submitted applications stay on /completion.
  await page.goto('/about');
  await expect(page).toHaveURL(/\/completion$/);
});

test("a visitor's Save & Continue leads to /signup and the answers reach the new account", async ({ page }) => {
  const email = uniqueEmail('visitor');
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'Hello!' })).toBeVisible();
  await fill(page, 'first_name', 'Robin');
  await fill(page, 'preferred_name', 'Rob');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/confirm$/);
  await page.getByLabel('Confirmation Code').fill(codeIn(await waitForMail(email)));
  await page.getByRole('button', { name: 'Confirm Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.locator('#first_name')).toHaveValue('Robin');
  await expect(page.locator('#preferred_name')).toHaveValue('Rob');
});

test('conditional questions appear, and hidden answers are cleared', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  await expect(page.locator('#citizenship')).toHaveCount(0);
  await pick(page, 'citizenship_type', 'N');
  await choose(page, 'citizenship', 'CAN');
  await expect(page.locator('#citizenship_visa_status')).toBeVisible();
  await pick(page, 'citizenship_type', 'C');
  await expect(page.locator('#citizenship')).toHaveCount(0);
  await pick(page, 'citizenship_type', 'R');
  await expect(page.locator('#citizenship')).toHaveValue('');

  // The state dropdown follows the country, and a new country clears the old state.
  await expect(page.locator('#state')).toHaveCount(0);
  await choose(page, 'country', 'USA');
  await choose(page, 'state', 'Colorado');
  await choose(page, 'country', 'CAN');
  await expect(page.locator('#state')).toHaveValue('');
  await choose(page, 'state', 'Quebec');
  await choose(page, 'country', 'FRA');
  await expect(page.locator('#state')).toHaveCount(0);
});

test('autosave keeps what was typed without pressing a button', async ({ page, applicant: _ }) => {
  // The page's clock: the 1.5 s after typing stops pass at once.
  await page.clock.install();
  await page.goto('/about');
  await fill(page, 'middle_name', 'Quinn');
  await page.clock.runFor(1_500);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const profile = await (await page.request.get('/api/profile')).json();
  expect(profile.answer.middle_name).toBe('Quinn');
});

test('each form page has no axe violations while empty', async ({ page }) => {
  for (const [path, heading] of [['/about', 'About You'], ['/education', 'Academics'], ['/final-steps', 'Final Steps']]) {
    await page.goto(path!);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoAxeViolations(page);
  }
});

test('the additional information sits behind a confirmation button', async ({ page }) => {
  await page.goto('/final-steps');
  await expect(page.locator('#additional_info_essay')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add additional information' }).click();
  // Two ways to answer, as tabs: a visitor cannot upload yet, and can write instead.
  await expect(page.getByRole('tab', { name: 'Upload a document' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('This question can be finished once you have created an account.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('tab', { name: 'Write it here' }).click();
  await expect(page.getByRole('textbox', { name: 'Additional information' })).toBeVisible();
  await expect(page.getByText('This question can be finished once you have created an account.')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('the Help and Privacy modals have no axe violations', async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('button', { name: 'Help' }).click();
  await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Help' })).toContainText('apply-help@northfield.example.edu');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Privacy' }).click();
  await expect(page.getByRole('dialog', { name: 'Privacy' })).toContainText('Cookie Notice');
  await expectNoAxeViolations(page);
});

// Issue 28: a group added by mistake can be taken away; a real server keeps the count and the answers.
test('a sibling added by mistake is removed, asking first when it holds answers; the next one moves up', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  const add = page.getByRole('button', { name: 'Add another sibling' });
  await add.click();
  await add.click();
  await page.locator('#sibling_2_first_name').fill('Mistake');
  await page.locator('#sibling_3_first_name').fill('Cat');
  await page.getByRole('button', { name: 'Remove Sibling 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Sibling 2?' });
  await expect(dialog).toContainText('Its answers will be cleared.');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('#sibling_2_first_name')).toHaveValue('Cat');
  await expect(page.locator('#sibling_3_first_name')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  await expect.poll(async () => (await (await page.request.get('/api/add-another')).json()).add_sibling).toBe(2);
  await expect.poll(async () => (await (await page.request.get('/api/profile')).json()).answer).toMatchObject({ sibling_2_first_name: 'Cat' });
  expect((await (await page.request.get('/api/profile')).json()).answer.sibling_3_first_name).toBeUndefined();
  // An empty one goes at once.
  await add.click();
  await expect(page.locator('#sibling_3_first_name')).toHaveValue('');
  await page.getByRole('button', { name: 'Remove Sibling 3' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('#sibling_3_first_name')).toHaveCount(0);
  await expect(page.locator('#sibling_2_first_name')).toHaveValue('Cat');
});

// Issue 28, 12: what a screen of a given size shows first, and how wide each input is, needs a browser's layout.
test('the first question is on the first screen, and inputs are as wide as what they hold', { tag: '@layout' }, async ({ page, applicant: _ }) => {
  await page.goto('/about');
  const viewport = page.viewportSize()!;
  const first = (await page.locator('main').locator('input, select').first().boundingBox())!;
  expect(first.y + first.height).toBeLessThanOrEqual(viewport.height);
  const width = async (key: string) => (await page.locator(`#${key}`).boundingBox())!.width;
  await page.locator('#zip').scrollIntoViewIfNeeded();
  expect(await width('zip')).toBeLessThan(await width('address_line_1'));
  // Nothing is wider than the page on a phone.
  for (const key of ['address_line_1', 'zip', 'country', 'phone_home']) expect(await width(key), key).toBeLessThanOrEqual(viewport.width - 32);
});
