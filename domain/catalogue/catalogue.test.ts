import { describe, expect, it } from 'vitest';
import { allFields, answerKeys, catalogue, fieldByKey, pageOfKey, readerLabelOf } from '.';
import { assertCatalogue, catalogueProblems } from './check';
import { dataModelKeys } from './dataModel';
import type { GroupDef } from './types';

describe('the catalogue', () => {
  it('defines every answer key of spec/form.md §3, each once, and nothing else', () => {
    const keys = allFields.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...dataModelKeys].filter((k) => !fieldByKey.has(k))).toEqual([]);
    expect(keys.filter((k) => !dataModelKeys.has(k))).toEqual([]);
    expect(catalogueProblems(catalogue, dataModelKeys)).toEqual([]);
  });

  it('names repeated keys as the spec does', () => {
    for (const key of ['sibling_first_name', 'sibling_2_first_name', 'sibling_5_relationship', 'legacy_relationship', 'legacy_2_relationship', 'legacy_5_maiden', 'hs_name', 'hs_2_name', 'hs_3_grad_month', 'hs_3_ceeb']) {
      expect(fieldByKey.has(key), key).toBe(true);
    }
    expect(fieldByKey.has('sibling_6_first_name')).toBe(false);
    expect(fieldByKey.has('hs_4_name')).toBe(false);
  });

  it('maps keys to the pages of spec/form.md §2', () => {
    expect(pageOfKey('first_name')).toBe('about');
    expect(pageOfKey('sibling_3_age')).toBe('about');
    expect(pageOfKey('hs_2_name')).toBe('education');
    expect(pageOfKey('counselor_phone')).toBe('education');
    expect(pageOfKey('signature')).toBe('final-steps');
    expect(pageOfKey('nope')).toBeUndefined();
  });

  it('gives choice fields their options, whose first is not empty (the engine adds --)', () => {
    for (const field of allFields.filter((f) => f.type === 'select' || f.type === 'radio')) {
      expect(field.options?.length, field.key).toBeGreaterThan(0);
      expect(answerKeys.has(`${field.key}_desc`)).toBe(true);
    }
  });

  it('keeps text inputs within the default 45 unless they say otherwise', () => {
    expect(fieldByKey.get('first_name')?.maxLength).toBeUndefined();
    expect(fieldByKey.get('additional_info_essay')?.maxLength).toBe(7000);
  });
});

describe('the developer-only configuration checks', () => {
  const group = (over: Partial<GroupDef>): GroupDef => ({ id: 'g', page: 'about', title: 'G', fields: [{ key: 'first_name', label: 'x', type: 'text' }], ...over });

  it('report an unknown key, a key on two pages, a bad prefix and more than 10 components', () => {
    expect(catalogueProblems([group({ fields: [{ key: 'favourite_colour', label: 'x', type: 'text' }] })], dataModelKeys)).toEqual([
      'group g: key favourite_colour is not in the answers data model',
    ]);
    expect(catalogueProblems([group({}), group({ id: 'h', page: 'education' })], dataModelKeys)).toEqual([
      'key first_name is on more than one page (about, education)',
    ]);
    const repeat = { buttonId: 'b', buttonLabel: 'Add', max: 2, keyFor: (k: string) => k, messagePrefix: () => '' };
    expect(catalogueProblems([group({ repeat })], dataModelKeys)).toContain('group g: instance prefix _2_ is not part of the key first_name');
    expect(catalogueProblems([group({ repeat: { ...repeat, max: 11, keyFor: (k, n) => (n === 1 ? k : `sibling_${n}_first_name`) } })], dataModelKeys)[0]).toBe(
      'group g: maxNumberOfComponents 11 is above 10',
    );
  });

  it('find a lookup that fills answers outside its group or does not fill its own key with the name', () => {
    const lookupField = (fills: Record<string, string>): GroupDef['fields'][number] => ({
      key: 'hs_name',
      label: 'School',
      type: 'lookup',
      lookup: { category: 'hs_ceeb', fills: { name: 'hs_name', ...fills }, chosenKey: 'hs_ceeb' },
    });
    const fields = [lookupField({ city: 'hs_city' }), { key: 'hs_ceeb', label: 'CEEB', type: 'text' as const }, { key: 'hs_city', label: 'City', type: 'text' as const }];
    expect(catalogueProblems([group({ page: 'education', fields })], dataModelKeys)).toEqual([]);
    expect(catalogueProblems([group({ page: 'education', fields: [lookupField({ city: 'city' }), ...fields.slice(1)] })], dataModelKeys)).toEqual([
      'group g: lookup hs_name fills city, which is not a field of the group',
    ]);
    expect(catalogueProblems([group({ page: 'education', fields: [lookupField({ name: 'hs_city' }), ...fields.slice(1)] })], dataModelKeys)).toEqual([
      'group g: lookup hs_name must fill its own key with the name, not hs_city',
    ]);
  });

  it('rename what a lookup fills for each instance of a repeated group', () => {
    expect(fieldByKey.get('hs_2_name')?.lookup).toMatchObject({
      category: 'hs_ceeb',
      fills: { name: 'hs_2_name', ceeb: 'hs_2_ceeb', city: 'hs_2_city', state: 'hs_2_state', zip: 'hs_2_zip', country: 'hs_2_country', address_line_1: 'hs_2_address_line_1' },
      chosenKey: 'hs_2_ceeb',
    });
  });

  it('throw only in local development', () => {
    const broken = [group({ fields: [{ key: 'favourite_colour', label: 'x', type: 'text' }] })];
    expect(() => assertCatalogue(broken, dataModelKeys, true)).toThrow('favourite_colour');
    expect(() => assertCatalogue(broken, dataModelKeys, false)).not.toThrow();
  });
});

describe('the office’s labels (issue 51 §4)', () => {
  it('names a field as the office reads it where the applicant’s label is an instruction, else as the applicant does', () => {
    expect(readerLabelOf('additional_info_doc')).toBe('Additional information (a document)');
    expect(fieldByKey.get('additional_info_doc')!.label).toBe('Upload a document');
    expect(readerLabelOf('first_name')).toBe(fieldByKey.get('first_name')!.label);
    expect(readerLabelOf('gone_key')).toBe('gone_key');
  });
});
