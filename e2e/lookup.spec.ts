import { expectNoAxeViolations } from './axe';
import { expect, test } from './support/fixtures';
import { chooseSchool, openStep } from './support/form';

/**
 * The school search against the lists the server ships. A real browser: the combobox as a screen
 * reader and a keyboard meet it; the real server: the search, and what is saved.
 */

const MANUAL = 'Enter your school information below.';

test('the school search: part of a name, the list read out and axe-clean, chosen with the keyboard, the school fields filled and saved', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  await openStep(page, 'Academics');
  const search = page.getByRole('combobox', { name: 'Search for Your School' });
  await expect(search).toHaveAttribute('placeholder', 'Select...');

  await search.pressSequentially('east high den');
  const list = page.locator('#hs_name-listbox');
  await expect(list.getByRole('option').first()).toContainText('East High School');
  await expect(list.getByRole('option').first()).toContainText('Denver, CO 80206');
  await expect(list.getByRole('option').last()).toHaveText('Use: east high den');
  await expect(search).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('status').filter({ hasText: /results? available/ })).toHaveCount(1);
  await expectNoAxeViolations(page);

  await search.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-activedescendant', 'hs_name-option-0');
  await search.press('Enter');
  await expect(search).toHaveValue('East High School');
  await expect(page.locator('#hs_ceeb')).toHaveValue('060400');
  await expect(page.locator('#hs_city')).toHaveValue('Denver');
  await expect(page.locator('#hs_country')).toHaveValue('USA');
  await expect(page.locator('#hs_state')).toHaveValue('Colorado');
  await expect(page.locator('#hs_zip')).toHaveValue('80206');
  await expect(page.getByText(MANUAL)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'East High School chosen. Its details are filled in below.' })).toHaveCount(1);

  // Autosaved with the labels of the dropdowns.
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get('/api/profile')).json()).answer)
    .toMatchObject({ hs_name: 'East High School', hs_ceeb: '060400', hs_city: 'Denver', hs_state: 'Colorado', hs_state_desc: 'Colorado', hs_zip: '80206', hs_country: 'USA', hs_country_desc: 'United States' });
});

test('a school not in the list: Use: <text> keeps it, asks for the rest, and forgets everything the school chosen before filled in', async ({ page, applicant: _ }) => {
  await page.goto('/about');
  await openStep(page, 'Academics');
  await chooseSchool(page, 'hs_name', 'denver school of the', /Denver School Of The Arts/);
  await expect(page.locator('#hs_ceeb')).toHaveValue('060443');

  const search = page.locator('#hs_name');
  await search.fill('');
  await search.pressSequentially('Rivera Family Homeschool');
  const options = page.locator('#hs_name-listbox [role="option"]');
  await expect(options.last()).toHaveText('Use: Rivera Family Homeschool');
  await expect(page.locator('.lookup__message')).toHaveText('No options');
  await expectNoAxeViolations(page);
  const count = await options.count();
  for (let i = 0; i < count; i++) await search.press('ArrowDown');
  await search.press('Enter');
  await expect(search).toHaveValue('Rivera Family Homeschool');
  await expect(page.getByText(MANUAL)).toBeVisible();
  await expect(page.locator('#hs_ceeb')).toHaveValue('');
  // Issue 12 item 10: nothing of the school chosen before stays to be sent with this one.
  await expect(page.locator('#hs_city')).toHaveValue('');
  await expect(page.locator('#hs_zip')).toHaveValue('');
  await expect(page.locator('#hs_address_line_1')).toHaveValue('');
  await expectNoAxeViolations(page);
});
