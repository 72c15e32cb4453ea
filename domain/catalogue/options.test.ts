import { describe, expect, it } from 'vitest';
import {
  canadianProvinceOptions,
  countryOptions,
  countryOptionsWithoutUsa,
  labelOf,
  monthOptions,
  stateAndProvinceOptions,
  usStateNameByCode,
  usStateOptions,
  withEmptyOption,
  yearOptions,
} from './options';

describe('option lists', () => {
  it("start a dropdown with the empty '--' option", () => {
    expect(withEmptyOption(monthOptions)[0]).toEqual({ value: '', label: '--' });
  });

  it('list countries by three-letter code with the United States first, and a variant without it', () => {
    expect(countryOptions[0]).toEqual({ value: 'USA', label: 'United States' });
    expect(countryOptions.length).toBeGreaterThanOrEqual(249);
    expect(countryOptions.every((o) => /^[A-Z]{3}$/.test(o.value))).toBe(true);
    expect(labelOf(countryOptions, 'CAN')).toBe('Canada');
    expect(labelOf(countryOptions, 'MEX')).toBe('Mexico');
    expect(countryOptionsWithoutUsa.some((o) => o.value === 'USA')).toBe(false);
    expect(countryOptionsWithoutUsa).toHaveLength(countryOptions.length - 1);
    expect(new Set(countryOptions.map((o) => o.value)).size).toBe(countryOptions.length);
  });

  it('have the 62 USPS state codes and the 13 Canadian provinces and territories, value equal to name', () => {
    expect(usStateOptions).toHaveLength(62);
    expect(canadianProvinceOptions).toHaveLength(13);
    expect(stateAndProvinceOptions).toHaveLength(75);
    for (const option of stateAndProvinceOptions) expect(option.value).toBe(option.label);
    for (const name of ['Colorado', 'District of Columbia', 'Puerto Rico', 'Guam', 'Armed Forces Europe', 'Palau']) {
      expect(labelOf(usStateOptions, name)).toBe(name);
    }
    expect(labelOf(canadianProvinceOptions, 'Quebec')).toBe('Quebec');
  });

  it('name each USPS code once, so a lookup record can store the option value of its state', () => {
    expect(Object.keys(usStateNameByCode)).toHaveLength(62);
    expect(Object.keys(usStateNameByCode).every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    expect(usStateNameByCode.CO).toBe('Colorado');
    expect(usStateNameByCode.AE).toBe('Armed Forces Europe');
    expect(usStateNameByCode.VI).toBe('U.S. Virgin Islands');
  });

  it('have months 1 to 12, January to December', () => {
    expect(monthOptions).toHaveLength(12);
    expect(monthOptions[0]).toEqual({ value: '1', label: 'January' });
    expect(monthOptions[11]).toEqual({ value: '12', label: 'December' });
  });

  it('generate year lists into the past or the future from the current year by default', () => {
    expect(yearOptions(3, 'past', 2026).map((o) => o.value)).toEqual(['2026', '2025', '2024']);
    expect(yearOptions(3, 'future', 2026).map((o) => o.value)).toEqual(['2026', '2027', '2028']);
    expect(yearOptions(1, 'past')[0]!.value).toBe(String(new Date().getFullYear()));
  });
});
