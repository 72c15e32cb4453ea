import { describe, expect, it } from 'vitest';
import { allFields, fieldByKey, fieldsOf, groupsOfPage } from '../catalogue';
import { completeApplication } from '../catalogue/completeApplication';
import type { RuleContext } from './conditions';
import { canadianProvinceOptions, usStateOptions } from '../catalogue/options';
import { answersReadBy, answersToClear, changedKeys, isShown, optionsFor, sameAnswersOn } from './visibility';

const list = [{ value: 'a', label: 'A' }];

describe('conditional dropdowns', () => {
  it('displayAndOptions: the list of the matched value, hidden for no match or an empty list', () => {
    const field = { dependsOn: { key: 'c', category: 'displayAndOptions' as const, optionsByValue: { X: list, Y: [] } } };
    expect(optionsFor(field, { c: 'X' })).toEqual(list);
    expect(optionsFor(field, { c: 'Y' })).toBeNull();
    expect(optionsFor(field, { c: 'Z' })).toBeNull();
    expect(optionsFor(field, {})).toBeNull();
  });

  it('gives the same list on every call, for a field without options too: a memoised field keeps its props on each key typed', () => {
    expect(optionsFor({}, { c: 'X' })).toEqual([]);
    expect(optionsFor({}, { c: 'X' })).toBe(optionsFor({}, {}));
    const field = { dependsOn: { key: 'c', category: 'displayOnly' as const, optionsByValue: { X: list } } };
    expect(optionsFor(field, { c: 'X' })).toBe(optionsFor(field, { c: 'X', d: 'other' }));
  });

  it("displayOnly: the field's own options while the value matches", () => {
    const own = [{ value: 'o', label: 'O' }];
    const field = { options: own, dependsOn: { key: 'c', category: 'displayOnly' as const, optionsByValue: { X: [] } } };
    expect(optionsFor(field, { c: 'X' })).toEqual(own);
    expect(optionsFor(field, { c: 'Q' })).toBeNull();
  });

  it('the state follows the country: US states, Canadian provinces, or hidden', () => {
    const state = fieldByKey.get('state')!;
    expect(optionsFor(state, { country: 'USA' })).toEqual(usStateOptions);
    expect(optionsFor(state, { country: 'CAN' })).toEqual(canadianProvinceOptions);
    expect(isShown(state, { country: 'FRA' })).toBe(false);
    expect(optionsFor(fieldByKey.get('hs_2_state')!, { hs_2_country: 'CAN' })).toEqual(canadianProvinceOptions);
  });
});

describe('the answers a group reads (a page re-renders a group only when one of them changed)', () => {
  const group = (id: string) => [...groupsOfPage('about'), ...groupsOfPage('education'), ...groupsOfPage('final-steps')].find((g) => g.id === id)!;

  it("a group reads its own answers, its conditions' and its dropdowns' controls", () => {
    const reads = answersReadBy(group('address'))!;
    expect(reads.has('country')).toBe(true);
    expect(reads.has('state')).toBe(true);
    expect(reads.has('first_name')).toBe(false);
  });

  it('a group shown by an answer of another group reads that answer, and every instance it can show', () => {
    const reads = answersReadBy(group('legacy_connection'))!;
    expect(reads.has('legacy_ind')).toBe(true);
    for (const field of fieldsOf(group('legacy_connection'), 5)) expect(reads.has(field.key), field.key).toBe(true);
  });

  it("a tab group reads its tabs' answers and their descriptions", () => {
    const tabs = group('additional').tabs!;
    const reads = answersReadBy(group('additional'))!;
    for (const key of tabs.tabs.flatMap((tab) => tab.keys)) {
      expect(reads.has(key)).toBe(true);
      expect(reads.has(`${key}_desc`)).toBe(true);
    }
  });

  it('a group with a lookup reads every answer', () => {
    expect(answersReadBy(group('high_school'))).toBeNull();
  });

  it.each([
    ['the same object', { a: '1' }, null, true],
    ['a change outside the keys', { a: '1', b: '2' }, { a: '1', b: '3' }, true],
    ['a change on a key', { a: '1' }, { a: '2' }, false],
    ['an answer added on a key', {}, { a: '' }, false],
  ] as const)('sameAnswersOn: %s', (_, before, after, same) => {
    expect(sameAnswersOn(new Set(['a']), before, after ?? before)).toBe(same);
  });

  it('sameAnswersOn with every key read: equal only when the same answers', () => {
    const answers = { a: '1' };
    expect(sameAnswersOn(null, answers, answers)).toBe(true);
    expect(sameAnswersOn(null, answers, { a: '1' })).toBe(false);
  });
});

describe('answers cleared when their question hides (spec/form.md §4), checked from the keys that changed', () => {
  it('a state the new country does not offer is cleared, with its label', () => {
    const before = { country: 'USA', state: 'CO', state_desc: 'Colorado' };
    const after = { ...before, country: 'CAN' };
    expect(answersToClear(after, changedKeys(before, after))).toEqual({ state: '', state_desc: '' });
    expect(answersToClear(after, null)).toEqual({ state: '', state_desc: '' });
  });

  it('a key that controls nothing checks its own question only', () => {
    const before = { country: 'USA', state: 'CO' };
    const after = { ...before, first_name: 'Ann' };
    expect(changedKeys(before, after)).toEqual(['first_name']);
    expect(answersToClear(after, changedKeys(before, after))).toEqual({});
  });

  // A complete application, and one whose legacy connection (a group shown by another group's answer) is filled.
  const legacy = fieldByKey.get('legacy_relationship')!;
  const bases: [string, RuleContext][] = [
    ['a complete application', completeApplication],
    ['with a legacy connection', { ...completeApplication, legacy_ind: 'Y', legacy_relationship: legacy.options![0]!.value, legacy_first_name: 'Pat', legacy_last_name: 'Lee' }],
  ];
  it.each(bases)('from %s, the keys changed find exactly what a check of every field finds', (_, base) => {
    expect(answersToClear(base, null)).toEqual({});
    // Every value a condition or a dropdown asks about, and an empty answer, on every key one reads.
    const tries = new Map<string, Set<string>>();
    const add = (key: string, value: unknown) => {
      if (typeof value === 'string') tries.set(key, (tries.get(key) ?? new Set()).add(value));
    };
    for (const field of allFields) {
      for (const rule of [...(field.group.showWhen ?? []), ...(field.showWhen ?? [])]) for (const value of [rule.target, '', 'Z'].flat()) add(rule.valueKey, value);
      if (field.dependsOn) for (const value of [...Object.keys(field.dependsOn.optionsByValue), '']) add(field.dependsOn.key, value);
    }
    let compared = 0;
    let cleared = 0;
    for (const [key, values] of tries) {
      for (const value of values) {
        const after = { ...base, [key]: value };
        const everyField = answersToClear(after, null);
        expect(answersToClear(after, changedKeys(base, after)), `${key} = ${value}`).toEqual(everyField);
        compared++;
        if (Object.keys(everyField).length > 0) cleared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(cleared, 'changes that clear something').toBeGreaterThan(5);
  });
});
