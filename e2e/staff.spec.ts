import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { TOTP, Secret } from 'otpauth';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { makeFixtureFiles, pdfTextByPage } from '../server/testing/files';
import { expectNoAxeViolations } from './axe';
import { expect, test, type ServerClock } from './support/fixtures';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';
import { FIRST_ADMIN_EMAIL, FIRST_ADMIN_LINK_FILE, STAFF_PASSWORD } from './support/staff';
import { shot } from './support/screenshots';


/**
 * The office's console, as its staff use it. A real browser: the console's screens, downloads and
 * the idle timer; the real server: TOTP, roles, the audit log and the files it serves.
 */

/** The test's server clock, read by every console context of the test (joined as each opens). */
let clock: ServerClock;

/** A new browser context that reads the test's server clock. */
async function newContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await clock.join(context);
  return context;
}

/**
 * The code an authenticator shows for `secret` one time step after the server's now: each step's
 * code is good once, and set-up (or the last sign-in) used the current one. The test's server clock
 * is moved on a step instead of waiting up to 30 s.
 */
async function nextCode(secret: string): Promise<string> {
  const now = await clock.advance(30_000);
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: now.getTime() });
}



/** Opens a set-up link, chooses the password, adds the authenticator from the key shown, and keeps the recovery codes. */
async function setUp(page: Page, link: string): Promise<string> {
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your staff account' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  await shot(page, 'setup');
  await expectNoAxeViolations(page);
  // A short password is refused on the page, before anything is sent.
  await page.getByLabel('Password', { exact: true }).fill('short-pass');
  await page.getByLabel('Confirm password').fill('short-pass');
  await page.getByRole('button', { name: 'Finish set-up' }).click();
  await expect(page.locator('#setup-password-error')).toHaveText('Error: Your password must be at least 12 characters long.');
  await expectNoAxeViolations(page);
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByLabel('Confirm password').fill(STAFF_PASSWORD);
  const now = await clock.advance(0);
  await page.getByLabel('Code from the app').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: now.getTime() }));
  await page.getByRole('button', { name: 'Finish set-up' }).click();
  await expect(page.getByText('Your staff account is ready. Keep these recovery codes somewhere safe, then sign in.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await shot(page, 'recovery-codes');
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'I have saved them: sign in' }).click();
  return secret;
}

async function signIn(page: Page, email: string, secret: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Admissions office sign-in' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Code').fill(await nextCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
}

/** A submitted application with a converted document and its PDF copy ready, made through the applicant's calls. */
async function submittedApplication(browser: Browser, firstName: string, lastName: string) {
  const context = await browser.newContext();
  const request = context.request;
  const email = uniqueEmail('staff-applicant');
  await confirmedAccount(request, email);
  expect((await request.post('/public/login', { data: { username: email, password: PASSWORD } })).ok()).toBe(true);
  const files = await makeFixtureFiles();
  const presigned = await (await request.post('/api/presigned-url', { data: { answer_key: 'additional_info_doc', content_type: 'image/png' } })).json();
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = { ...presigned.fields, file: { name: 'essay.png', mimeType: 'image/png', buffer: files.png } };
  expect((await request.post(presigned.url, { multipart })).status()).toBe(204);
  expect((await request.post('/api/pdf/document-answer/additional_info_doc', { data: { file_key: presigned.fields.key, file_name: 'essay.png' } })).status()).toBe(202);
  await expect.poll(async () => (await (await request.get('/api/pdf/document-answer/additional_info_doc')).json()).status, { timeout: 60_000 }).toBe('completed');
  const answers: Record<string, string | boolean> = { ...completeApplication, first_name: firstName, last_name: lastName };
  expect((await request.put('/api/tabs', { data: { tab_id: 'additional_info_tabs', chosen_tab: 'upload' } })).ok()).toBe(true);
  expect((await request.put('/api/answer', { data: answers })).ok()).toBe(true);
  expect((await request.post('/api/submit')).ok(), 'submit').toBe(true);
  await expect.poll(async () => (await (await request.get('/api/pdf')).json()).status, { timeout: 90_000 }).toBe('COMPLETED');
  await context.close();
  return { email, answers };
}

