/**
 * Every spec text that both halves show, once: the browser checks and shows them first, the server
 * checks again and answers with the same words. Texts only one side shows live with that side.
 */
import { MIN_AGE, partnerConfig, PASSWORD_MIN_LENGTH } from './config';

/** spec/platform.md §8. */
export const GENERIC_ERROR_MESSAGE = "We've encountered an unexpected error at this time. Please try again later.";
/** Issue 48: no answer at all (offline): said so, instead of the unexpected error of a response that is not JSON. */
export const OFFLINE_MESSAGE = 'We could not reach the portal: your connection seems to be down. Please try again once you are back online.';
/** The same on the form's pages, where what was typed stays in the browser until it is saved. */
export const OFFLINE_TYPING_KEPT_MESSAGE = 'We could not reach the portal: your connection seems to be down. What you typed is kept on this device and is saved once you are back online.';
export const SESSION_INVALID_MESSAGE = 'Your session is invalid. Please clear your cookies and login again.';

/** spec/platform.md §5: the account forms. */
export const accountMessages = {
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

/** spec/form.md §5: the answers. A required message is the field's label unless one is given. */
export const answerMessages = {
  homePhone: 'Please enter a valid home phone number.',
  cellPhone: 'Please enter a valid cell phone number.',
  /** A phone field the spec gives no message of its own. */
  phone: (label: string) => `${label}: Please enter a valid phone number.`,
  /** An e-mail field, or a parent's (the spec's 'Primary Parent/Guardian: Please provide a valid email address.'). */
  email: (label: string) => `${label}: Please provide a valid email address.`,
  smsNeedsCell: 'A cell phone number is required to receive text message updates.',
  onePhone: 'Please enter either a home phone or cell phone number.',
  dateNotSupported: 'This date is not supported. Please contact help support for assistance.',
  tooYoung: `You must be ${MIN_AGE} years or older to apply.`,
  zipTooShort: 'ZIP/Postal Code must be at least 5 characters.',
  minYear: (year: number) => `The minimum supported year is ${year}`,
  maxYear: (year: number) => `The maximum supported year is ${year}`,
  parentPhone: (who: string) => `${who}: Please enter a valid home phone number.`,
  gpaNumeric: 'Weighted Cumulative GPA must be a numeric value.',
  counselorEmail: 'The counselor email address you entered is invalid.',
  counselorPhone: 'The counselor phone number you entered is invalid.',
  /** Issue 48: a number from abroad typed where a US number stands (Home, Cell Phone). */
  phoneAbroad: 'This looks like a number outside the United States: please enter it under International Phone, with + and its country code.',
  /** Issue 48: a parent's or counselor's number with more digits than a US one and no '+'. */
  phoneNeedsCountry: (message: string) => `${message} A number outside the United States starts with + and its country code.`,
  /** Issue 48: a dropdown's answer its list does not offer for the answer it follows (a Canadian province for the United States). */
  notOffered: (label: string) => `${label}: Please choose one of the choices offered for your answer above it.`,
  /** Issue 48: International Phone, checked as the other phones. */
  internationalPhone: 'Please enter your international phone number with + and its country code, for example +44 20 7946 0958.',
  ageNumeric: 'Age must start with a number.',
  tooLong: (label: string, limit: number) => `${label} can have at most ${limit} characters.`,
} as const;

/** spec/form.md §5 "File upload"; the client checks first and the server again. */
export const fileMessages = {
  tooLarge: 'Your file is too large. The maximum file size is 1 MB.',
  wrongType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
  nameTooLong: 'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.',
  empty: 'Your file is empty. Please upload a non-empty file.',
} as const;

/** The default when a conversion fails without a message of its own. */
/** A change to an application after its submission (a save, a file, a second submit) is refused with this. */
export const APPLICATION_FROZEN_MESSAGE = 'Your application has been submitted and can no longer be changed.';
/** A save to an application the office cancelled at the applicant's request, before it was submitted (issue 51). */
export const APPLICATION_CANCELLED_MESSAGE = `Your application was cancelled at your request, so changes are not saved. To go on with it, please contact the ${partnerConfig.address.officeName}.`;
export const CONVERSION_FAILED_MESSAGE = 'We could not convert your file to PDF. Please try again or upload another file.';

/** A service token that is unknown or expired (the print view shows it; the server answers it). */
/** A saved-answers link that is unknown, expired, or not even shaped like one. */
export const SAVED_ANSWERS_LINK_INVALID = 'This link to saved answers has expired or is not valid. Your answers could not be restored.';

export const PRINT_LINK_INVALID = 'This print link has expired or is not valid. Please ask for a new one.';

/** spec/form.md §2: after a successful submit. */
export const SUBMITTED_MESSAGE = 'Your application was successfully submitted.';

/** Issue 28: a save that would overwrite answers changed in another tab or on another device. */
export const ANSWERS_CHANGED_MESSAGE = 'Some answers were changed in another tab or on another device. Choose which to keep.';
/** Issue 28: a page left open on one account, after another account signed in in this browser. */
export const ACCOUNT_CHANGED_MESSAGE = 'This page was opened for another account, so nothing was saved. It now shows the account that is signed in.';
/** Issue 48: answers typed just before another account signed in in this browser. */
export const UNSAVED_KEPT_MESSAGE = 'Your latest answers were not saved to your account. They are kept in this tab: sign in again here with your own account to save them.';
/** Issue 48: answers typed in one tab just before a sign-out in another. */
export const UNSAVED_SIGNED_OUT_MESSAGE = 'Your latest answers in this tab were not saved before you signed out.';

/** spec/platform.md §1, spec/form.md §1: said on the first page and the completion page (issue 28). */
export const NO_FEE_MESSAGE = 'There is no application fee, and every applicant is automatically considered for scholarships.';
