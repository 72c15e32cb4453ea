/**
 * Validation of the account forms (spec/platform.md §5). The same module runs in the browser and on
 * the server, so both give the same messages.
 */
import { CONFIRMATION_CODE_LENGTH, PASSWORD_MIN_LENGTH } from '../config';
import { accountMessages as messages } from '../messages';
import { collectErrors, type Check, type FieldErrors } from './collect';
import { EMAIL_PATTERN } from './formats';

/** Special punctuation accepted by the password rule (the set identity providers commonly accept). */
const SPECIAL = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/;

export type RequirementState = 'inactive' | 'error' | 'success';

/** The live requirement list of the sign-up and reset screens; each also is a rule of a new password. */
export const passwordRequirements = [
  { id: 'length', label: `At least ${PASSWORD_MIN_LENGTH} characters`, message: messages.passwordTooShort, test: (p: string) => [...p].length >= PASSWORD_MIN_LENGTH },
  { id: 'uppercase', label: 'An uppercase letter', message: messages.passwordNeedsUppercase, test: (p: string) => /\p{Lu}/u.test(p) },
  { id: 'lowercase', label: 'A lowercase letter', message: messages.passwordNeedsLowercase, test: (p: string) => /\p{Ll}/u.test(p) },
  { id: 'number', label: 'A number', message: messages.passwordNeedsNumber, test: (p: string) => /\d/.test(p) },
  { id: 'special', label: 'A special character, such as ! ? # or %', message: messages.passwordNeedsSpecial, test: (p: string) => SPECIAL.test(p) },
  { id: 'whitespace', label: 'No space at the start or end', message: messages.passwordWhitespace, test: (p: string) => p.trim() === p },
] as const;

export function requirementStates(password: string): Record<(typeof passwordRequirements)[number]['id'], RequirementState> {
  const out = {} as Record<(typeof passwordRequirements)[number]['id'], RequirementState>;
  for (const rule of passwordRequirements) out[rule.id] = password === '' ? 'inactive' : rule.test(password) ? 'success' : 'error';
  return out;
}

/** Exactly the 6 digits of a confirmation code (spec/platform.md §5). */
const CODE_PATTERN = new RegExp(`^\\d{${CONFIRMATION_CODE_LENGTH}}$`);

type Values = Partial<Record<string, string>>;
type Rule = readonly [field: string, check: Check<Values>];

const valueOf = (values: Values, field: string) => values[field] ?? '';
const email = (message: string): Rule => ['username', (v) => (EMAIL_PATTERN.test(valueOf(v, 'username').trim()) ? null : message)];
const newPassword: Rule[] = passwordRequirements.map((rule) => ['password', (v: Values) => (rule.test(valueOf(v, 'password')) ? null : rule.message)] as const);

/** The fields each account screen checks at submit (spec/platform.md §5), as rules of the one runner. */
const accountForms = {
  login: [email(messages.loginEmailInvalid), ['password', (v) => (valueOf(v, 'password') === '' ? messages.passwordRequired : null)]],
  signup: [email(messages.emailInvalid), ...newPassword],
  confirm: [
    email(messages.emailInvalid),
    ['code', (v) => (CODE_PATTERN.test(valueOf(v, 'code').trim()) ? null : messages.codeInvalid)],
  ],
  forgot: [email(messages.emailInvalid)],
  resend: [email(messages.resendEmailInvalid)],
  reset: [
    email(messages.emailInvalid),
    ...newPassword,
    ['confirm_password', (v) => (valueOf(v, 'confirm_password') === valueOf(v, 'password') ? null : messages.passwordsDiffer)],
    ['id', (v) => (valueOf(v, 'id').trim() === '' ? messages.resetIdMissing : null)],
  ],
} satisfies Record<string, Rule[]>;

export type AccountForm = keyof typeof accountForms;

/** Every message of every field of one account form; {} when it can be sent. */
export function validateAccountForm(form: AccountForm, values: Values): FieldErrors {
  return collectErrors(accountForms[form], values);
}

/** The lower-cased, trimmed form of an address that accounts are keyed by. */
export const normalizeUsername = (username: string) => username.trim().toLowerCase();
