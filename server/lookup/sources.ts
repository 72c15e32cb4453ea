import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { usStateNameByCode } from '../../domain/catalogue/options';

/** The categories kept in the database; `name` searches the schools and colleges together. */
const storedCategories = ['hs_ceeb', 'college_ceeb', 'address'] as const;
export type StoredCategory = (typeof storedCategories)[number];

export interface LookupRecord {
  category: StoredCategory;
  id: string;
  name: string;
  ceeb?: string;
  city?: string;
  /** USPS code; the record also stores the state's full name, which is the form's option value. */
  stateCode?: string;
  zip?: string;
  /** ISO alpha-3, as the form's country options. */
  country?: string;
  active: boolean;
  /** Other names (abbreviations, former names) that a search may match but the list does not show. */
  aliases?: string;
}

export interface ParsedFile {
  format: 'nces-ceeb-crosswalk' | 'ipeds-hd' | 'portal-csv';
  records: LookupRecord[];
  /** Rows left out, each with its line number and why. */
  skipped: string[];
}

/**
 * Reads a lookup file in one of the three formats the import command accepts, told apart by their
 * header: the NCES–CEEB crosswalk of high schools (HS_CEEB, HS_NAME, …), the IPEDS HD directory of
 * colleges (UNITID, INSTNM, …), or the portal's own CSV (category,id,name[,ceeb,city,state,zip,country,aliases]).
 */
export function parseLookupFile(text: string): ParsedFile {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: true }) as Record<string, string>[];
  const header = new Set(Object.keys(rows[0] ?? {}));
  if (header.has('HS_CEEB') && header.has('HS_NAME')) return collect('nces-ceeb-crosswalk', rows, highSchool);
  if (header.has('UNITID') && header.has('INSTNM')) return collect('ipeds-hd', rows, college);
  if (header.has('category') && header.has('id') && header.has('name')) return collect('portal-csv', rows, portalRow);
  throw new Error(
    'The file is not a lookup list this portal reads: expected the NCES–CEEB crosswalk (HS_CEEB, HS_NAME, …), the IPEDS HD directory (UNITID, INSTNM, …) or a CSV with the columns category,id,name.',
  );
}

type RowReader = (row: Record<string, string>) => LookupRecord | string;

function collect(format: ParsedFile['format'], rows: Record<string, string>[], read: RowReader): ParsedFile {
  const records: LookupRecord[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const line = index + 2; // the header is line 1
    const record = read(row);
    if (typeof record === 'string') return void skipped.push(`line ${line}: ${record}`);
    const key = `${record.category}:${record.id}`;
    if (seen.has(key)) return void skipped.push(`line ${line}: ${record.id} is listed twice; the first is kept`);
    seen.add(key);
    records.push(record);
  });
  return { format, records, skipped };
}

const notAvailable = (value: string | undefined) => (value === undefined || value === '' || value === 'NA' ? undefined : value);

/** CEEB codes are six digits; spreadsheets drop the leading zero of the 0xxxxx codes. */
const ceebCode = (value: string) => (/^\d{1,6}$/.test(value) ? value.padStart(6, '0') : null);

const highSchool: RowReader = (row) => {
  const ceeb = ceebCode(row.HS_CEEB ?? '');
  if (!ceeb) return `the CEEB code "${row.HS_CEEB ?? ''}" is not up to six digits`;
  const name = notAvailable(row.HS_NAME) ?? notAvailable(row.MATCH_NAME);
  if (!name) return 'the school has no name';
  return {
    category: 'hs_ceeb',
    id: ceeb,
    // 2,711 names of the crowdsourced rows are in small letters ("spartanburg day school").
    name: titleCase(name),
    ceeb,
    city: cityName(row.HS_CITY),
    stateCode: stateCode(row.HS_STATE),
    zip: notAvailable(row.HS_POSTAL_CD),
    country: 'USA',
    active: true,
  };
};

const college: RowReader = (row) => {
  const id = row.UNITID ?? '';
  if (!/^\d{6}$/.test(id)) return `the UNITID "${id}" is not six digits`;
  const name = notAvailable(row.INSTNM);
  if (!name) return 'the institution has no name';
  return {
    category: 'college_ceeb',
    id,
    name,
    city: cityName(row.CITY),
    stateCode: stateCode(row.STABBR),
    zip: notAvailable(row.ZIP),
    country: 'USA',
    // CYACTIVE 1 is active this year; a closing date (other than IPEDS' -2 "not applicable") means closed.
    active: row.CYACTIVE === '1' && (row.CLOSEDAT === undefined || row.CLOSEDAT === '-2'),
    aliases: notAvailable(row.IALIAS),
  };
};

const portalRow: RowReader = (row) => {
  const category = row.category as StoredCategory;
  if (!storedCategories.includes(category)) return `the category "${row.category}" is not one of ${storedCategories.join(', ')}`;
  const id = row.id ?? '';
  if (id === '' || id.length > 64) return 'the id must have 1 to 64 characters';
  const name = notAvailable(row.name);
  if (!name) return 'the record has no name';
  const state = notAvailable(row.state);
  return {
    category,
    id,
    name,
    ceeb: notAvailable(row.ceeb),
    city: notAvailable(row.city),
    stateCode: state && (stateCode(state) ?? codeOfStateName(state)),
    zip: notAvailable(row.zip),
    country: notAvailable(row.country) ?? 'USA',
    active: row.active !== 'false',
    aliases: notAvailable(row.aliases),
  };
};

const stateCode = (value: string | undefined) => {
  const code = value?.trim().toUpperCase();
  return code && code in usStateNameByCode ? code : undefined;
};
const codeByStateName = new Map(Object.entries(usStateNameByCode).map(([code, name]) => [name.toLowerCase(), code]));
const codeOfStateName = (name: string) => codeByStateName.get(name.toLowerCase());

/** Title case for text written all in capitals or all in small letters; mixed case is kept as written. */
export function titleCase(value: string): string {
  if (value !== value.toUpperCase() && value !== value.toLowerCase()) return value;
  return value.toLowerCase().replace(/(^|[\s\-./'(])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase());
}

/** Military post offices keep their capitals; other city names written in one case get title case. */
const postOffices = new Set(['APO', 'FPO', 'DPO']);
export function cityName(value: string | undefined): string | undefined {
  const city = notAvailable(value?.trim());
  return !city || postOffices.has(city) ? city : titleCase(city);
}

/**
 * US ZIP codes from the `zipcodes` package (42k codes with city and state). Required only while
 * loading and dropped from the module cache afterwards: it holds ~28 MB of objects while loaded.
 */
export function zipRecords(): LookupRecord[] {
  const require = createRequire(import.meta.url);
  const zipcodes = require('zipcodes') as typeof import('zipcodes');
  const packageDir = path.dirname(require.resolve('zipcodes/package.json'));
  for (const key of Object.keys(require.cache)) if (key.startsWith(packageDir)) delete require.cache[key];
  return Object.values(zipcodes.codes)
    .filter((entry) => entry.country === 'US')
    .map((entry) => ({
      category: 'address' as const,
      id: entry.zip,
      name: entry.zip,
      city: cityName(entry.city),
      stateCode: stateCode(entry.state),
      zip: entry.zip,
      country: 'USA',
      active: true,
    }));
}
