// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { groupsOfPage } from '../../../domain/catalogue';
import { answersReadBy, answersToClear } from '../../../domain/rules/visibility';
import { createAnswersStore, readerOn } from './answersStore';

const group = (id: string) => groupsOfPage('about').find((g) => g.id === id)!;

describe('a keystroke reaches the groups that read the answer typed, and no other', () => {
  const before = { first_name: 'Ann', country: 'USA' };

  it.each([
    ['a letter of the first name: the person group', 'person', { first_name: 'Anne' }, false],
    ['a letter of the first name: not the address group', 'address', { first_name: 'Anne' }, true],
    ['the country: the address group, whose state list follows it', 'address', { country: 'CAN' }, false],
    ['the legacy answer: the group it shows', 'legacy_connection', { legacy_ind: 'Y' }, false],
    ['the first name: not the legacy connections', 'legacy_connection', { first_name: 'Anne' }, true],
  ] as const)('%s', (_, id, change, kept) => {
    const store = createAnswersStore(before);
    const read = readerOn(store, answersReadBy(group(id)));
    const shown = read();
    store.set(change);
    expect(read() === shown).toBe(kept);
    // What it gives when drawn again is the answers as they are now.
    if (!kept) expect(read()).toEqual({ ...before, ...change });
  });

  it('a reader of every answer (a lookup\'s group) is drawn again on any change', () => {
    const store = createAnswersStore(before);
    const read = readerOn(store, null);
    const shown = read();
    store.set({ first_name: 'Anne' });
    expect(read()).not.toBe(shown);
  });
});

describe('the answers store', () => {
  it('tells its readers once per change, and not for a change to what is shown already', () => {
    const store = createAnswersStore({ first_name: 'Ann' });
    let told = 0;
    store.subscribe(() => told++);
    store.set({ first_name: 'Anne' });
    store.set({ first_name: 'Anne' });
    expect(told).toBe(1);
    expect(store.get()).toEqual({ first_name: 'Anne' });
  });

  it('tells a reader of some keys only when one of them changes, a clearing too, and every reader on notify', () => {
    const store = createAnswersStore({ country: 'USA', state: 'California', first_name: 'Ann' });
    store.setClearing((answers, changed) => answersToClear(answers, changed));
    expect(store.get().state).toBe('California');
    const told = { state: 0, name: 0 };
    store.subscribe(() => told.state++, new Set(['state']));
    const stopName = store.subscribe(() => told.name++, new Set(['first_name']));
    store.set({ first_name: 'Anne' });
    expect(told).toEqual({ state: 0, name: 1 });
    store.set({ country: 'FRA' }); // hides the state, which is cleared
    expect(told).toEqual({ state: 1, name: 1 });
    store.notify();
    expect(told).toEqual({ state: 2, name: 2 });
    stopName();
    store.set({ first_name: 'Annie' });
    expect(told).toEqual({ state: 2, name: 2 });
  });

  it('keeps an edit equal to the base as an edit: what was typed over the saved answer', () => {
    const store = createAnswersStore({ first_name: 'Ann' });
    store.set({ first_name: 'Ann' });
    expect(store.edits()).toEqual({ first_name: 'Ann' });
  });

  it('keeps the edits on top of a new base, which it sets without telling until notify', () => {
    const store = createAnswersStore({ first_name: 'Ann', last_name: 'Lee' });
    store.set({ first_name: 'Anne' });
    let told = 0;
    store.subscribe(() => told++);
    store.setBaseQuietly({ first_name: 'Annie', last_name: 'Li' });
    expect(store.get()).toEqual({ first_name: 'Anne', last_name: 'Li' });
    expect(told).toBe(0);
    store.notify();
    expect(told).toBe(1);
  });

  it('clears what a change hides in the same step (spec/form.md §4), so no reader sees it shown', () => {
    const store = createAnswersStore({ country: 'USA', state: 'California' });
    store.setClearing((answers, changed) => answersToClear(answers, changed));
    expect(store.get().state).toBe('California');
    const seen: unknown[] = [];
    store.subscribe(() => seen.push(store.get().state));
    store.set({ country: 'FRA' });
    expect(seen).toEqual(['']);
    expect(store.get()).toMatchObject({ country: 'FRA', state: '' });
  });

  it('checks every answer when the clearing is turned on, and tells its readers when it cleared one', () => {
    const store = createAnswersStore({ country: 'FRA', state: 'California' });
    let told = 0;
    store.subscribe(() => told++);
    store.setClearing((answers, changed) => answersToClear(answers, changed));
    expect(store.get().state).toBe('');
    expect(told).toBe(1);
    store.setClearing(null);
    store.set({ country: 'USA', state: 'New York' });
    store.set({ country: 'FRA' });
    expect(store.get().state).toBe('New York');
  });
});
