/** The admissions office's console: its texts and bounds, shared by the server and the console. */

/** ASVS 2.1.1 asks at least 12 characters of a privileged user's password (applicants: the spec's 8). */
const STAFF_PASSWORD_MIN_LENGTH = 12;
const STAFF_PASSWORD_MAX_LENGTH = 128;
export const RECOVERY_CODE_COUNT = 10;

export const staffMessages = {
  sessionEnded: 'Your staff session has ended. Please sign in again.',
  adminOnly: 'Only an administrator can do this.',
  deciderOnly: 'Only a decider or an administrator can do this.',
  badCredentials: 'Incorrect e-mail, password or code.',
  codesLocked: 'Too many wrong codes were entered for this account. Sign in with one of your recovery codes, or ask an administrator to remove your account and invite you again.',
  setupInvalid: 'This set-up link is invalid, used or expired. Ask an administrator for a new one.',
  setupDone: 'Your staff account is ready. Keep these recovery codes somewhere safe, then sign in.',
  passwordTooShort: `Your password must be at least ${STAFF_PASSWORD_MIN_LENGTH} characters long.`,
  passwordTooLong: `Your password can have at most ${STAFF_PASSWORD_MAX_LENGTH} characters.`,
  passwordsDiffer: 'The passwords do not match.',
  codeWrong: 'The code is incorrect or has expired. Enter the 6 digits your authenticator app shows now.',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  emailInvalid: 'Enter a valid e-mail address.',
  signedOut: 'You are signed out.',
  alreadyActive: 'This person already has a staff account.',
  notSubmitted: 'This application has not been submitted: it has no PDF copy.',
  applicationNotFound: 'We could not find that application.',
  documentNotFound: 'This document has not been converted, so there is nothing to download.',
  pdfNotReady: 'The PDF copy is not ready.',
  rangeBackwards: 'The end of the range must be after its start.',
  cannotRemoveSelf: 'You cannot remove your own account: another administrator can.',
  staffNotFound: 'We could not find that staff member.',
  lastAdmin: 'The office needs at least one administrator: make someone else an administrator first.',
  noteEmpty: 'Write the note before adding it.',
  conflicted: 'You declared a conflict of interest with this application, so it is not shown to you. An administrator can withdraw it.',
  conflictNotFound: 'There is no such conflict of interest.',
} as const;

/** The staff roles from the least to the most trusted: each can do what the ones before it can. */
export const STAFF_ROLES = ['reader', 'decider', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Whether `role` may do what `needed` may. */
export const staffRoleCovers = (role: StaffRole, needed: StaffRole): boolean => STAFF_ROLES.indexOf(role) >= STAFF_ROLES.indexOf(needed);

/** What an admin reads once a staff member is removed. */
export const staffRemovedMessage = (email: string) => `${email} no longer has access.`;

/** Whether a staff password is long enough (the common-password check runs on the server). */
export function staffPasswordErrors(password: string): string[] {
  if ([...password].length < STAFF_PASSWORD_MIN_LENGTH) return [staffMessages.passwordTooShort];
  if ([...password].length > STAFF_PASSWORD_MAX_LENGTH) return [staffMessages.passwordTooLong];
  return [];
}

/** Staff sign-in with the institution's identity provider (issue 32): what the sign-in page says when it comes back. */
export const oidcMessages = {
  refused: 'Your account at the institution is not let into the admissions console. Ask an administrator.',
  failed: 'Signing in with the institution did not complete. Try again.',
  domainInvalid: 'Enter domains such as northfield.edu.',
} as const;
