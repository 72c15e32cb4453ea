/**
 * The mock's scenarios: every screen and state of the portal that `npm run dev:mock` can show,
 * each as the answers Prism gives (a status the contract declares and one of its named examples,
 * chosen per call through Prism's `Prefer` header). The contract stays the only source of
 * examples: a scenario only names them (mocks/mock.test.ts checks that each exists and validates).
 *
 * Open `/__mock` on the dev server for the list, or add `?mock=<name>` to any address; `?mock=off`
 * goes back to Prism's defaults. To add one: a named example in openapi.yaml if none fits, then an
 * entry here; the walk (e2e/mock-scenarios.spec.ts) opens it and looks for what it `shows`.
 */

/** How Prism answers one call: a status of the contract, and/or one of its named examples. */
export interface MockAnswer {
  code?: number;
  example?: string;
}

/** What a developer (and the walk) does on the page to meet the state: fields by their id, buttons by their name. */
type MockStep =
  | { fill: string; with: string }
  | { press: string }
  | { choose: string; file: string };

/** What shows that the screen was reached: an element by its role and name, or a text. */
type MockShown = { role: 'heading' | 'region' | 'link'; name: string } | { text: string };

export interface MockScenario {
  name: string;
  title: string;
  /** The address it opens. */
  page: string;
  /** Who the browser is: cookies the switch sets (the mock accepts any session cookie). */
  who: 'visitor' | 'applicant' | 'staff';
  /** Calls answered otherwise than by default, by the contract's operationId. */
  answers?: Record<string, MockAnswer>;
  steps?: MockStep[];
  shows: MockShown;
  /** The inactivity timeout shortened to this many seconds (the warning a little before it): "Still working?" and the sign-out, met in a moment. */
  idleSeconds?: number;
  /** A script error a moment after the page opens: the "Unexpected Error" modal. */
  scriptError?: true;
}

/** A submitted applicant on the completion page, with the PDF copy's status `copy`. */
const completion = (name: string, title: string, copy: string, shows: MockShown): MockScenario => ({
  name,
  title,
  page: '/completion',
  who: 'applicant',
  answers: { getProfile: { example: 'submitted' }, getPdfCopy: { example: copy } },
  shows,
});

/** A submitted applicant whose decision is released: the status page with `decision` (an example of GET /api/decision). */
const decided = (name: string, title: string, decision: string, shows: MockShown): MockScenario => ({
  ...completion(name, title, 'ready', shows),
  answers: { getProfile: { example: 'submitted' }, getPdfCopy: { example: 'ready' }, getMyDecision: { example: decision } },
});

/** The additional-information document of Final Steps, its conversion answering `conversion`. */
const document = (name: string, title: string, conversion: string, shows: MockShown): MockScenario => ({
  name,
  title,
  page: '/final-steps',
  who: 'applicant',
  answers: { getDocumentConversion: { example: conversion }, getDocumentAnswers: { example: conversion === 'completed' ? 'one' : 'none' } },
  shows,
});

/** An upload of the additional-information document that the upload target refuses with `code`. */
const refusedUpload = (name: string, title: string, code: number, message: string): MockScenario => ({
  name,
  title,
  page: '/final-steps',
  who: 'applicant',
  answers: { getDocumentConversion: { example: 'none' }, getDocumentAnswers: { example: 'none' }, uploadDocument: { code } },
  steps: [{ choose: 'additional_info_doc', file: 'essay.pdf' }],
  shows: { text: message },
});

/** A field of About You typed in (and `press`ed), the save answered with `code`. */
const refusedSave = (name: string, title: string, code: number, message: string, press?: string, example?: string): MockScenario => ({
  name,
  title,
  page: '/about',
  who: 'applicant',
  answers: { putAnswer: example ? { code, example } : { code } },
  steps: [{ fill: 'middle_name', with: 'Quinn' }, ...(press ? [{ press }] : [])],
  shows: { text: message },
});

/** The Sign In or Create Account card filled in and sent, its call answered with `code`. */
const refusedCard = (name: string, title: string, call: 'login' | 'signup', code: number, message: string): MockScenario => ({
  name,
  title,
  page: call === 'login' ? '/login' : '/signup',
  who: 'visitor',
  answers: { [call]: { code } },
  steps: [{ fill: 'username', with: 'applicant@example.com' }, { fill: 'password', with: 'Correct-Horse-42!' }, { press: call === 'login' ? 'Sign In' : 'Create Account' }],
  shows: { text: message },
});

/** A staff console page for a signed-in admin (or `reader`). */
const console_ = (name: string, title: string, page: string, heading: string, answers: Record<string, MockAnswer> = {}): MockScenario => ({
  name,
  title,
  page,
  who: 'staff',
  answers,
  shows: { role: 'heading', name: heading },
});

