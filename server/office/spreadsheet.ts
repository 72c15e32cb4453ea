/** A file for a spreadsheet, as every export of the office writes one (the admin's export and a template's spreadsheet flavour). */
import { stringify } from 'csv-stringify';

/**
 * What a spreadsheet may skip before it reads a cell's first character: spaces (NBSP and the
 * ideographic space too), zero-width characters, a byte-order mark, tabs and line breaks.
 */
const SKIPPED_BEFORE_A_CELL = '[\\s\\u00a0\\u1680\\u2000-\\u200f\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff]*';
/** Characters that open a formula, and their fullwidth forms (some spreadsheets read them as ASCII); a leading tab or CR (OWASP). */
const FORMULA_OPENER = new RegExp(`^(?:${SKIPPED_BEFORE_A_CELL}[=+\\-@\\uff1d\\uff0b\\uff0d\\uff20]|[\\t\\r])`);

/**
 * A cell a spreadsheet would run as a formula is written with a leading apostrophe, as OWASP's
 * CSV injection advice says. The spreadsheet flavour of the export only: a file for a loader
 * carries values exactly as stored.
 */
export function neutralised(value: string): string {
  return FORMULA_OPENER.test(value) ? `'${value}` : value;
}

/**
 * The export as a spreadsheet opens it: a BOM so Excel reads UTF-8, formulas neutralised, and a
 * value holding `;` or a tab quoted, so a spreadsheet that splits on either keeps it one cell.
 */
export function spreadsheetCsv(columns: readonly string[]) {
  return stringify({
    header: true,
    bom: true,
    columns: [...columns],
    quoted_match: /[;\t]/,
    cast: {
      string: neutralised,
      boolean: (value) => (value ? 'true' : 'false'),
    },
  });
}
