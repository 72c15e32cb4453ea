// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { groupsOfPage } from '../../../domain/catalogue';
import { answersReadBy } from '../../../domain/rules/visibility';
import { initialAnswersState, type AnswersState } from './answers/answersMachine';
import { createAnswersSession } from './answers/answersSession';
import { readerOn } from './answersStore';

const group = (id: string) => groupsOfPage('about').find((g) => g.id === id)!;

/** The answers of a page editing an account that holds `known` (no calls are made: nothing is saved here). */
function storeOf(known: Record<string, string>) {
  const state: AnswersState = { ...initialAnswersState, phase: 'editing', known, shown: known, revision: 1 };
  return createAnswersSession({ put: () => new Promise(() => {}), clock: { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} } }, state);
}

describe('a keystroke reaches the groups that read the answer typed, and no other', () => {
  const before = { first_name: 'Ann', country: 'USA' };

  it.each([
    ['a letter of the first name: the person group', 'person', { first_name: 'Anne' }, false],
    ['a letter of the first name: not the address group', 'address', { first_name: 'Anne' }, true],
    ['the country: the address group, whose state list follows it', 'address', { country: 'CAN' }, false],
    ['the legacy answer: the group it shows', 'legacy_connection', { legacy_ind: 'Y' }, false],
    ['the first name: not the legacy connections', 'legacy_connection', { first_name: 'Anne' }, true],
  ] as const)('%s', (_, id, change, kept) => {
    const store = storeOf(before);
    const read = readerOn(store, answersReadBy(group(id)));
    const shown = read();
    store.set(change);
    expect(read() === shown).toBe(kept);
    // What it gives when drawn again is the answers as they are now.
    if (!kept) expect(read()).toEqual({ ...before, ...change });
  });

  it("a reader of every answer (a lookup's group) is drawn again on any change", () => {
    const store = storeOf(before);
    const read = readerOn(store, null);
    const shown = read();
    store.set({ first_name: 'Anne' });
    expect(read()).not.toBe(shown);
  });
});

describe('the answers as components read them', () => {
  it('tells its readers once per change, and not for a change to what is shown already', () => {
    const store = storeOf({ first_name: 'Ann' });
    let told = 0;
    store.subscribe(() => told++);
    store.set({ first_name: 'Anne' });
    store.set({ first_name: 'Anne' });
    expect(told).toBe(1);
    expect(store.get()).toEqual({ first_name: 'Anne' });
  });

  it('tells a reader of some keys only when one of them changes, a clearing too, and every reader on notify after a quiet change', () => {
    const store = storeOf({ country: 'USA', state: 'California', first_name: 'Ann' });
    const told = { state: 0, name: 0 };
    store.subscribe(() => told.state++, new Set(['state']));
    const stopName = store.subscribe(() => told.name++, new Set(['first_name']));
    store.set({ first_name: 'Anne' });
    expect(told).toEqual({ state: 0, name: 1 });
    store.set({ country: 'FRA' }); // hides the state, which is cleared
    expect(told).toEqual({ state: 1, name: 1 });
    store.dispatchQuietly({ type: 'profileRead', answers: { first_name: 'Annie', country: 'FRA' } });
    expect(told).toEqual({ state: 1, name: 1 });
    store.notify();
    expect(told).toEqual({ state: 2, name: 2 });
    stopName();
    store.set({ first_name: 'Annie' });
    expect(told).toEqual({ state: 2, name: 2 });
  });

  it('keeps an edit equal to the saved answer as an edit: what was typed over it', () => {
    const store = storeOf({ first_name: 'Ann' });
    store.set({ first_name: 'Ann' });
    expect(store.edits()).toEqual({ first_name: 'Ann' });
  });

  it('clears what a change hides in the same step (spec/form.md §4), so no reader sees it shown', () => {
    const store = storeOf({ country: 'USA', state: 'California' });
    const seen: unknown[] = [];
    store.subscribe(() => seen.push(store.get().state));
    store.set({ country: 'FRA' });
    expect(seen).toEqual(['']);
    expect(store.get()).toMatchObject({ country: 'FRA', state: '' });
  });
});
