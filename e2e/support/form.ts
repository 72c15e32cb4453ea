import { expect, type Page } from '@playwright/test';
import { keyboard, pointer, type Hands } from './hands';

/** Filling the three pages as an applicant would, shared by the form and document flows. */
export const fill = (page: Page, key: string, value: string) => pointer.fill(page, key, value);
export const choose = (page: Page, key: string, value: string) => pointer.choose(page, key, value);
export const pick = (page: Page, key: string, value: string) => pointer.pick(page, key, value);

/**
 * Opens a step through the step navigation, as an applicant does. Not `page.goto`: a signed-in
 * applicant who has not changed page is sent back to the stored last page, so a direct load of a
 * step races with the last-page write of the page before it.
 */
export async function openStep(page: Page, title: 'About You' | 'Academics' | 'Final Steps') {
  await page.getByRole('navigation', { name: 'Application steps' }).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

export async function fillAbout(page: Page, { citizenship = 'C' }: { citizenship?: 'C' | 'R' } = {}, hands: Hands = pointer) {
  const fill = hands.fill;
  const choose = hands.choose;
  const pick = hands.pick;
  await fill(page, 'first_name', 'Jordan');
  await fill(page, 'last_name', 'Rivera');
  await fill(page, 'birth_date', '2008-04-17');
  await fill(page, 'phone_mobile', '3035550142');
  await expect(page.locator('#phone_mobile')).toHaveValue('(303) 555-0142');
  await fill(page, 'address_line_1', '1200 Larimer St');
  await fill(page, 'city', 'Denver');
  await choose(page, 'country', 'USA');
  await choose(page, 'state', 'Colorado');
  await fill(page, 'zip', '80204');
  await pick(page, 'citizenship_type', citizenship);
  if (citizenship === 'R') {
    await choose(page, 'citizenship', 'MEX');
    await fill(page, 'alien_registration_number', 'A123456789');
  }
  await choose(page, 'parent_marital_status', 'Married');
  await choose(page, 'parent_relationship', 'Mother');
  await fill(page, 'parent_first_name', 'Ana');
  await fill(page, 'parent_last_name', 'Rivera');
  await pick(page, 'legacy_ind', 'N');
  await fill(page, 'sibling_first_name', 'Sam');
  await fill(page, 'sibling_last_name', 'Rivera');
  await fill(page, 'sibling_age', '12');
  await choose(page, 'sibling_relationship', 'Brother');
  await hands.press(page, 'Add another sibling');
  await fill(page, 'sibling_2_first_name', 'Lee');
  await fill(page, 'sibling_2_last_name', 'Rivera');
  await fill(page, 'sibling_2_age', '9');
  await choose(page, 'sibling_2_relationship', 'Sister');
}

/**
 * Types into a school search, waits for `option`, and takes it with `hands`: the keyboard's arrows
 * and Enter (the default), a click, or a tap. The box keeps the school once the field is left
 * (issue 48: a school clicked was erased).
 */
export async function chooseSchool(page: Page, key: string, typed: string, option: RegExp, hands: Hands = keyboard) {
  const input = page.locator(`#${key}`);
  await hands.focus(page, key);
  await page.keyboard.type(typed);
  const options = page.locator(`#${key}-listbox [role="option"]`);
  await expect(options.filter({ hasText: option }).first()).toBeVisible();
  // The list of the whole text, not of a part typed before it: nothing is loading any more.
  await expect(page.locator('.lookup__message', { hasText: 'Loading...' })).toHaveCount(0);
  const index = (await options.allTextContents()).findIndex((text) => option.test(text));
  await expect(page.locator(`#${key}-option-${index}`)).toHaveText(option);
  const name = (await page.locator(`#${key}-option-${index} .lookup__text`).textContent())!;
  await hands.pickOption(page, key, index);
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(input).toHaveValue(name);
}

export async function fillEducation(page: Page, hands: Hands = pointer) {
  const fill = hands.fill;
  const choose = hands.choose;
  const pick = hands.pick;
  await hands.chooseIndex(page, 'entry_term', 1);
  await choose(page, 'applied_major', 'Biology');
  await choose(page, 'career_goal', 'Health care');
  await choose(page, 'first_hear_regis', 'A campus visit');
  await pick(page, 'co_grad', 'N');
  await chooseSchool(page, 'hs_name', 'east high denver', /^East High School\s*Denver, CO 80206$/, hands);
  await choose(page, 'hs_attend_from_month', '8');
  await hands.chooseIndex(page, 'hs_attend_from_year', 4);
  await choose(page, 'grad_month', '5');
  await hands.chooseIndex(page, 'grad_year', 5);
  await hands.press(page, 'Add another high school');
  // Typed and left: kept as written (the list's spelling is "Denver School Of The Arts").
  await fill(page, 'hs_2_name', 'Denver School of the Arts');
  await choose(page, 'hs_2_attend_from_month', '8');
  await hands.chooseIndex(page, 'hs_2_attend_from_year', 6);
  await choose(page, 'hs_2_grad_month', '6');
  await hands.chooseIndex(page, 'hs_2_grad_year', 3);
}

export async function fillFinalSteps(page: Page, { signature }: { signature: boolean }, hands: Hands = pointer) {
  await hands.pick(page, 'conviction', 'N');
  await hands.pick(page, 'suspended', 'N');
  await hands.check(page, 'legal_agree');
  await hands.pick(page, 'counselor_waiver_request', 'Y');
  if (signature) await hands.fill(page, 'signature', 'Jordan Rivera');
}


/**
 * The three pages filled and submitted with `hands`, each step reached by its own button, ending
 * on /completion: the journey the proxy, scale-out and keyboard flows share.
 */
export async function fillAndSubmit(page: Page, hands: Hands = pointer) {
  await expect(page.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
  await fillAbout(page, {}, hands);
  await hands.press(page, 'Save & Continue');
  await expect(page.getByRole('heading', { level: 1, name: 'Academics' })).toBeVisible();
  await fillEducation(page, hands);
  await hands.press(page, 'Save & Continue');
  await expect(page.getByRole('heading', { level: 1, name: 'Final Steps' })).toBeVisible();
  await fillFinalSteps(page, { signature: true }, hands);
  await hands.press(page, 'Save and Submit');
  await expect(page).toHaveURL(/\/completion$/);
}
