/** The first admin, made by `npm run staff -- add` before the test server starts (playwright.config.ts); the others by e2e/support/seedStaff.ts. */
export const FIRST_ADMIN_EMAIL = 'registrar@example.edu';
/** Where that command's output (the set-up link) is kept for the staff flow. */
export const FIRST_ADMIN_LINK_FILE = '.tmp/e2e-first-admin.txt';
/** A second admin, for the same-site attack on the console (attacks.spec.ts). */
export const SECOND_ADMIN_EMAIL = 'csrf-admin@example.edu';
export const SECOND_ADMIN_LINK_FILE = '.tmp/e2e-second-admin.txt';
/** A decider and an admin for the decisions flow (decisions.spec.ts). */
export const DECIDER_EMAIL = 'decider@example.edu';
export const DECIDER_LINK_FILE = '.tmp/e2e-decider.txt';
export const AUDITOR_EMAIL = 'auditor@example.edu';
export const AUDITOR_LINK_FILE = '.tmp/e2e-auditor.txt';
/** A reader for the materials flow (materials.spec.ts): the office's mail room. */
export const MAILROOM_EMAIL = 'mailroom@example.edu';
export const MAILROOM_LINK_FILE = '.tmp/e2e-mailroom.txt';
/** The password every staff account of the browser tests chooses. */
export const STAFF_PASSWORD = 'Admissions-Office-2027!';
