/**
 * Validation of the application (spec/form.md §5), one module for the browser and the server
 * (which re-validates on submit). Rules come from the catalogue (required-while-shown, lengths,
 * formats) plus the spec's rules that span fields. Built as a yup object schema; every message of
 * a field is collected and shown once.
 */
import { mixed, object } from 'yup';
import { allFields, fieldByKey, fieldsOf, type ExpandedField } from '../catalogue';
import { DEFAULT_INPUT_MAX_LENGTH, DEFAULT_TEXTAREA_MAX_LENGTH } from '../config/constants';
import { validate, type FieldErrors } from '../lib/collectErrors';
import { allHold, isAnswered, type RuleContext } from './conditions';
import { optionsFor } from './conditionalOptions';
import { EMAIL_PATTERN, PHONE_PATTERN } from './formats';

export type Answers = RuleContext;

export const formMessages = {
  homePhone: 'Please enter a valid home phone number.',
  cellPhone: 'Please enter a valid cell phone number.',
  smsNeedsCell: 'A cell phone number is required to receive text message updates.',
  onePhone: 'Please enter either a home phone or cell phone number.',
  dateNotSupported: 'This date is not supported. Please contact help support for assistance.',
  tooYoung: (years: number) => `You must be ${years} years or older to apply.`,
  zipTooShort: 'ZIP/Postal Code must be at least 5 characters.',
  minYear: (year: number) => `The minimum supported year is ${year}`,
  maxYear: (year: number) => `The maximum supported year is ${year}`,
  parentEmail: (who: string) => `${who}: Please provide a valid email address.`,
  parentPhone: (who: string) => `${who}: Please enter a valid home phone number.`,
  gpaNumeric: 'Weighted Cumulative GPA must be a numeric value.',
  counselorEmail: 'The counselor email address you entered is invalid.',
  counselorPhone: 'The counselor phone number you entered is invalid.',
  siblingAge: (n: number) => `Sibling ${n}: Age must start with a number.`,
  tooLong: (label: string, limit: number) => `${label} can have at most ${limit} characters.`,
  invalidEmail: (label: string) => `${label}: Please provide a valid email address.`,
} as const;

export const MIN_AGE = 13;
export const MAX_AGE = 100;
/** The stored placeholder of a month whose year is not asked separately (spec/form.md §5). */
export const ANSWERED = 'ANSWERED';

const filled = isAnswered;
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value));

/** Whether a field is on screen: its group's and its own conditions hold. */
export function isShown(field: ExpandedField, answers: Answers): boolean {
  return allHold(field.group.showWhen ?? [], answers) && allHold(field.showWhen ?? [], answers) && optionsFor(field, answers) !== null;
}

/**
 * Instance 1 of a repeated group is always asked; a further instance (High School 2, …) only once
 * the applicant has put something in it.
 */
function instanceInUse(field: ExpandedField, answers: Answers): boolean {
  return field.instance === 1 || fieldsOf(field.group, field.instance).some((f) => filled(answers[f.key]));
}

type Check = (answers: Answers, now: Date) => string | null;
const checks = new Map<string, Check[]>();
const add = (key: string, check: Check) => {
  if (!fieldByKey.has(key)) throw new Error(`validation rule for unknown answer key ${key}`);
  checks.set(key, [...(checks.get(key) ?? []), check]);
};

// Generic rules from the catalogue: required while shown, maximum length.
for (const field of allFields) {
  if (field.required) {
    add(field.key, (a) =>
      isShown(field, a) && instanceInUse(field, a) && !filled(a[field.key]) ? `${field.messagePrefix}${field.requiredMessage ?? field.label}` : null,
    );
  }
  if (field.type === 'text' || field.type === 'textarea' || field.type === 'lookup' || field.type === 'email') {
    const limit = field.maxLength ?? (field.type === 'textarea' ? DEFAULT_TEXTAREA_MAX_LENGTH : DEFAULT_INPUT_MAX_LENGTH);
    add(field.key, (a) => (text(a[field.key]).length > limit ? formMessages.tooLong(`${field.messagePrefix}${field.label}`, limit) : null));
  }
}

