import { describe, expect, it } from 'vitest';
import { fieldByKey } from '../catalogue';
import { canadianProvinceOptions, usStateOptions } from '../catalogue/options';
import { isShown, optionsFor } from './visibility';

const list = [{ value: 'a', label: 'A' }];

describe('conditional dropdowns', () => {
  it('displayAndOptions: the list of the matched value, hidden for no match or an empty list', () => {
    const field = { dependsOn: { key: 'c', category: 'displayAndOptions' as const, optionsByValue: { X: list, Y: [] } } };
    expect(optionsFor(field, { c: 'X' })).toEqual(list);
    expect(optionsFor(field, { c: 'Y' })).toBeNull();
    expect(optionsFor(field, { c: 'Z' })).toBeNull();
    expect(optionsFor(field, {})).toBeNull();
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
