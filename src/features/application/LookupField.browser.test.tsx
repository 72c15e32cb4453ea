import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, type RenderResult } from 'vitest-browser-react';
import { page, userEvent, type Locator } from 'vitest/browser';
import { tap } from '../../test/hands';
import { createQueryClient } from '../../lib/queryClient';
import { fieldByKey } from '../../../domain/catalogue';
import { AUTOCOMPLETE } from '../../../domain/config';
import { axeViolations } from '../../test/axe';
import type { AnswerValue } from '../../../domain/rules/conditions';
import { FormField } from './FormField';
import { lookupTexts } from './LookupField';

const suggestions = [
  { text: 'East High School', id: '060385', sub_text: 'Denver, CO 80206' },
  { text: 'Eastlake High School', id: '481234', sub_text: 'Sammamish, WA 98074' },
];
const eastHigh = { id: '060385', name: 'East High School', ceeb: '060385', city: 'Denver', state: 'Colorado', zip: '80206', country: 'USA' };

/**
 * /lookup/find answered like the server; `fail` makes one form of the call fail; with `held`, no
 * answer leaves before that promise settles (so a test sees the state while the call is out).
 */
function answerLookups({ fail, held }: { fail?: 'text' | 'id'; held?: Promise<void> } = {}) {
  const calls: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const query = new URL(request.url).searchParams;
      calls.push(query);
      await held;
      const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (query.has('text')) {
        if (fail === 'text') return json(500, { message: 'boom' });
        const text = query.get('text')!.toLowerCase();
        return json(200, suggestions.filter((s) => s.text.toLowerCase().startsWith(text)));
      }
      if (fail === 'id') return json(500, { message: 'boom' });
      return query.get('id') === '060385' ? json(200, eastHigh) : json(404, { message: 'We could not find that record.' });
    }),
  );
  return calls;
}

function Harness({ initial = {}, onSubmit = () => {} }: { initial?: Record<string, AnswerValue>; onSubmit?: () => void }) {
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>(initial);
  const [queryClient] = useState(() => createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <main>
        <h1>School</h1>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <FormField field={fieldByKey.get('hs_name')!} value={answers.hs_name} answers={answers} loggedIn onChange={(u) => setAnswers((a) => ({ ...a, ...u }))} />
          <label>
            Elsewhere <input />
          </label>
          <button type="submit">Save &amp; Continue</button>
        </form>
        <output data-testid="answers">{JSON.stringify(answers)}</output>
      </main>
    </QueryClientProvider>
  );
}

