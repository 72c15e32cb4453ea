import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, type RenderResult } from 'vitest-browser-react';
import { userEvent, type Locator } from 'vitest/browser';
import { recommenderMessages } from '../../../domain/recommenders';
import { expectNoViolationsAtBothWidths } from '../../test/axe';
import { tap } from '../../test/hands';
import { fakeApplicantServer, FormHarness } from './testing/formHarness';

/**
 * The form as people use it (issue 48): a choice made with a mouse, a finger or the keyboard, then
 * the field left by Tab, a click elsewhere or a step button; what the box shows and what the
 * server stored. In the real provider, answers store and groups: the school picked with the mouse
 * was erased there, and nowhere else (LookupField.browser.test.tsx drives the field on its own).
 */

const suggestions = [
  { text: 'East High School', id: '060385', sub_text: 'Denver, CO 80206' },
  { text: 'Eastlake High School', id: '481234', sub_text: 'Sammamish, WA 98074' },
];
const eastHigh = { id: '060385', name: 'East High School', ceeb: '060385', city: 'Denver', state: 'Colorado', zip: '80206', country: 'USA' };
const lookups = (query: URLSearchParams) =>
  query.has('text') ? suggestions.filter((s) => s.text.toLowerCase().startsWith(query.get('text')!.toLowerCase())) : query.get('id') === eastHigh.id ? eastHigh : null;
const school = { hs_name: 'East High School', hs_ceeb: '060385', hs_city: 'Denver', hs_state: 'Colorado', hs_state_desc: 'Colorado', hs_zip: '80206', hs_country: 'USA', hs_country_desc: 'United States' };

/** A mouse, a finger, the keyboard: each picks the option from the open list. */
const hands = {
  pointer: (option: Locator) => option.click(),
  touch: (option: Locator) => tap(option),
  keyboard: async (option: Locator) => {
    const index = Number(option.element().id.replace(/^.*-option-/, ''));
    for (let i = 0; i <= index; i++) await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{Enter}');
  },
};
/** Ways to leave the field once a school is chosen. */
const leaving = {
  Tab: () => userEvent.tab(),
  'a click on City': (screen: RenderResult) => screen.getByRole('textbox', { name: 'City' }).first().click(),
  'Save & Continue': (screen: RenderResult) => screen.getByRole('button', { name: 'Save & Continue' }).click(),
};

afterEach(() => {
  vi.unstubAllGlobals();
  // Drafts and carries are kept in the browser for the account: each test starts from none.
  localStorage.clear();
  sessionStorage.clear();
});