const yearOf = (value: unknown): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text(value));
  if (!match) return null;
  const date = new Date(`${match[0]}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[0] ? null : Number(match[1]);
};

// Person.
const phoneCheck = (key: string, message: string) => add(key, (a) => (filled(a[key]) && !PHONE_PATTERN.test(text(a[key])) ? message : null));
phoneCheck('phone_home', formMessages.homePhone);
phoneCheck('phone_mobile', formMessages.cellPhone);
add('phone_mobile', (a) => (a.optin_sms_ind === true && !filled(a.phone_mobile) ? formMessages.smsNeedsCell : null));
add('phone_home', (a) => (!filled(a.phone_home) && !filled(a.phone_mobile) && !filled(a.phone_international) ? formMessages.onePhone : null));
add('birth_date', (a, now) => {
  if (!filled(a.birth_date)) return null; // the required rule speaks
  const year = yearOf(a.birth_date);
  if (year === null || year < now.getFullYear() - MAX_AGE) return formMessages.dateNotSupported;
  if (year > now.getFullYear() - MIN_AGE) return formMessages.tooYoung(MIN_AGE);
  return null;
});

// Address: ZIP for the United States; the mailing dates' year windows.
add('zip', (a) => {
  if (a.country !== 'USA') return null;
  if (!filled(a.zip)) return 'ZIP/Postal Code';
  return text(a.zip).length < 5 ? formMessages.zipTooShort : null;
});
const yearWindow = (key: string, before: number, after: number) =>
  add(key, (a, now) => {
    if (!filled(a[key])) return null; // blank values are empty, not wrong
    const year = yearOf(a[key]);
    const min = now.getFullYear() - before;
    const max = now.getFullYear() + after;
    if (year === null || year < min) return formMessages.minYear(min);
    return year > max ? formMessages.maxYear(max) : null;
  });
yearWindow('mailing_addr_effective_date', 6, 1);
yearWindow('mailing_addr_expiration_date', 3, 4);

// Legacy: connection 1 when legacy_ind is Y; connections 2 to 5 once any of their fields is filled.
for (let n = 1; n <= 5; n++) {
  const key = (base: string) => (n === 1 ? `legacy_${base}` : `legacy_${n}_${base}`);
  const parts = [key('relationship'), key('first_name'), key('last_name')];
  for (const part of parts) {
    const field = fieldByKey.get(part)!;
    add(part, (a) => {
      const needed = n === 1 ? a.legacy_ind === 'Y' : a.legacy_ind === 'Y' && parts.some((p) => filled(a[p]));
      return needed && !filled(a[part]) ? `${field.messagePrefix}${field.label}` : null;
    });
  }
}

// Parents, unless there is no parent to list.
const parentTitle = { parent_: 'Primary Parent/Guardian', parent_2_: 'Secondary Parent/Guardian' } as const;
add('parent_marital_status', (a) => (a.no_parent_primary !== true && !filled(a.parent_marital_status) ? "Parents' Marital Status" : null));
for (const prefix of ['parent_', 'parent_2_'] as const) {
  const who = parentTitle[prefix];
  for (const base of ['relationship', 'first_name', 'last_name']) {
    const key = `${prefix}${base}`;
    add(key, (a) => {
      if (a.no_parent_primary === true) return null;
      const needed = prefix === 'parent_' ? filled(a.parent_marital_status) : a.parent_2_living === 'Y';
      return needed && !filled(a[key]) ? `${who}: ${fieldByKey.get(key)!.label}` : null;
    });
  }
  add(`${prefix}email_address`, (a) =>
    a.no_parent_primary !== true && filled(a[`${prefix}email_address`]) && !EMAIL_PATTERN.test(text(a[`${prefix}email_address`]))
      ? formMessages.parentEmail(who)
      : null,
  );
  add(`${prefix}phone`, (a) =>
    a.no_parent_primary !== true && filled(a[`${prefix}phone`]) && !PHONE_PATTERN.test(text(a[`${prefix}phone`])) ? formMessages.parentPhone(who) : null,
  );
}

// Siblings: once a first name is given, last name, age (starting with a digit) and relationship.
for (let n = 1; n <= 5; n++) {
  const key = (base: string) => (n === 1 ? `sibling_${base}` : `sibling_${n}_${base}`);
  for (const base of ['last_name', 'age', 'relationship']) {
    add(key(base), (a) => (filled(a[key('first_name')]) && !filled(a[key(base)]) ? `Sibling ${n}: ${fieldByKey.get(key(base))!.label}` : null));
  }
  add(key('age'), (a) => (filled(a[key('age')]) && !/^\d/.test(text(a[key('age')])) ? formMessages.siblingAge(n) : null));
}

// Academics.
add('hs_gpa', (a) => (filled(a.hs_gpa) && !/^\d/.test(text(a.hs_gpa)) ? formMessages.gpaNumeric : null));
add('counselor_email_address', (a) => (filled(a.counselor_email_address) && !EMAIL_PATTERN.test(text(a.counselor_email_address)) ? formMessages.counselorEmail : null));
add('counselor_phone', (a) => (filled(a.counselor_phone) && !PHONE_PATTERN.test(text(a.counselor_phone)) ? formMessages.counselorPhone : null));
// A month whose year is empty must hold the placeholder ANSWERED.
for (const [month, year] of [
  ['hs_attend_from_month', 'hs_attend_from_year'],
  ['grad_month', 'grad_year'],
] as const) {
  add(month, (a) => (filled(a[month]) && !filled(a[year]) && a[month] !== ANSWERED ? fieldByKey.get(year)!.label : null));
}

/** The yup schema of the whole application, for the answers as of `now` (year windows move). */
export function applicationSchema(now = new Date()) {
  const shape: Record<string, ReturnType<typeof mixed>> = {};
  for (const [key, list] of checks) {
    let schema = mixed();
    list.forEach((check, i) => {
      schema = schema.test(`${key}-${i}`, function test() {
        const message = check(this.parent as Answers, now);
        return message === null ? true : this.createError({ message, path: key });
      });
    });
    shape[key] = schema;
  }
  return object(shape);
}

/** All messages per answer key, each once; {} when the application can be submitted. */
export function validateApplication(answers: Answers, now = new Date()): FieldErrors {
  return validate(applicationSchema(now), answers);
}
