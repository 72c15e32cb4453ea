/** The first admin, made by `npm run staff -- add` before the test server starts (playwright.config.ts). */
export const FIRST_ADMIN_EMAIL = 'registrar@example.edu';
/** Where that command's output (the set-up link) is kept for the staff flow. */
export const FIRST_ADMIN_LINK_FILE = '.tmp/e2e-first-admin.txt';
