/**
 * Validation of the account forms (spec/platform.md §5). The same module runs in the browser and on
 * the server, so both give the same messages.
 */
import { object, string } from 'yup';
import { CONFIRMATION_CODE_LENGTH, PASSWORD_MIN_LENGTH } from '../config/constants';

export const messages = {
  emailInvalid: 'Your email address must be valid.',
  loginEmailInvalid: 'Please provide a valid email address.',
  passwordRequired: 'Password is required.',
  codeInvalid: 'The confirmation code must be exactly 6 numbers.',
  resendEmailInvalid: 'You must provide a valid email address to resend a confirmation code.',
  passwordTooShort: `Your password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  passwordNeedsUppercase: 'Your password must contain an uppercase letter.',
  passwordNeedsLowercase: 'Your password must contain a lowercase letter.',
  passwordNeedsNumber: 'Your password must contain a number.',
  passwordNeedsSpecial: 'Your password must contain a special character.',
  passwordWhitespace: 'Your password must not start or end with a space.',
  passwordsDiffer: 'The passwords do not match.',
  resetIdMissing: 'This reset link is incomplete. Please use the link from your email, or ask for a new one.',
} as const;

/** Special punctuation accepted by the password rule (the set identity providers commonly accept). */
const SPECIAL = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]/;

export type RequirementState = 'inactive' | 'error' | 'success';

/** The live requirement list of the sign-up and reset screens. */
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

const email = (message: string) =>
  string()
    .default('')
    .trim()
    .required(message)
    .email(message)
    // yup's e-mail pattern accepts a domain without a dot; an applicant's address always has one.
    .matches(/@[^@\s]+\.[^@\s]+$/, { message, excludeEmptyString: true });

const newPassword = () => {
  let schema = string().default('').required(messages.passwordTooShort);
  for (const rule of passwordRequirements) schema = schema.test(rule.id, rule.message, (value) => rule.test(value ?? ''));
  return schema;
};

export const loginSchema = object({
  username: email(messages.loginEmailInvalid),
  password: string().default('').required(messages.passwordRequired),
});
export const signupSchema = object({ username: email(messages.emailInvalid), password: newPassword() });
export const confirmSchema = object({
  username: email(messages.emailInvalid),
  code: string()
    .default('')
    .trim()
    .matches(new RegExp(`^\\d{${CONFIRMATION_CODE_LENGTH}}$`), messages.codeInvalid),
});
export const forgotSchema = object({ username: email(messages.emailInvalid) });
export const resendSchema = object({ username: email(messages.resendEmailInvalid) });
export const resetSchema = object({
  username: email(messages.emailInvalid),
  password: newPassword(),
  confirm_password: string()
    .default('')
    .test('matches', messages.passwordsDiffer, function matches(value) {
      return value === this.parent.password;
    }),
  id: string().default('').trim().required(messages.resetIdMissing),
});

export { validate, type FieldErrors } from '../lib/collectErrors';

/** The lower-cased, trimmed form of an address that accounts are keyed by. */
export const normalizeUsername = (username: string) => username.trim().toLowerCase();
