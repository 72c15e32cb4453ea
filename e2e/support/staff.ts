/** The first admin, made by `npm run staff -- add` before the test server starts (playwright.config.ts). */
export const FIRST_ADMIN_EMAIL = 'registrar@example.edu';
/** Where that command's output (the set-up link) is kept for the staff flow. */
export const FIRST_ADMIN_LINK_FILE = '.tmp/e2e-first-admin.txt';
/** A second admin, made the same way, for the same-site attack on the console (attacks.spec.ts). */
export const SECOND_ADMIN_EMAIL = 'csrf-admin@example.edu';
export const SECOND_ADMIN_LINK_FILE = '.tmp/e2e-second-admin.txt';
/** The password every staff account of the browser tests chooses. */
export const STAFF_PASSWORD = 'Admissions-Office-2027!';