describe.each(Object.keys(hands) as (keyof typeof hands)[])('the school picked by %s', (hand) => {
  it.each(Object.keys(leaving) as (keyof typeof leaving)[])('stays in the box and is stored, the field left by %s', async (way) => {
    const server = fakeApplicantServer({ lookups });
    const screen = await render(<FormHarness page="education" />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await input.click();
    await userEvent.keyboard('east high');
    const option = screen.getByRole('option', { name: /^East High School/ });
    await expect.element(option).toBeVisible();
    await hands[hand](option);
    await expect.element(screen.getByRole('textbox', { name: 'CEEB Code' })).toHaveValue('060385');
    await expect.element(input).toHaveValue('East High School');
    await leaving[way](screen);
    // What the box shows once the field is left (the step button opens the next page: Back
    // returns to it), and what is saved (by the button, or autosave).
    if (way === 'Save & Continue') {
      await expect.element(screen.getByRole('heading', { level: 1, name: 'Final Steps' })).toBeVisible();
      await screen.getByRole('button', { name: 'Back' }).click();
    }
    await expect.element(input).toHaveValue('East High School');
    await vi.waitFor(() => expect(server.answers).toMatchObject(school), { timeout: 5000 });
    expect(server.saves.every((save) => save.body.hs_name !== '')).toBe(true);
  });

  it('"Use: <typed name>" keeps the typed name, shown and stored', async () => {
    const server = fakeApplicantServer({ lookups });
    const screen = await render(<FormHarness page="education" />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await input.click();
    await userEvent.keyboard('Rivera Homeschool');
    const option = screen.getByRole('option', { name: 'Use: Rivera Homeschool' });
    await expect.element(option).toBeVisible();
    await hands[hand](option);
    await screen.getByRole('textbox', { name: 'City' }).first().click();
    await expect.element(input).toHaveValue('Rivera Homeschool');
    await vi.waitFor(() => expect(server.answers).toMatchObject({ hs_name: 'Rivera Homeschool' }), { timeout: 5000 });
  });
});

/** Choices made by a hand: a pointer clicks, a finger taps; a native list and a phone's date picker are the browser's own. */
const chooser = {
  pointer: { act: (locator: Locator) => locator.click(), date: async (locator: Locator) => {
    await locator.click();
    await userEvent.keyboard('04172008');
  } },
  touch: { act: (locator: Locator) => tap(locator), date: (locator: Locator) => userEvent.fill(locator, '2008-04-17') },
};

describe.each(Object.keys(chooser) as (keyof typeof chooser)[])('About You by %s', (hand) => {
  it('a radio, a checkbox, a dropdown, a date and an added sibling: shown and stored as chosen', async () => {
    const { act, date } = chooser[hand];
    const server = fakeApplicantServer();
    const screen = await render(<FormHarness page="about" />);
    await expect.element(screen.getByRole('heading', { level: 1, name: 'About You' })).toBeVisible();
    await act(screen.getByRole('radio', { name: 'U.S. citizen or U.S. national' }));
    await act(screen.getByRole('checkbox', { name: 'Send me text message updates about my application.' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Country', exact: true }).first(), 'CAN');
    await date(screen.getByLabelText('Birth Date'));
    await act(screen.getByRole('button', { name: 'Add another sibling' }));
    const second = screen.getByRole('group', { name: 'Sibling 2' }).getByRole('textbox', { name: 'First Name' });
    await act(second);
    await userEvent.keyboard('Lee');
    await expect.element(screen.getByRole('radio', { name: 'U.S. citizen or U.S. national' })).toBeChecked();
    await expect.element(screen.getByRole('checkbox', { name: 'Send me text message updates about my application.' })).toBeChecked();
    await act(screen.getByRole('button', { name: 'Save & Continue' }));
    await expect.element(screen.getByRole('heading', { level: 1, name: 'Academics' })).toBeVisible();
    expect(server.answers).toMatchObject({
      citizenship_type: 'C',
      citizenship_type_desc: 'U.S. citizen or U.S. national',
      optin_sms_ind: true,
      country: 'CAN',
      country_desc: 'Canada',
      birth_date: '2008-04-17',
      sibling_2_first_name: 'Lee',
    });
  });
});

// Issue 49 item 1: a waiver a recommender was asked under binds their letter; the form says so.
describe('the waiver, once a recommender was asked under it', () => {
  it('is shown answered and frozen, saying why; the rest of Final Steps is answered and saved as ever', async () => {
    const server = fakeApplicantServer({ answers: { counselor_waiver_request: 'Y', counselor_waiver_request_desc: 'Yes' }, boundAnswers: ['counselor_waiver_request'] });
    const screen = await render(<FormHarness page="final-steps" />);
    const waiver = screen.getByRole('group', { name: 'Do you waive your right to see the recommendations written for you?' });
    await expect.element(waiver).toHaveAccessibleDescription(expect.stringContaining(recommenderMessages.waiverBound));
    await expect.element(waiver.getByRole('radio', { name: 'Yes' })).toBeChecked();
    // Disabled: no click, tap or key reaches it (the browser's own rule; Playwright's hands refuse a disabled target).
    await expect.element(waiver.getByRole('radio', { name: 'No' })).toBeDisabled();
    await expect.element(waiver.getByRole('radio', { name: 'Yes' })).toBeDisabled();
    await screen.getByRole('textbox', { name: 'Full Legal Name' }).click();
    await userEvent.keyboard('Jordan Rivera');
    await userEvent.tab();
    await vi.waitFor(() => expect(server.answers).toMatchObject({ signature: 'Jordan Rivera', counselor_waiver_request: 'Y' }), { timeout: 5000 });
    expect(server.saves.some((save) => 'counselor_waiver_request' in save.body)).toBe(false);
    await expectNoViolationsAtBothWidths();
  });

  it('is offered as any question while no such request stands', async () => {
    fakeApplicantServer({ answers: { counselor_waiver_request: 'Y', counselor_waiver_request_desc: 'Yes' } });
    const screen = await render(<FormHarness page="final-steps" />);
    const waiver = screen.getByRole('group', { name: 'Do you waive your right to see the recommendations written for you?' });
    await expect.element(waiver.getByRole('radio', { name: 'No' })).toBeEnabled();
    expect(screen.getByText(recommenderMessages.waiverBound).query()).toBeNull();
    // The page's first calls answered by the fake server before the test ends (a late one would reach the real proxy).
    const calls = () => vi.mocked(fetch).mock.calls.map(([request]) => `${(request as Request).method} ${new URL((request as Request).url).pathname}`);
    await vi.waitFor(() => expect(calls()).toContain('PUT /api/last-page'));
  });
});
