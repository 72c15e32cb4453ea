import { expect, type Locator, type Page } from '@playwright/test';

/**
 * How a test fills the form: `mouse` (clicks, and the keys typed into the field clicked), `touch`
 * (taps, and the keys of the phone's keyboard), `keyboard` (only Tab, typing, arrows, Space and
 * Enter, checking at every stop that the focused element shows its focus), or `pointer`
 * (Playwright's fill: only to arrange a state, never to test how a control is used). The form
 * helpers take any, so the same answers are filled each way (issue 48).
 */
export interface Hands {
  /** Moves focus to the field. */
  focus(page: Page, key: string): Promise<void>;
  fill(page: Page, key: string, value: string): Promise<void>;
  /** A dropdown's option by value. */
  choose(page: Page, key: string, value: string): Promise<void>;
  /** A dropdown's option by position. */
  chooseIndex(page: Page, key: string, index: number): Promise<void>;
  /** A radio button of a group by value. */
  pick(page: Page, key: string, value: string): Promise<void>;
  check(page: Page, key: string): Promise<void>;
  /** A button by its name. */
  press(page: Page, name: string): Promise<void>;
  /** An option of an open lookup list (`index` from 0). */
  pickOption(page: Page, key: string, index: number): Promise<void>;
}

export const pointer: Hands = {
  focus: (page, key) => page.locator(`#${key}`).focus(),
  fill: (page, key, value) => page.locator(`#${key}`).fill(value),
  choose: async (page, key, value) => void (await page.locator(`#${key}`).selectOption(value)),
  chooseIndex: async (page, key, index) => void (await page.locator(`#${key}`).selectOption({ index })),
  pick: (page, key, value) => page.locator(`input[name="${key}"][value="${value}"]`).check(),
  check: (page, key) => page.locator(`#${key}`).check(),
  press: (page, name) => page.getByRole('button', { name, exact: true }).click(),
  pickOption: (page, key, index) => page.locator(`#${key}-option-${index}`).click(),
};

/** A date field's value as its parts are typed in the browser's (en-US) order: month, day, year. */
const dateKeys = (value: string) => value.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2$3$1');

/**
 * The mouse (and the keys of the field it clicked): a text's field clicked, then typed into; a
 * choice clicked. A native dropdown's list is the browser's own: Playwright's selectOption stands
 * for the click in it (and on a phone, a date's picker for the finger in it).
 */
function pointing(act: (locator: Locator) => Promise<void>, { datePicker }: { datePicker: boolean }): Hands {
  const field = (page: Page, key: string) => page.locator(`#${key}`);
  return {
    focus: (page, key) => act(field(page, key)),
    async fill(page, key, value) {
      await act(field(page, key));
      const date = (await field(page, key).getAttribute('type')) === 'date';
      // A phone's date field opens its own picker (no keys): Playwright's fill stands for it.
      if (date && datePicker) await field(page, key).fill(value);
      else await page.keyboard.type(date ? dateKeys(value) : value);
      if (date) await expect(field(page, key)).toHaveValue(value);
    },
    async choose(page, key, value) {
      await act(field(page, key));
      await field(page, key).selectOption(value);
    },
    async chooseIndex(page, key, index) {
      await act(field(page, key));
      await field(page, key).selectOption({ index });
    },
    pick: (page, key, value) => act(page.locator(`input[name="${key}"][value="${value}"]`)),
    check: (page, key) => act(field(page, key)),
    press: (page, name) => act(page.getByRole('button', { name, exact: true })),
    pickOption: (page, key, index) => act(page.locator(`#${key}-option-${index}`)),
  };
}

export const mouse: Hands = pointing((locator) => locator.click(), { datePicker: false });
/** A finger (a context with `hasTouch`): taps, and the phone's keyboard typing into the field tapped. */
export const touch: Hands = pointing((locator) => locator.tap(), { datePicker: true });

/** Tab presses that may pass between two fields of the form (its links, buttons, other fields). */
const MAX_TABS = 300;

/**
 * Presses Tab until `matches` holds for the focused element. At every stop the element that has
 * focus must show it: the focus ring of the style sheet (an outline or a shadow), never nothing.
 */
export async function tabUntil(page: Page, what: string, matches: string) {
  for (let presses = 0; presses <= MAX_TABS; presses++) {
    const stop = await page.evaluate((selector) => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return { done: false, shown: true, name: 'body' };
      const style = getComputedStyle(element);
      const shown = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return { done: element.matches(selector), shown, name: `${element.tagName.toLowerCase()}#${element.id} ${element.textContent?.trim().slice(0, 30) ?? ''}` };
    }, matches);
    if (presses > 0) expect(stop.shown, `focus is visible on ${stop.name}`).toBe(true);
    if (stop.done) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

const focusField = (page: Page, key: string) => tabUntil(page, `#${key}`, `#${key}`);

export const keyboard: Hands = {
  focus: (page, key) => focusField(page, key),
  async fill(page, key, value) {
    await focusField(page, key);
    const field = page.locator(`#${key}`);
    // A date field takes its parts in the order of its locale (en-US: month, day, year).
    const typed = (await field.getAttribute('type')) === 'date' ? value.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2$3$1') : value;
    await page.keyboard.type(typed);
    if ((await field.getAttribute('type')) === 'date') await expect(field).toHaveValue(value);
  },
  async choose(page, key, value) {
    const label = await page.locator(`#${key} option[value="${value}"]`).textContent();
    await focusField(page, key);
    // A focused dropdown picks the option whose label is typed.
    await page.keyboard.type(label!.trim());
    await expect(page.locator(`#${key}`)).toHaveValue(value);
  },
  async chooseIndex(page, key, index) {
    await focusField(page, key);
    const field = page.locator(`#${key}`);
    // Home: the first option; each ArrowDown the next one.
    await page.keyboard.press('Home');
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    expect(await field.evaluate((select: HTMLSelectElement) => select.selectedIndex)).toBe(index);
  },
  async pick(page, key, value) {
    // Tab enters a radio group once; Space checks the focused button, the arrows move and check.
    await tabUntil(page, `the ${key} choices`, `input[name="${key}"]`);
    const checked = () => page.locator(`input[name="${key}"]:checked`).getAttribute('value').catch(() => null);
    if ((await page.locator(`input[name="${key}"]:checked`).count()) === 0) await page.keyboard.press('Space');
    for (let moves = 0; moves < 20 && (await checked()) !== value; moves++) await page.keyboard.press('ArrowDown');
    await expect(page.locator(`input[name="${key}"][value="${value}"]`)).toBeChecked();
  },
  async check(page, key) {
    await focusField(page, key);
    await page.keyboard.press('Space');
    await expect(page.locator(`#${key}`)).toBeChecked();
  },
  async pickOption(page, key, index) {
    for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
    await expect(page.locator(`#${key}`)).toHaveAttribute('aria-activedescendant', `${key}-option-${index}`);
    await page.keyboard.press('Enter');
  },
  async press(page, name) {
    const button = page.getByRole('button', { name, exact: true });
    const id = await button.evaluate((element) => {
      element.dataset.tabTarget = 'yes';
      return element.id;
    });
    await tabUntil(page, `the ${name} button`, id ? `#${id}` : '[data-tab-target="yes"]');
    await button.evaluate((element) => delete element.dataset.tabTarget);
    await page.keyboard.press('Enter');
  },
};
