import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { expectNoAxeViolations } from './axe';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';
import { expect, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { AUDITOR_EMAIL, AUDITOR_LINK_FILE, DECIDER_EMAIL, DECIDER_LINK_FILE, STAFF_PASSWORD } from './support/staff';

/*
 * Decisions from the console to the applicant (issue 30). A real browser and a real server: the
 * console's decision form and release screen, the applicant's status page at both widths, a
 * release at a set time reached by moving the test's server clock, and the notice over SMTP.
 */

/** Sets up a staff account made on the command line (its link file) and signs it in with a recovery code. */
async function staffSignedIn(request: APIRequestContext, email: string, linkFile: string) {
  const token = new URL(readFileSync(linkFile, 'utf8').trim().split('\n')[0]!).searchParams.get('token')!;
  const secret = (await (await request.get(`/staff/public/setup?token=${token}`)).json()).totp_secret as string;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const setUp = await request.post('/staff/public/setup', { data: { token, password: STAFF_PASSWORD, code } });
  expect(setUp.status(), await setUp.text()).toBe(200);
  const recovery = ((await setUp.json()) as { recovery_codes: string[] }).recovery_codes[0]!;
  expect((await request.post('/staff/public/login', { data: { email, password: STAFF_PASSWORD, code: recovery } })).status()).toBe(200);
}

/** Submits a complete application through the applicant's calls. */
async function submit(request: APIRequestContext, firstName: string) {
  expect((await request.put('/api/answer', { data: { ...completeApplication, first_name: firstName } })).ok()).toBe(true);
  expect((await request.post('/api/submit')).ok(), 'submit').toBe(true);
}

/** Checks a screen at the desktop and the phone width. */
async function axeAtBothWidths(page: Page) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('decisions: a decider decides two applications and releases them at a set time; the applicant reads the decision and letter, replies, and the audit log holds each step', async ({ page, browser, applicant, serverClock }) => {
  await submit(page.request, 'Jordan');
  const other = await browser.newContext();
  await serverClock.join(other);
  const otherEmail = uniqueEmail('decided-other');
  await confirmedAccount(other.request, otherEmail);
  expect((await other.request.post('/public/login', { data: { username: otherEmail, password: PASSWORD } })).ok()).toBe(true);
  await submit(other.request, 'Sam');

  // Before any decision: under review.
  await page.goto('/completion');
  await expect(page.getByText('Your application is under review. We will e-mail you when there is an update here.')).toBeVisible();
  await axeAtBothWidths(page);

  const console = await browser.newContext();
  await serverClock.join(console);
  await staffSignedIn(console.request, DECIDER_EMAIL, DECIDER_LINK_FILE);
  const decider = await console.newPage();
  const idOf = async (email: string) =>
    ((await (await console.request.get(`/staff/api/applications?q=${encodeURIComponent(email)}`)).json()) as { items: { id: string }[] }).items[0]!.id;
  const [jordan, sam] = [await idOf(applicant.email), await idOf(otherEmail)];

  for (const [id, decision] of [
    [jordan, 'Admit'],
    [sam, 'Deny'],
  ] as const) {
    await decider.goto(`/staff/applications/${id}`);
    await decider.getByRole('radio', { name: decision }).check();
    await decider.getByRole('button', { name: 'Save the decision' }).click();
    await expect(decider.getByText(`${decision}, provisional: the applicant does not see it until it is released.`)).toBeVisible();
  }
  // The letter Sam would read, before anything is released.
  await decider.getByRole('button', { name: 'Preview the letter (Deny)' }).click();
  await expect(decider.getByRole('article', { name: 'Deny letter to this applicant' })).toContainText('Dear Sam,');
  await axeAtBothWidths(decider);

  // Released at a set time five minutes ahead, in the decider's own time (the input's minutes).
  await decider.getByRole('link', { name: 'Decisions' }).click();
  await expect(decider.getByRole('heading', { level: 1, name: 'Decisions' })).toBeVisible();
  await axeAtBothWidths(decider);
  const now = await serverClock.advance(0);
  const releaseAt = new Date(Math.ceil((now.getTime() + 5 * 60_000) / 60_000) * 60_000);
  const local = await decider.evaluate((iso) => {
    const at = new Date(iso);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
  }, releaseAt.toISOString());
  for (const name of ['Jordan', 'Sam']) await decider.getByRole('checkbox', { name: new RegExp(`^Release the decision on ${name} `) }).check();
  await decider.getByLabel('Or release at').fill(local);
  await decider.getByRole('button', { name: 'Schedule' }).click();
  await expect(decider.getByText(/^2 decisions will be released /)).toBeVisible();

  // Before the time: still under review, and no notice.
  await page.reload();
  await expect(page.getByText('Your application is under review. We will e-mail you when there is an update here.')).toBeVisible();

  // The time comes: the decision shows, and one notice goes out, without the decision.
  await serverClock.advance(releaseAt.getTime() - now.getTime() + 1_000);
  const notice = await waitForMail(applicant.email, 2);
  expect(notice.subject).toBe('An update to your Northfield University application');
  expect(`${notice.text} ${notice.html}`).not.toMatch(/admit|congratulat|offer/i);
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Decision: Admit' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Your decision letter' })).toContainText('Congratulations! I am delighted to offer you admission to Northfield University');
  await axeAtBothWidths(page);
  await page.getByRole('radio', { name: 'I accept the offer of admission' }).check();
  await page.getByRole('button', { name: 'Send my reply' }).click();
  await expect(page.getByText(/^You accepted the offer of admission on /)).toBeVisible();
  await axeAtBothWidths(page);

  const otherStatus = (await (await other.request.get('/api/decision')).json()) as { decision: string; reply_by: string | null };
  expect(otherStatus).toMatchObject({ decision: 'deny', reply_by: null });

  // The office's record: each step, by whom.
  const auditor = await browser.newContext();
  await staffSignedIn(auditor.request, AUDITOR_EMAIL, AUDITOR_LINK_FILE);
  const entries = ((await (await auditor.request.get(`/staff/api/audit?application=${jordan}`)).json()) as { items: { action: string; staff_email: string }[] }).items;
  expect(entries.map((entry) => `${entry.action} ${entry.staff_email}`)).toEqual(
    expect.arrayContaining([`decision_set ${DECIDER_EMAIL}`, `decision_release ${DECIDER_EMAIL}`, `decision_reply ${applicant.email}`]),
  );
  const samEntries = ((await (await auditor.request.get(`/staff/api/audit?application=${sam}`)).json()) as { items: { action: string }[] }).items;
  expect(samEntries.map((entry) => entry.action)).toContain('letter_preview');
  await Promise.all([other.close(), console.close(), auditor.close()]);
});
