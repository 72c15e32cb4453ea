import { describe, expect, it } from 'vitest';
import type { ComponentProps, MemoExoticComponent } from 'react';
import { groupsOfPage } from '../../../domain/catalogue';
import { FormGroup } from './FormGroup';

/**
 * Which changes of the page re-render a group: FormGroup's memo comparison, with the props a page
 * passes (the same handlers every render). True means the group is left as it was. (A keystroke
 * reaches a group through the answers store: answersStore.test.ts.)
 */
type Props = ComponentProps<typeof FormGroup>;
const keptAsItWas = (FormGroup as MemoExoticComponent<typeof FormGroup> & { compare: (a: Props, b: Props) => boolean }).compare;
const group = (id: string) => groupsOfPage('about').find((g) => g.id === id)!;
const handlers = { onAddAnother: () => {}, onRemove: () => {}, onChange: () => {}, onDraft: () => {} };
const props = (id: string, errors: Props['errors'] = {}): Props => ({ group: group(id), errors, loggedIn: true, count: 1, addingAnother: false, ...handlers });

describe('a change of the page re-renders the groups it concerns', () => {
  it('a new validation with the same messages for the group leaves it; a new message for one of its questions does not', () => {
    expect(keptAsItWas(props('address', { first_name: ['First Name'] }), props('address', { first_name: ['First Name'] }))).toBe(true);
    expect(keptAsItWas(props('person', { first_name: ['First Name'] }), props('person', { first_name: ['First Name'] }))).toBe(true);
    expect(keptAsItWas(props('address', {}), props('address', { first_name: ['First Name'] }))).toBe(true);
    expect(keptAsItWas(props('person', {}), props('person', { first_name: ['First Name'] }))).toBe(false);
  });

  it('a new count, a press on add-another or another handler re-renders it', () => {
    expect(keptAsItWas(props('legacy_connection'), { ...props('legacy_connection'), count: 2 })).toBe(false);
    expect(keptAsItWas(props('legacy_connection'), { ...props('legacy_connection'), addingAnother: true })).toBe(false);
    expect(keptAsItWas(props('person'), { ...props('person'), onChange: () => {} })).toBe(false);
  });
});
