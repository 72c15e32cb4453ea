/** Input formats of spec/form.md §4 and §5. */

/** (NXX) NNN-NNNN: the area code starts with 2 to 9. */
export const PHONE_PATTERN = /^\([2-9]\d{2}\) \d{3}-\d{4}$/;

/**
 * A standard address (spec/form.md §5), for accounts and answers alike: the HTML standard's valid
 * e-mail address, with a dot in the domain (an applicant's address always has one).
 */
export const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A real calendar date written yyyy-mm-dd, or null. */
/** A date as the documents and letters print it, "March 15, 2027", in UTC (a server's zone never shows). */
export const longDateUtc = (date: Date): string => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

export function parseIsoDate(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

/** The longest number E.164 allows, in digits after the '+'. */
const E164_MAX_DIGITS = 15;

/**
 * Whether a typed phone is an international one: it starts with '+' and a country code other than
 * the US's 1. Such a number is never squeezed into (ddd) ddd-dddd (issue 28).
 */
const isInternational = (input: string): boolean => /^\s*\+\s*[02-9]/.test(input);

/** The trunk prefix some countries write in brackets after the country code ('+44 (0)20 …'): not dialled from abroad. */
const TRUNK_PREFIX = /\(\s*0\s*\)/g;

/** The digits of a US number: ten (the spec's (ddd) ddd-dddd). */
const US_DIGITS = 10;

/**
 * Formats typed or pasted digits as (ddd) ddd-dddd while typing. Eleven digits starting with 1 are
 * the US country code and a number (a leading 1 of ten digits is no country code: no area code
 * starts with 1, so that number is refused, every digit shown). A number typed with '+' and
 * another country code is kept as it is, in E.164 ('+919845067890'), the form it is stored in,
 * without a trunk '(0)'; `showPhone` writes it out. More digits than a US number without '+' are
 * never cut: kept whole, unformatted, and refused with a message asking for the country (issue 48).
 */
export function formatPhone(input: string): string {
  if (isInternational(input)) return `+${input.replace(TRUNK_PREFIX, '').replace(/\D/g, '').slice(0, E164_MAX_DIGITS)}`;
  // The '+' typed first, before its country code: kept, or typing a number from abroad key by key could never start.
  if (/^\s*\+\s*$/.test(input)) return '+';
  let digits = input.replace(/\D/g, '');
  if (digits.length === US_DIGITS + 1 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length > US_DIGITS) return digits.slice(0, E164_MAX_DIGITS);
  if (digits.length === 0) return '';
  if (digits.length <= 3) return `(${digits}`;
  if (digits.length <= 6) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** A phone that is no US number but one from abroad: in E.164, or more digits than a US number. */
export const looksAbroad = (value: string): boolean => value.startsWith('+') || value.replace(/\D/g, '').length > US_DIGITS;

/**
 * The numbering plans of every country (libphonenumber-js): 29 kB gzipped of metadata, more than a
 * sixth of the form's scripts, so the browser loads it only once a number from abroad is typed or
 * stored (src/lib/phoneLibrary.ts), and the server at start. Until then a number from abroad is
 * checked by its E.164 shape and shown as stored.
 */
export interface PhoneLibrary {
  isValid(e164: string): boolean;
  /** Grouped the way its country writes it: '+91 98450 67890'. */
  format(e164: string): string;
}
let phoneLibrary: PhoneLibrary | null = null;
export function setPhoneLibrary(library: PhoneLibrary | null): void {
  phoneLibrary = library;
}
export const hasPhoneLibrary = (): boolean => phoneLibrary !== null;

/** A stored phone as people write it: an E.164 number grouped the way its country does ('+91 98450 67890'). */
export function showPhone(stored: string): string {
  return stored.startsWith('+') && phoneLibrary ? phoneLibrary.format(stored) : stored;
}

/** A number from abroad: '+', a country code and a number valid in that country (by its E.164 shape until the plans are in). */
export function isInternationalPhone(value: string): boolean {
  if (!/^\+[1-9]\d{6,14}$/.test(value)) return false;
  return phoneLibrary ? phoneLibrary.isValid(value) : true;
}

/** A phone a parent or counselor may have abroad: the US pattern, or a valid international number. */
export function isUsOrInternationalPhone(value: string): boolean {
  return PHONE_PATTERN.test(value) || isInternationalPhone(value);
}

/** Formats digits as ddd-dd-dddd (3-2-4) while typing. */
export function formatSsn(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/** File sizes in decimal units with no fraction digits (spec/form.md §3): 48213 → '48 kB'. */
export function formatFileSize(bytes: number): string {
  const units = [
    ['byte', 1],
    ['kilobyte', 1e3],
    ['megabyte', 1e6],
    ['gigabyte', 1e9],
  ] as const;
  let i = 0;
  while (i < units.length - 1 && bytes >= units[i + 1]![1]) i++;
  // 999,600 bytes rounds to 1,000 kB: show it as 1 MB instead.
  if (i < units.length - 1 && Math.round(bytes / units[i]![1]) >= 1000) i++;
  const [unit, size] = units[i]!;
  // Bytes in words ('619 bytes', '1 byte'): the short form says '619 byte'.
  const unitDisplay = unit === 'byte' ? 'long' : 'short';
  return new Intl.NumberFormat('en-US', { style: 'unit', unit, unitDisplay, maximumFractionDigits: 0 }).format(bytes / size);
}