test('the office: first admin from the command line, TOTP, a reader finds, reads and downloads; the admin exports and audits', async ({ browser, serverClock }) => {
  test.setTimeout(300_000);
  clock = serverClock;
  const { email: applicantEmail, answers } = await submittedApplication(browser, 'Marisol', 'Quintero-Díaz');

  // The first admin: the link `npm run staff -- add` printed before the server started.
  const admin = await (await newContext(browser)).newPage();
  const link = readFileSync(FIRST_ADMIN_LINK_FILE, 'utf8').trim().split('\n')[0]!;
  expect(link).toMatch(/\/staff\/setup\?token=/);
  const adminSecret = await setUp(admin, link);
  await admin.getByLabel('E-mail').fill(FIRST_ADMIN_EMAIL);
  await admin.getByLabel('Password').fill(STAFF_PASSWORD);
  await admin.getByLabel('Code').fill('000000');
  await admin.getByRole('button', { name: 'Sign in' }).click();
  await expect(admin.getByRole('alert')).toHaveText('Incorrect e-mail, password or code.');
  await shot(admin, 'sign-in');
  await expectNoAxeViolations(admin);
  await signIn(admin, FIRST_ADMIN_EMAIL, adminSecret);

  // The admin invites a reader.
  // The set-up pages are under Settings (issue 51 §4).
  await admin.getByRole('button', { name: 'Settings' }).click();
  await admin.getByRole('link', { name: 'Staff', exact: true }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  const readerEmail = uniqueEmail('reader').replace('@example.com', '@example.edu');
  await admin.getByLabel('E-mail').fill(readerEmail);
  await admin.getByRole('button', { name: 'Make a set-up link' }).click();
  const readerLink = await admin.getByLabel('Set-up link').inputValue();
  expect(readerLink).toMatch(/\/staff\/setup\?token=/);
  await expect(admin.getByRole('row', { name: new RegExp(readerEmail.replace(/[.+]/g, '\\$&')) })).toContainText('Invited, not set up');
  await shot(admin, 'staff');
  await expectNoAxeViolations(admin);

  // The reader sets up, signs in and finds the application by name (accents folded).
  const reader = await (await newContext(browser, { acceptDownloads: true })).newPage();
  const readerSecret = await setUp(reader, readerLink);
  await signIn(reader, readerEmail, readerSecret);
  await expect(reader.getByRole('navigation', { name: 'Console' }).getByRole('link')).toHaveText(['Applications', 'My queue', 'Dashboard', 'Reports']);
  await expectNoAxeViolations(reader);
  await reader.getByLabel('Name or e-mail').fill('quintero diaz');
  await reader.getByRole('button', { name: 'Search' }).click();
  await expect(reader.getByText('1 application, page 1 of 1.')).toBeVisible();
  await reader.getByLabel('Status', { exact: true }).selectOption('submitted');
  await expect(reader).toHaveURL(/status=submitted/);
  await shot(reader, 'applications');
  await expectNoAxeViolations(reader);
  // The page's CSP refuses inline styles: the printed page's header and numbers come without one (issue 48).
  const refusedByCsp: string[] = [];
  reader.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) refusedByCsp.push(message.text());
  });
  await reader.getByRole('link', { name: 'Marisol Quintero-Díaz' }).click();
  await expect(reader.getByRole('heading', { level: 1, name: 'Marisol Quintero-Díaz' })).toBeVisible();
  await expect(reader.getByText(applicantEmail).first()).toBeVisible();
  await expect(reader.locator('.print')).toContainText(String(answers.city));
  await shot(reader, 'application');
  await expectNoAxeViolations(reader);
  // The browser's print of an open application is the document alone, not the console (print media needs a real page).
  await reader.emulateMedia({ media: 'print' });
  await expect(reader.getByRole('navigation', { name: 'Console' })).toBeHidden();
  await expect(reader.getByRole('link', { name: 'Back to the applications' })).toBeHidden();
  await expect(reader.getByRole('heading', { level: 2, name: 'Documents' })).toBeHidden();
  await expect(reader.locator('.print').getByRole('heading', { level: 1 })).toBeVisible();
  // The header every printed page carries and "Page N of M", as the PDF copy has them.
  const pageRule = await reader.evaluate(() => document.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).find((rule) => rule.startsWith('@page')));
  expect(pageRule).toContain('Marisol Quintero');
  expect(pageRule).toContain('counter(pages)');
  expect(refusedByCsp).toEqual([]);
  await reader.emulateMedia({ media: 'screen' });
  // A note, kept with the reader's name (the form's states and axe are in ApplicationNotes.browser.test.tsx).
  await reader.getByLabel('Add a note').fill('Strong essay; ask for the senior-year grades.');
  await reader.getByRole('button', { name: 'Add the note' }).click();
  await expect(reader.getByRole('region', { name: 'Notes' }).getByText('Strong essay; ask for the senior-year grades.')).toBeVisible();
  await reader.reload();
  await expect(reader.getByRole('region', { name: 'Notes' }).getByText(`${readerEmail},`, { exact: false })).toBeVisible();

  // Downloads: the document and the PDF copy, both real PDFs holding what they should.
  const [documentDownload] = await Promise.all([reader.waitForEvent('download'), reader.getByRole('link', { name: /essay\.png/ }).click()]);
  const documentBytes = readFileSync((await documentDownload.path())!);
  expect(documentBytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(documentDownload.suggestedFilename()).toMatch(/^Quintero-Diaz_Marisol_\d{6}_[A-Za-z-]+\.pdf$/);
  const [copyDownload] = await Promise.all([reader.waitForEvent('download'), reader.getByRole('link', { name: 'Download the PDF copy' }).click()]);
  expect(copyDownload.suggestedFilename()).toMatch(/^Quintero-Diaz_Marisol_\d{6}_Application\.pdf$/);
  const copyText = (await pdfTextByPage(readFileSync((await copyDownload.path())!))).join('\n');
  expect(copyText).toContain('Quintero-Díaz');

  // The reader cannot export or read the audit log: not offered, refused on the page and by the server.
  await reader.goto('/staff/export');
  await expect(reader.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  await expectNoAxeViolations(reader);
  await reader.goto('/staff/audit');
  await expect(reader.getByText('Only an administrator can do this.')).toBeVisible();
  expect((await reader.request.get('/staff/api/export?format=csv')).status()).toBe(403);
  expect((await reader.request.get('/staff/api/audit')).status()).toBe(403);

  // The dashboard, for everyone.
  await admin.getByRole('link', { name: 'Dashboard' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(admin.getByRole('img', { name: /Line chart/ })).toBeVisible();
  await shot(admin, 'dashboard');
  await expectNoAxeViolations(admin);

  // The admin exports CSV: every typed answer of the application is in its row.
  await admin.getByRole('link', { name: 'Export' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Export', exact: true })).toBeVisible();
  await shot(admin, 'export');
  await expectNoAxeViolations(admin);
  const [csvDownload] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = readFileSync((await csvDownload.path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(csv.subarray(3).toString('utf8'), { columns: true }) as Record<string, string>[];
  const row = rows.find((r) => r.email === applicantEmail)!;
  expect(row).toBeDefined();
  for (const [key, value] of Object.entries(answers)) expect(row[key], key).toBe(typeof value === 'boolean' ? String(value) : value);
  expect(row.additional_info_doc).toBe('essay.png');

  // The audit log holds each of those actions, with who did them.
  await admin.getByRole('button', { name: 'Settings' }).click();
  await admin.getByRole('link', { name: 'Audit log' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await shot(admin, 'audit-log');
  await expectNoAxeViolations(admin);
  const table = admin.getByRole('table');
  // One member at a time: other tests' staff (decisions.spec.ts) write to the same log meanwhile,
  // and a hundred entries of theirs push these past the first page of everyone's.
  const onlyBy = async (email: string) => {
    await admin.getByLabel('Staff e-mail').fill(email);
    await admin.getByRole('button', { name: 'Filter' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText(email);
  };
  for (const [who, whats] of [
    [readerEmail, ['Viewed an application', 'Downloaded a document', 'Downloaded a PDF copy', 'Added a note', 'Signed in']],
    [FIRST_ADMIN_EMAIL, ['Exported applications', 'Invited a staff member', 'Failed to sign in']],
  ] as const) {
    await onlyBy(who);
    for (const what of whats) await expect(table.getByRole('row').filter({ hasText: what }).first(), `${who} ${what}`).toBeVisible();
  }
  await onlyBy(readerEmail);
  await admin.getByLabel('What').selectOption('application_view');
  // The reader's two views: the opening and the reload after the note (adding a note reads nothing again).
  const readerViews = table.getByRole('row').filter({ hasText: readerEmail });
  await expect(readerViews).toHaveCount(2);
  await expect(readerViews.nth(0)).toContainText(applicantEmail);
  await expect(readerViews.nth(1)).toContainText(applicantEmail);

  // 15 idle minutes: 'Still working?' a minute before, as on the applicant's pages; then signed out.
  const invited = await (await admin.request.post('/staff/api/staff', { data: { email: uniqueEmail('idle').replace('@example.com', '@example.edu'), role: 'reader' } })).json();
  const idle = await (await newContext(browser)).newPage();
  await idle.clock.install();
  const idleSecret = await setUp(idle, invited.setup_url);
  await signIn(idle, invited.email, idleSecret);
  await idle.clock.runFor(14 * 60_000 + 1_000);
  const dialog = idle.getByRole('dialog', { name: 'Still working?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(idle);
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();
  await idle.clock.runFor(15 * 60_000 + 1_000);
  await expect(idle.getByRole('heading', { level: 1, name: 'Admissions office sign-in' })).toBeVisible();
  await expect(idle.getByRole('alert')).toHaveText('You have been automatically logged out due to inactivity.');
  expect((await idle.request.get('/staff/api/me')).status()).toBe(401);
  // Signing in again in the same browser starts a fresh timer (the last activity stored is the old session's).
  await signIn(idle, invited.email, idleSecret);
  await idle.clock.runFor(5_000);
  await expect(idle.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  await expect(idle.getByRole('dialog', { name: 'Still working?' })).toBeHidden();

  // Sign-out ends the session on the server: the console's calls answer 401 after it.
  await reader.getByRole('button', { name: 'Sign out' }).click();
  await expect(reader.getByRole('heading', { level: 1, name: 'Admissions office sign-in' })).toBeVisible();
  expect((await reader.request.get('/staff/api/me')).status()).toBe(401);

  // The admin makes the reader a decider without removing them (issue 30), then the reader leaves
  // the office: the admin removes the account, and the reader cannot sign in again.
  // The set-up pages are under Settings (issue 51 §4).
  await admin.getByRole('button', { name: 'Settings' }).click();
  await admin.getByRole('link', { name: 'Staff', exact: true }).click();
  await admin.getByRole('button', { name: `Change role of ${readerEmail}` }).click();
  const change = admin.getByRole('dialog', { name: 'Change role' });
  await change.getByRole('radio', { name: /^Decider/ }).check();
  await expectNoAxeViolations(admin);
  await change.getByRole('button', { name: 'Change role' }).click();
  await expect(admin.getByText(`${readerEmail} is now decider.`)).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: readerEmail })).toContainText('Decider');
  await admin.getByRole('button', { name: `Remove ${readerEmail}` }).click();
  const confirm = admin.getByRole('dialog', { name: 'Remove staff member' });
  await expect(confirm).toContainText(`${readerEmail} will be signed out at once`);
  await expectNoAxeViolations(admin);
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(admin.getByText(`${readerEmail} no longer has access.`)).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: readerEmail })).toHaveCount(0);
  await reader.getByLabel('E-mail').fill(readerEmail);
  await reader.getByLabel('Password').fill(STAFF_PASSWORD);
  await reader.getByLabel('Code').fill(await nextCode(readerSecret));
  await reader.getByRole('button', { name: 'Sign in' }).click();
  await expect(reader.getByRole('alert')).toHaveText('Incorrect e-mail, password or code.');
});

test('the console is its own bundle: an applicant page loads none of it', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  const bodies = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
  expect(bodies.some((body) => body.includes('/staff/api/'))).toBe(false);
  await page.goto('/staff/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Admissions office sign-in' })).toBeVisible();
  const after = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
  expect(after.some((body) => body.includes('/staff/api/'))).toBe(true);
});
