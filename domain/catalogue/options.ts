/**
 * Option lists of spec/form.md §3. Options are value/label pairs; a dropdown's first option is
 * the empty value shown as '--'. The chosen label is kept in the `<key>_desc` companion.
 */
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';

export interface Option {
  value: string;
  label: string;
}

const EMPTY_OPTION: Option = { value: '', label: '--' };
export const withEmptyOption = (options: Option[]): Option[] => [EMPTY_OPTION, ...options];

countries.registerLocale(english);

/**
 * The names people use where the ISO name starts with another word: a native dropdown finds an
 * option by its first letters, so "China" must not be "People's Republic of China" (typing it
 * would pick Chile). Keyed by ISO alpha-2; the values stay the alpha-3 codes.
 */
const commonCountryNames: Readonly<Record<string, string>> = {
  BN: 'Brunei',
  CD: 'Congo (Democratic Republic)',
  CG: 'Congo (Republic)',
  CN: 'China',
  CZ: 'Czechia',
  FM: 'Micronesia',
  GM: 'Gambia',
  IR: 'Iran',
  LA: 'Laos',
  MD: 'Moldova',
  MK: 'North Macedonia',
  PS: 'Palestine',
  RU: 'Russia',
  SY: 'Syria',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  VA: 'Vatican City',
  VG: 'British Virgin Islands',
  VI: 'U.S. Virgin Islands',
};

/** Countries by ISO alpha-3 code, the United States first, the rest by their common English name. */
export const countryOptions: Option[] = (() => {
  const names = countries.getNames('en', { select: 'official' });
  const all = Object.entries(names)
    .map(([alpha2, label]) => ({ value: countries.alpha2ToAlpha3(alpha2) ?? alpha2, label: commonCountryNames[alpha2] ?? label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  const usa = all.find((o) => o.value === 'USA')!;
  return [{ value: 'USA', label: 'United States' }, ...all.filter((o) => o !== usa)];
})();

/** The same list without the United States (for example for citizenship of non-US citizens). */
export const countryOptionsWithoutUsa: Option[] = countryOptions.filter((o) => o.value !== 'USA');

const named = (names: string[]): Option[] => names.map((name) => ({ value: name, label: name }));

/** The 62 USPS codes: 50 states, DC, 5 territories, 3 freely associated states, 3 armed-forces regions. */
export const usStateNameByCode: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware',
  FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky',
  LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi',
  MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont',
  VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  DC: 'District of Columbia',
  AS: 'American Samoa', GU: 'Guam', MP: 'Northern Mariana Islands', PR: 'Puerto Rico', VI: 'U.S. Virgin Islands',
  FM: 'Federated States of Micronesia', MH: 'Marshall Islands', PW: 'Palau',
  AA: 'Armed Forces Americas', AE: 'Armed Forces Europe', AP: 'Armed Forces Pacific',
};
const usStateNames = Object.values(usStateNameByCode);

const canadianProvinceNames = [
  'Alberta', 'British Columbia', 'Manitoba', 'New Brunswick', 'Newfoundland and Labrador', 'Nova Scotia', 'Ontario',
  'Prince Edward Island', 'Quebec', 'Saskatchewan', 'Northwest Territories', 'Nunavut', 'Yukon',
];

/** States and provinces: value equals name (spec/form.md §3). */
export const usStateOptions = named(usStateNames);
export const canadianProvinceOptions = named(canadianProvinceNames);
export const stateAndProvinceOptions = [...usStateOptions, ...canadianProvinceOptions];

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Months: values 1 to 12. */
export const monthOptions: Option[] = monthNames.map((label, index) => ({ value: String(index + 1), label }));

/** A generated year list: `count` years from `start` (default the current year) into the past or the future. */
export function yearOptions(count: number, direction: 'past' | 'future', start = new Date().getFullYear()): Option[] {
  return Array.from({ length: count }, (_, i) => {
    const year = String(direction === 'past' ? start - i : start + i);
    return { value: year, label: year };
  });
}

/** The label of a value, for the `_desc` companion. */
export const labelOf = (options: Option[], value: string) => options.find((o) => o.value === value)?.label ?? '';