const answersOf = () => JSON.parse(document.querySelector('[data-testid="answers"]')!.textContent!);
/** The message shown in the open list (the same words also go to the status region). */
const listMessage = () => document.querySelector('.lookup__message')?.textContent;
const status = () => [...document.querySelectorAll('[role="status"]')].map((e) => e.textContent).join('|');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the school lookup', () => {
  it('shows Select..., then Loading..., then the suggestions with their place and Use: <text>; the count is announced; no axe violations with the list open', async () => {
    let answer = () => {};
    answerLookups({ held: new Promise((resolve) => (answer = resolve)) });
    const screen = await render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await expect.element(input).toHaveAttribute('placeholder', lookupTexts.placeholder);
    await userEvent.type(input, 'east');
    // Loading... while the search is out, however long it takes; then the suggestions.
    await vi.waitFor(() => expect(listMessage()).toBe(lookupTexts.loading));
    answer();
    await expect.element(screen.getByRole('option', { name: /East High School/ })).toBeVisible();
    await expect.element(screen.getByRole('option', { name: /Eastlake High School/ })).toHaveTextContent('Sammamish, WA 98074');
    await expect.element(screen.getByRole('option', { name: 'Use: east' })).toBeVisible();
    await expect.element(input).toHaveAttribute('aria-expanded', 'true');
    await vi.waitFor(() => expect(status()).toContain('2 results available.'));
    expect(await axeViolations()).toEqual([]);
  });

  it('chooses with the keyboard and fills the school fields with their labels; the typed text is not sent until debounced', async () => {
    const calls = answerLookups();
    const screen = await render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    // Watch the manual-entry note: it must not appear while the chosen school's detail loads.
    let manualNoteShown = false;
    const watcher = new MutationObserver(() => {
      if (document.getElementById('hs_name-manual')?.textContent === lookupTexts.manualEntry) manualNoteShown = true;
    });
    watcher.observe(document.body, { subtree: true, childList: true, characterData: true });
    // Debounced: one request, for the whole text, 200 ms after the last key, not one per key. The
    // page's clock stands still while the keys come, however slowly a busy machine types them.
    const searches = () => calls.filter((q) => q.has('text'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await userEvent.type(input, 'east hi');
    await vi.advanceTimersByTimeAsync(AUTOCOMPLETE.debounceMs - 1);
    expect(searches()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(searches()).toHaveLength(1));
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
    expect(searches()[0]!.get('text')).toBe('east hi');
    expect(searches()[0]!.get('max_results')).toBe('5');
    expect(searches()[0]!.get('category')).toBe('hs_ceeb');
    await expect.element(screen.getByRole('option', { name: /East High School/ })).toBeVisible();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(input).toHaveAttribute('aria-activedescendant', 'hs_name-option-0');
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() =>
      expect(answersOf()).toEqual({
        hs_name: 'East High School',
        hs_ceeb: '060385',
        hs_city: 'Denver',
        hs_state: 'Colorado',
        hs_state_desc: 'Colorado',
        hs_zip: '80206',
        hs_country: 'USA',
        hs_country_desc: 'United States',
      }),
    );
    await expect.element(input).toHaveValue('East High School');
    await expect.element(input).toHaveAttribute('aria-expanded', 'false');
    expect(status()).not.toContain(lookupTexts.manualEntry);
    watcher.disconnect();
    expect(manualNoteShown).toBe(false);
    // A screen reader hears that the fields below were filled.
    await vi.waitFor(() => expect(status()).toContain(lookupTexts.filled('East High School')));
  });

  it('stores the label when the detail lookup fails, drops what the school chosen before filled in, and asks for the rest below', async () => {
    answerLookups({ fail: 'id' });
    const screen = await render(<Harness initial={{ hs_name: 'East High School', hs_ceeb: '060385', hs_city: 'Denver', hs_state: 'Colorado', hs_state_desc: 'Colorado' }} />);
    await userEvent.clear(screen.getByRole('combobox'));
    await userEvent.type(screen.getByRole('combobox'), 'eastl');
    await screen.getByRole('option', { name: /Eastlake High School/ }).click();
    await vi.waitFor(() => expect(answersOf()).toEqual({ hs_name: 'Eastlake High School', hs_ceeb: '', hs_city: '', hs_state: '', hs_state_desc: '' }));
    await expect.element(screen.getByText(lookupTexts.manualEntry)).toBeVisible();
  });

  it('swallows a failed search: No options, and Use: <text> keeps what was typed', async () => {
    answerLookups({ fail: 'text' });
    const screen = await render(<Harness />);
    const input = screen.getByRole('combobox');
    await userEvent.type(input, 'Home School');
    await vi.waitFor(() => expect(listMessage()).toBe(lookupTexts.noOptions));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(answersOf()).toEqual({ hs_name: 'Home School' });
    await expect.element(screen.getByText(lookupTexts.manualEntry)).toBeVisible();
    await expect.element(input).toHaveAccessibleDescription(/Enter your school information below\./);
  });

  it('Escape closes the list keeping the text; a second Escape restores the saved answer', async () => {
    answerLookups();
    const screen = await render(<Harness initial={{ hs_name: 'East High School', hs_ceeb: '060385' }} />);
    const input = screen.getByRole('combobox');
    await userEvent.clear(input);
    await userEvent.type(input, 'eastl');
    await expect.element(screen.getByRole('option', { name: /Eastlake/ })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(input).toHaveAttribute('aria-expanded', 'false');
    await expect.element(input).toHaveValue('eastl');
    await userEvent.keyboard('{Escape}');
    await expect.element(input).toHaveValue('East High School');
    expect(answersOf()).toEqual({ hs_name: 'East High School', hs_ceeb: '060385' });
  });

  it('leaving the field keeps the typed text as a manual entry, which drops what the school chosen before filled in', async () => {
    answerLookups();
    const screen = await render(<Harness initial={{ hs_name: 'East High School', hs_ceeb: '060385', hs_city: 'Denver' }} />);
    const input = screen.getByRole('combobox');
    await userEvent.clear(input);
    await userEvent.type(input, 'Academy of Nowhere');
    await userEvent.keyboard('{Escape}');
    await userEvent.tab();
    expect(answersOf()).toEqual({ hs_name: 'Academy of Nowhere', hs_ceeb: '', hs_city: '' });
  });

  it('Enter without a chosen option keeps the text and does not send the form', async () => {
    answerLookups();
    const onSubmit = vi.fn();
    const screen = await render(<Harness onSubmit={onSubmit} />);
    await userEvent.type(screen.getByRole('combobox'), 'zzz');
    await expect.element(screen.getByRole('option', { name: 'Use: zzz' })).toBeVisible();
    await userEvent.keyboard('{Enter}');
    expect(answersOf()).toEqual({ hs_name: 'zzz' });
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

/** The three people who pick from the list: a mouse, a finger and the keyboard. */
const hands = {
  pointer: (option: Locator) => option.click(),
  touch: (option: Locator) => tap(option),
  keyboard: async (option: Locator) => {
    const index = Number(option.element().id.replace('hs_name-option-', ''));
    for (let i = 0; i <= index; i++) await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{Enter}');
  },
};
/** Three ways to leave the field once chosen: Tab, a pointer on another field, the step button. */
const leaving = {
  tab: () => userEvent.tab(),
  'a click elsewhere': (screen: RenderResult) => screen.getByRole('textbox', { name: 'Elsewhere' }).click(),
  'the step button': (screen: RenderResult) => screen.getByRole('button', { name: 'Save & Continue' }).click(),
};
const filled = { hs_name: 'East High School', hs_ceeb: '060385', hs_city: 'Denver', hs_state: 'Colorado', hs_state_desc: 'Colorado', hs_zip: '80206', hs_country: 'USA', hs_country_desc: 'United States' };

describe.each(Object.keys(hands) as (keyof typeof hands)[])('a school picked by %s', (hand) => {
  it.each(Object.keys(leaving) as (keyof typeof leaving)[])('stays in the box and in the answers when the field is left by %s', async (way) => {
    answerLookups();
    const onSubmit = vi.fn();
    const screen = await render(<Harness onSubmit={onSubmit} />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await userEvent.click(input);
    await userEvent.keyboard('east');
    const option = screen.getByRole('option', { name: /^East High School/ });
    await expect.element(option).toBeVisible();
    await hands[hand](option);
    await vi.waitFor(() => expect(answersOf()).toEqual(filled));
    await expect.element(input).toHaveValue('East High School');
    await leaving[way](screen);
    await expect.element(input).toHaveValue('East High School');
    expect(answersOf()).toEqual(filled);
    if (way === 'the step button') expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('"Use: <typed name>" keeps the typed name when the field is left', async () => {
    answerLookups();
    const screen = await render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await userEvent.click(input);
    await userEvent.keyboard('Rivera Homeschool');
    const option = screen.getByRole('option', { name: 'Use: Rivera Homeschool' });
    await expect.element(option).toBeVisible();
    await hands[hand](option);
    await expect.element(input).toHaveValue('Rivera Homeschool');
    await screen.getByRole('textbox', { name: 'Elsewhere' }).click();
    await expect.element(input).toHaveValue('Rivera Homeschool');
    expect(answersOf()).toEqual({ hs_name: 'Rivera Homeschool' });
  });
});

// Issue 48: axe's scrollable-region-focusable (serious) on the open list at 900 and 390 px, where
// five long results with their places overflow the list's 300 px.
describe('the open list, five long results', () => {
  const many = Array.from({ length: 5 }, (_, i) => ({ text: `East Valley Regional High School Number ${i + 1}`, id: `9${i}0000`, sub_text: 'Spokane Valley, WA 99206' }));
  it.each([
    [900, 800],
    [390, 844],
  ])('scrolls by the keyboard and has no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(many), { status: 200, headers: { 'Content-Type': 'application/json' } })));
    const screen = await render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Search for Your School' });
    await userEvent.click(input);
    await userEvent.keyboard('east');
    await expect.element(screen.getByRole('option', { name: /Number 5/ })).toBeInTheDocument();
    const menu = document.querySelector('.lookup__list')!;
    expect(menu.scrollHeight).toBeGreaterThan(menu.clientHeight);
    expect(await axeViolations()).toEqual([]);
    // The keyboard reaches the last one, which is scrolled into view.
    for (let i = 0; i < 5; i++) await userEvent.keyboard('{ArrowDown}');
    await expect.element(input).toHaveAttribute('aria-activedescendant', 'hs_name-option-4');
    const last = document.getElementById('hs_name-option-4')!.getBoundingClientRect();
    const box = menu.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(box.bottom + 1);
  });
});
