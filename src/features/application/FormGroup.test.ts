import { describe, expect, it } from 'vitest';
import type { ComponentProps, MemoExoticComponent } from 'react';
import { groupsOfPage } from '../../../domain/catalogue';
import { FormGroup } from './FormGroup';

/**
 * Which keystrokes re-render a group: FormGroup's memo comparison, with the props a page passes
 * (the same handlers every render). True means the group is left as it was.
 */
type Props = ComponentProps<typeof FormGroup>;
const keptAsItWas = (FormGroup as MemoExoticComponent<typeof FormGroup> & { compare: (a: Props, b: Props) => boolean }).compare;
const group = (id: string) => groupsOfPage('about').find((g) => g.id === id)!;
const handlers = { onAddAnother: () => {}, onRemove: () => {}, onChange: () => {}, onDraft: () => {} };
const props = (id: string, answers: Props['answers'], errors: Props['errors'] = {}): Props => ({ group: group(id), answers, errors, loggedIn: true, count: 1, addingAnother: false, ...handlers });

describe('a keystroke re-renders the groups that read the answer typed, and no other', () => {
  const before = { first_name: 'Ann', country: 'USA' };

  it.each([
    ['a letter of the first name: the person group', 'person', { first_name: 'Anne' }, false],
    ['a letter of the first name: not the address group', 'address', { first_name: 'Anne' }, true],
    ['the country: the address group, whose state list follows it', 'address', { country: 'CAN' }, false],
    ['the legacy answer: the group it shows', 'legacy_connection', { legacy_ind: 'Y' }, false],
    ['the first name: not the legacy connections', 'legacy_connection', { first_name: 'Anne' }, true],
  ] as const)('%s', (_, id, change, kept) => {
    expect(keptAsItWas(props(id, before), props(id, { ...before, ...change }))).toBe(kept);
  });

  it('a new validation with the same messages for the group leaves it; a new message for one of its questions does not', () => {
    const answers = { first_name: '' };
    expect(keptAsItWas(props('address', answers, { first_name: ['First Name'] }), props('address', answers, { first_name: ['First Name'] }))).toBe(true);
    expect(keptAsItWas(props('person', answers, { first_name: ['First Name'] }), props('person', answers, { first_name: ['First Name'] }))).toBe(true);
    expect(keptAsItWas(props('person', answers, {}), props('person', answers, { first_name: ['First Name'] }))).toBe(false);
  });

  it('a new count, a press on add-another or another handler re-renders it', () => {
    const answers = { first_name: 'Ann' };
    expect(keptAsItWas(props('legacy_connection', answers), { ...props('legacy_connection', answers), count: 2 })).toBe(false);
    expect(keptAsItWas(props('legacy_connection', answers), { ...props('legacy_connection', answers), addingAnother: true })).toBe(false);
    expect(keptAsItWas(props('person', answers), { ...props('person', answers), onChange: () => {} })).toBe(false);
  });
});
