// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it } from 'vitest';
import { fieldByKey } from '../../../domain/catalogue';
import { optionsFor } from '../../../domain/rules/visibility';
import { inputChars } from './fieldWidth';

const charsOf = (key: string) => {
  const field = fieldByKey.get(key)!;
  return inputChars(field, optionsFor(field, {}) ?? field.options ?? []);
};

describe('inputs sized to what they hold (issue 28)', () => {
  it.each([
    ['zip', 10],
    ['hs_gpa', 6],
    ['sibling_age', 3],
    ['phone_home', 18],
    ['birth_date', 12],
    ['first_name', 35],
    ['address_line_1', 35],
    ['parent_email_address', 35],
    ['grad_month', 9],
  ])('%s: %i characters', (key, chars) => {
    expect(charsOf(key)).toBe(chars);
  });

  it('leaves text areas, radios, lookups and files as wide as the page', () => {
    for (const key of ['additional_info_essay', 'citizenship_type', 'hs_name', 'student_upload_card']) expect(charsOf(key), key).toBeNull();
  });
});