export const scenarios: MockScenario[] = [
  // The form, signed in.
  { name: 'about', title: 'About You, signed in', page: '/about', who: 'applicant', shows: { role: 'heading', name: 'About You' } },
  { name: 'academics', title: 'Academics, opened by its address', page: '/education', who: 'applicant', shows: { role: 'heading', name: 'Academics' } },
  { name: 'final-steps', title: 'Final Steps, opened by its address', page: '/final-steps', who: 'applicant', shows: { role: 'heading', name: 'Final Steps' } },
  {
    name: 'returning',
    title: 'Back after a break: sent to the last page visited (Academics)',
    page: '/about',
    who: 'applicant',
    answers: { getProfile: { example: 'returning' } },
    shows: { role: 'heading', name: 'Academics' },
  },
  {
    name: 'missing-answers',
    title: 'A refused submit: the error summary and every missing answer',
    page: '/about',
    who: 'applicant',
    answers: { getProfile: { example: 'validating' } },
    shows: { role: 'region', name: "We're missing some information!" },
  },
  {
    name: 'first-sign-in',
    title: 'The first sign-in of a new account: "You\'re in!"',
    page: '/about',
    who: 'applicant',
    answers: { getProfile: { example: 'firstSignIn' } },
    shows: { role: 'heading', name: "You're in! Now, let's get started on your application!" },
  },
  // When something goes wrong (issue 48: states a developer could not reach).
  { name: 'root-error', title: 'The root error screen: the profile could not be read (503)', page: '/about', who: 'applicant', answers: { getProfile: { code: 503 } }, shows: { role: 'heading', name: 'Something went wrong.' } },
  { name: 'still-working', title: '"Still working?" before the inactivity sign-out (the idle clock shortened to 20 s)', page: '/about', who: 'applicant', idleSeconds: 20, shows: { text: 'Still working?' } },
  {
    name: 'inactive-sign-out',
    title: 'Signed out for inactivity (the idle clock shortened to 4 s)',
    page: '/about',
    who: 'applicant',
    idleSeconds: 4,
    shows: { text: 'You have been automatically logged out due to inactivity.' },
  },
  { name: 'unexpected-error', title: 'The "Unexpected Error" modal (a script error of the page)', page: '/about', who: 'applicant', scriptError: true, shows: { text: 'Unexpected Error' } },
  {
    name: 'account-changed',
    title: 'A write from a page of another account (409 ACCOUNT_CHANGED): the page opens again for the account signed in',
    page: '/about',
    who: 'applicant',
    answers: { putAddAnother: { code: 409, example: 'account' } },
    steps: [{ press: 'Add another sibling' }],
    shows: { text: 'This page was opened for another account, so nothing was saved.' },
  },
  {
    name: 'saved-answers-expired',
    title: 'A link to a visitor’s saved answers that expired (404)',
    page: '/about?token=t5Yq2mN8vR4kW7xZ1aB3cD6eF9gH0jK2',
    who: 'visitor',
    answers: { getAnonymousAnswers: { code: 404, example: 'expired' } },
    shows: { text: 'This link to saved answers has expired or is not valid. Your answers could not be restored.' },
  },
  // The visitor.
  { name: 'visitor', title: 'A visitor on About You (no account yet)', page: '/about', who: 'visitor', shows: { role: 'heading', name: 'Hello!' } },
  { name: 'sign-in', title: 'Sign In', page: '/login', who: 'visitor', shows: { role: 'heading', name: 'Sign In' } },
  {
    name: 'confirm-wrong-code',
    title: 'Confirm Your Account with a wrong or expired code (400)',
    page: '/confirm',
    who: 'visitor',
    answers: { confirm: { code: 400, example: 'wrongCode' } },
    steps: [{ fill: 'username', with: 'applicant@example.com' }, { fill: 'code', with: '123456' }, { press: 'Confirm Account' }],
    shows: { text: 'The confirmation code is incorrect or has expired. Please check it, or ask for a new code.' },
  },
  {
    name: 'resend-error',
    title: 'A new confirmation code refused (429): the resend error',
    page: '/login',
    who: 'visitor',
    answers: { resendConfirm: { code: 429, example: 'tooMany' } },
    steps: [{ fill: 'username', with: 'applicant@example.com' }, { press: 'Resend confirmation code' }],
    shows: { text: 'Resend Confirmation Code Error' },
  },
  {
    name: 'reset-expired',
    title: 'A password reset from a link that expired (400)',
    page: '/reset?username=applicant%40example.com&id=r3setLinkId0123456789abcdef',
    who: 'visitor',
    answers: { resetPassword: { code: 400, example: 'expired' } },
    steps: [{ fill: 'password', with: 'Correct-Horse-42!' }, { fill: 'confirm_password', with: 'Correct-Horse-42!' }, { press: 'Reset Password' }],
    shows: { text: 'This reset link is invalid or has expired. Please ask for a new one.' },
  },
  // The completion page and the PDF copy.
  completion('copy-pending', 'Submitted: the PDF copy is being made', 'pending', { text: 'We are preparing a PDF copy of your application.' }),
  completion('copy-ready', 'Submitted: the PDF copy is ready', 'ready', { role: 'link', name: 'Download a PDF copy of your application' }),
  completion('copy-failed', 'Submitted: the PDF copy could not be made', 'failed', { text: 'The PDF copy of your application could not be made.' }),
  completion('copy-unprocessed', 'Submitted: the PDF copy asked for, not started yet', 'unprocessed', { text: 'We are preparing a PDF copy of your application.' }),
  completion('copy-not-answered', 'Submitted: no PDF copy asked for yet', 'notAnswered', { text: 'We are preparing a PDF copy of your application.' }),
  // The status after submit: under review, then the released decision.
  {
    ...completion('status-under-review', 'Submitted: under review, no decision released', 'ready', { text: 'Your application is under review. We will e-mail you when there is an update here.' }),
    answers: { getProfile: { example: 'submitted' }, getPdfCopy: { example: 'ready' }, getMyDecision: { example: 'underReview' } },
  },
  decided('status-admitted', 'Submitted: admitted, the letter and the reply', 'admitted', { role: 'heading', name: 'Decision: Admit' }),
  decided('status-offer-answered', 'Submitted: admitted, the offer accepted already', 'answered', { text: 'You accepted the offer of admission on March 16, 2027.' }),
  decided('status-denied', 'Submitted: not admitted', 'denied', { role: 'heading', name: 'Decision: Deny' }),
  decided('status-waitlisted', 'Submitted: on the waitlist', 'waitlisted', { role: 'heading', name: 'Decision: Waitlist' }),
  decided('status-deferred', 'Submitted: deferred to the regular round', 'deferred', { role: 'heading', name: 'Decision: Defer' }),
  decided('status-withdrawn', 'Submitted, then withdrawn at the applicant’s request', 'withdrawn', { text: 'Your application was withdrawn at your request' }),
  // After submission: the materials still needed and the recommenders asked (issue 31).
  completion('materials', 'Submitted: the materials still needed and the recommenders asked', 'ready', { role: 'heading', name: 'Your materials' }),
  // A recommender's link: the request, and a link refused.
  { name: 'recommend', title: 'A recommender’s page from their link', page: '/recommend?token=r3c0mmendT0kenAbCdEfGhIjKlMnOpQr', who: 'visitor', shows: { role: 'heading', name: 'A recommendation for Jordan Rivera' } },
  {
    name: 'recommend-expired',
    title: 'A recommender’s link that expired (410)',
    page: '/recommend?token=r3c0mmendT0kenAbCdEfGhIjKlMnOpQr',
    who: 'visitor',
    answers: { openRecommendation: { code: 410 } },
    shows: { text: 'This recommendation link has expired. Please ask the applicant to send it again.' },
  },
  // A document question in each state.
  document('document-converting', 'A document being converted to PDF', 'converting', { text: 'Converting your file to PDF…' }),
  document('document-unprocessed', 'A document uploaded, its conversion not started yet', 'unprocessed', { text: 'Converting your file to PDF…' }),
  document('document-converted', 'A document converted: its name and size', 'completed', { text: 'resume.pdf' }),
  document('document-failed', 'A document whose conversion failed', 'failed', { text: 'Your file could not be read. It may be damaged; please upload it again or choose another file.' }),
  refusedUpload('upload-too-large', 'An upload refused as too large (413)', 413, 'Your file is too large. The maximum file size is 1 MB.'),
  refusedUpload('upload-wrong-type', 'An upload refused for its real type (415)', 415, 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx'),
  // Errors of the contract, where the spec shows them.
  refusedSave('save-unavailable', 'A save while the server is out (503): kept on the page, tried again', 503, 'Not saved yet: we will try again in a moment.'),
  refusedSave('save-frozen', 'A save after submitting (409)', 409, 'Your application has been submitted and can no longer be changed.', 'Save', 'frozen'),
  refusedSave('save-cancelled', 'A save after the office cancelled the application at the applicant’s request (409)', 409, 'Your application was cancelled at your request, so changes are not saved.', 'Save', 'cancelled'),
  refusedSave('save-answers-changed', 'A save of an answer changed in another tab first (409): the question, mine or the newer one', 409, 'Some answers were changed in another tab or on another device. Choose which to keep.', 'Save', 'changed'),
  refusedSave('session-ended', 'A session that ended (401) at the next save: back to Sign In with the message', 401, 'Your session is invalid. Please clear your cookies and login again.'),
  refusedCard('sign-in-too-many', 'Sign In refused after too many attempts (429)', 'login', 429, 'Too many attempts. Please wait a few minutes and try again.'),
  refusedCard('sign-in-unconfirmed', 'Sign In of an account not confirmed yet (403)', 'login', 403, 'Your account is not confirmed yet. Enter the code we e-mailed you, or ask for a new one.'),
  refusedCard('sign-up-refused', 'Create Account refused with field errors (400)', 'signup', 400, 'Please check the highlighted fields.'),
  // The print view.
  { name: 'print', title: 'The print view (a staff link)', page: '/about?service_token=mock-service-token-0123456789', who: 'visitor', shows: { text: 'Jordan' } },
  {
    name: 'print-expired',
    title: 'The print view with an expired link',
    page: '/about?service_token=mock-service-token-0123456789',
    who: 'visitor',
    answers: { getServiceView: { code: 401 } },
    shows: { text: 'This print link has expired or is not valid. Please ask for a new one.' },
  },
  // The office.
  { name: 'staff-sign-in', title: 'Staff: sign-in', page: '/staff/login', who: 'visitor', shows: { role: 'heading', name: 'Admissions office sign-in' } },
  { name: 'staff-setup', title: 'Staff: setting up an account from its link', page: '/staff/setup?token=s3tupT0kenAbCdEfGhIjKlMnOpQrStUv', who: 'visitor', shows: { role: 'heading', name: 'Set up your staff account' } },
  console_('staff-applications', 'Staff: the applications', '/staff', 'Applications'),
  console_('staff-application', 'Staff: one application', '/staff/applications/0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10', 'Jordan Rivera'),
  console_('staff-application-blind', 'Staff: a reader’s application in a blind bin, their review to write', '/staff/applications/0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10', 'Jordan Rivera', {
    getStaffMe: { example: 'reader' },
    getStaffApplication: { example: 'blind' },
  }),
  console_('staff-queue', 'Staff: my queue', '/staff?queue=mine', 'My queue'),
  console_('staff-dashboard', 'Staff: the dashboard', '/staff/dashboard', 'Dashboard'),
  console_('staff-decisions', 'Staff: decisions to release', '/staff/decisions', 'Decisions'),
  console_('staff-letters', 'Staff: the decision letters', '/staff/letters', 'Letters'),
  console_('staff-conflicts', 'Staff: conflicts of interest', '/staff/conflicts', 'Conflicts of interest'),
  console_('staff-review-form', 'Staff: the review form', '/staff/review-form', 'Review form'),
  console_('staff-composite', 'Staff: the composite score’s formula', '/staff/composite', 'Composite score'),
  console_('staff-reports', 'Staff: a report by state and decision', '/staff/reports?by=place&then=decision', 'Reports'),
  console_('staff-committee', 'Staff: a bin as the committee reads it', '/staff/committee?bin=4', 'Committee'),
  console_('staff-reply-dates', 'Staff: each entry term’s reply date and deposit line', '/staff/reply-dates', 'Reply dates'),
  console_('staff-bins', 'Staff: the bins', '/staff/bins', 'Bins'),
  console_('staff-checklist', 'Staff: the checklist’s rules', '/staff/checklist', 'Checklist'),
  console_('staff-duplicates', 'Staff: likely duplicates, to merge', '/staff/duplicates', 'Duplicates'),
  console_('staff-retention', 'Staff: how long each cycle is kept, and what is due', '/staff/retention', 'Retention'),
  console_('staff-export', 'Staff: export templates, their runs and files', '/staff/export', 'Export'),
  console_('staff-export-template', 'Staff: an export template’s columns and code tables', '/staff/export/templates/1', 'Edit export template'),
  console_('staff-audit', 'Staff: the audit log', '/staff/audit', 'Audit log'),
  console_('staff-people', 'Staff: staff accounts', '/staff/people', 'Staff'),
  console_('staff-reader', 'Staff: a reader on an admin page', '/staff/export', 'Not available', { getStaffMe: { example: 'reader' } }),
];

/** The scenario of a name, or undefined. */
export const scenarioNamed = (name: string | undefined) => scenarios.find((scenario) => scenario.name === name);

/**
 * Answers every scenario shares: the lookup's detail form (`id=`) answered with the record, not the
 * suggestions (Prism cannot tell the two forms of one call apart by itself).
 */
export function baseAnswer(operationId: string, query: URLSearchParams): MockAnswer | undefined {
  if (operationId === 'lookupFind') return { example: query.has('id') ? 'detail' : 'suggestions' };
  return undefined;
}

/** Prism's `Prefer` header for an answer. */
export const preferHeader = (answer: MockAnswer) =>
  [answer.code !== undefined ? `code=${answer.code}` : '', answer.example ? `example=${answer.example}` : ''].filter(Boolean).join(', ');
