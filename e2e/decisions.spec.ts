import type { APIRequestContext, Page } from '@playwright/test';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { expectNoAxeViolations } from './axe';
import { shot } from './support/screenshots';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';
import { expect, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { AUDITOR_EMAIL, AUDITOR_LINK_FILE, DECIDER_EMAIL, DECIDER_LINK_FILE } from './support/staff';
import { setUpAndSignIn, staffSignedIn } from './support/staffSignIn';

/*
 * The office's cycle from the console to the applicant (issue 30). A real browser and a real
 * server: an admin's review form and bins, two readers given an application (the second in a
 * blind bin) who each sign a review, the decider's selection, decision form and release screen,
 * the applicant's status page at both widths, a release at a set time reached by moving the test's
 * server clock, the notice over SMTP, and the audit log of every step.
 */

/** Submits a complete application through the applicant's calls. */
async function submit(request: APIRequestContext, firstName: string) {
  expect((await request.put('/api/answer', { data: { ...completeApplication, first_name: firstName } })).ok()).toBe(true);
  expect((await request.post('/api/submit')).ok(), 'submit').toBe(true);
}

/**
 * Checks a screen at the desktop and the phone width. The reading screens (review form, bins, a
 * blind application, the list's selection bar) are checked at both widths in
 * src/features/staff/reading/Reading.browser.test.tsx, faster: this flow checks the decision and status screens.
 */
async function axeAtBothWidths(page: Page) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the cycle: an admin sets up the review form and bins; two readers review, one blind; a decider decides a selection and releases it at a set time; the applicant reads the decision and letter, replies; the audit log holds each step', async ({ page, browser, applicant, serverClock }) => {
  // The office's whole cycle in one flow (six people, a dozen screens each checked at two widths): minutes, not seconds.
  test.setTimeout(180_000);
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

  // The office sets the cycle up: the review form and the bins (a committee bin of this run's own).
  const office = await browser.newContext();
  await serverClock.join(office);
  await staffSignedIn(office.request, AUDITOR_EMAIL, AUDITOR_LINK_FILE);
  const admin = await office.newPage();
  await admin.goto('/staff/review-form');
  await admin.getByRole('button', { name: 'Remove the scale Activities' }).click();
  await admin.getByLabel('Recommendations').fill('Admit\nWaitlist\nDeny\nDefer');
  await admin.getByRole('button', { name: 'Save the review form' }).click();
  await expect(admin.getByText(/^Saved as version \d+/)).toBeVisible();
  await shot(admin, 'review-form');
  const committee = `Committee ${Date.now() % 1_000_000}`;
  await admin.goto('/staff/bins');
  await admin.getByRole('button', { name: 'Add a bin' }).click();
  await admin.getByLabel(/\(new\)$/).fill(committee);
  await admin.getByRole('button', { name: 'Save the bins' }).click();
  await expect(admin.getByText('Saved.')).toBeVisible();
  await shot(admin, 'bins');

  // Two readers, invited by the admin.
  const readers: { email: string; page: Page }[] = [];
  for (const n of [1, 2]) {
    const email = uniqueEmail(`reader${n}`);
    const invited = await office.request.post('/staff/api/staff', { data: { email, role: 'reader' } });
    expect(invited.status(), await invited.text()).toBe(201);
    const context = await browser.newContext();
    await serverClock.join(context);
    await setUpAndSignIn(context.request, email, ((await invited.json()) as { setup_url: string }).setup_url);
    readers.push({ email, page: await context.newPage() });
  }

  const console = await browser.newContext();
  await serverClock.join(console);
  await staffSignedIn(console.request, DECIDER_EMAIL, DECIDER_LINK_FILE);
  const decider = await console.newPage();
  const idOf = async (email: string) =>
    ((await (await console.request.get(`/staff/api/applications?q=${encodeURIComponent(email)}`)).json()) as { items: { id: string }[] }).items[0]!.id;
  const [jordan, sam] = [await idOf(applicant.email), await idOf(otherEmail)];

  /** The decider moves the open application into a bin and gives it to a reader, from its page. */
  async function moveAndGive(bin: string, reader: string | null) {
    await decider.getByLabel('Move to').selectOption(bin);
    await decider.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(decider.getByText(new RegExp(`^Bin: ${bin}`))).toBeVisible();
    if (!reader) return;
    // A reader new to the office has nothing to read yet.
    await decider.getByLabel('Give to a reader').selectOption({ label: `${reader} (0 to read)` });
    await decider.getByRole('button', { name: 'Give', exact: true }).click();
    await expect(decider.getByText(new RegExp(`^${reader.replace(/[.]/g, '\\.')}: to read`))).toBeVisible();
  }
  /** A reader opens their queue, then the application in it, and signs a review. */
  async function review(reader: Page, ratings: [scale: string, point: string][], recommendation: string, comment: string) {
    await reader.goto('/staff?queue=mine');
    await expect(reader.getByRole('heading', { level: 1, name: 'My queue' })).toBeVisible();
    await reader.getByRole('link', { name: /^Jordan / }).click();
    for (const [scale, point] of ratings) await reader.getByRole('group', { name: scale }).getByRole('radio', { name: point }).check();
    await reader.getByRole('group', { name: 'Recommendation' }).getByRole('radio', { name: recommendation }).check();
    await reader.getByLabel('Comment (optional)').fill(comment);
    await reader.getByRole('button', { name: 'Submit my review' }).click();
    await expect(reader.getByText(comment)).toBeVisible();
    await expect(reader.getByRole('button', { name: 'Submit my review' })).toBeHidden();
  }

  // First read: Jordan goes to the first reader, who reviews.
  await decider.goto(`/staff/applications/${jordan}`);
  await moveAndGive('First read', readers[0]!.email);
  await review(readers[0]!.page, [['Academics', '3 – Strong'], ['Essay', '4 – Exceptional']], 'Admit', 'A reader’s reader; strong essay.');

  // Second read, blind: the second reader does not see the first review until theirs is in.
  await moveAndGive('Second read', readers[1]!.email);
  const second = readers[1]!.page;
  await second.goto('/staff?queue=mine');
  await second.getByRole('link', { name: /^Jordan / }).click();
  await expect(second.getByText('This bin is read blind: the other reviews are shown once you submit yours. 1 review is in.')).toBeVisible();
  await expect(second.getByText('A reader’s reader; strong essay.')).toBeHidden();
  await shot(second, 'blind-review');
  await review(second, [['Academics', '2 – Within our range'], ['Essay', '3 – Strong']], 'Waitlist', 'Solid; the essay carries it.');
  await expect(second.getByText('A reader’s reader; strong essay.')).toBeVisible();

  // Committee: both applications, then one decision on the selection, and Sam's changed on his page.
  await moveAndGive(committee, null);
  await decider.goto(`/staff/applications/${sam}`);
  await moveAndGive(committee, null);
  const bins = ((await (await console.request.get('/staff/api/bins')).json()) as { bins: { id: number; name: string }[] }).bins;
  await decider.goto(`/staff?bin=${bins.find((bin) => bin.name === committee)!.id}`);
  await expect(decider.getByText('2 applications, page 1 of 1.')).toBeVisible();
  await decider.getByRole('checkbox', { name: /^Select Jordan / }).check();
  await decider.getByRole('checkbox', { name: /^Select Sam / }).check();
  await decider.getByLabel('Decision for the 2 applications ticked').selectOption('Admit');
  await decider.getByRole('button', { name: 'Record (provisional)' }).click();
  await expect(decider.getByText('2 decisions recorded, provisional.')).toBeVisible();
  await shot(decider, 'decide-selection');
  await decider.goto(`/staff/applications/${sam}`);
  await decider.getByRole('region', { name: 'Decision' }).getByRole('radio', { name: 'Deny' }).check();
  await decider.getByRole('button', { name: 'Save the decision' }).click();
  await expect(decider.getByText('Deny, provisional: the applicant does not see it until it is released.')).toBeVisible();
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
  // The letter as a PDF, printed by the worker, under the applicant's name. Asked by the page's
  // request context, which carries this test's clock (a download started by a click does not).
  await expect(page.getByRole('link', { name: 'Download the letter (PDF)' })).toHaveAttribute('href', '/api/decision/letter');
  const letterPdf = await page.request.get('/api/decision/letter');
  expect(letterPdf.status(), await letterPdf.text()).toBe(200);
  expect(letterPdf.headers()['content-disposition']).toMatch(/filename=Rivera_Jordan_\d+_Decision-Letter\.pdf$/);
  expect((await letterPdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await page.getByRole('radio', { name: 'I accept the offer of admission' }).check();
  await page.getByRole('button', { name: 'Send my reply' }).click();
  await page.getByRole('dialog', { name: 'Accept the offer?' }).getByRole('button', { name: 'Yes, accept the offer' }).click();
  await expect(page.getByText(/^You accepted the offer of admission on /)).toBeFocused();
  await axeAtBothWidths(page);

  const otherStatus = (await (await other.request.get('/api/decision')).json()) as { decision: string; reply_by: string | null };
  expect(otherStatus).toMatchObject({ decision: 'deny', reply_by: null });

  // The office's record: each step, by whom.
  const entries = ((await (await office.request.get(`/staff/api/audit?application=${jordan}`)).json()) as { items: { action: string; staff_email: string }[] }).items;
  expect(entries.map((entry) => `${entry.action} ${entry.staff_email}`)).toEqual(
    expect.arrayContaining([
      `bin_move ${DECIDER_EMAIL}`,
      `assign ${DECIDER_EMAIL}`,
      `review_submit ${readers[0]!.email}`,
      `review_submit ${readers[1]!.email}`,
      `decision_set ${DECIDER_EMAIL}`,
      `decision_release ${DECIDER_EMAIL}`,
      `decision_reply ${applicant.email}`,
    ]),
  );
  const samEntries = ((await (await office.request.get(`/staff/api/audit?application=${sam}`)).json()) as { items: { action: string }[] }).items;
  expect(samEntries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['letter_preview', 'bin_move', 'decision_set']));
  const setUpEntries = ((await (await office.request.get(`/staff/api/audit?staff=${encodeURIComponent(AUDITOR_EMAIL)}`)).json()) as { items: { action: string }[] }).items;
  expect(setUpEntries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['review_form_change', 'bins_change']));
  await Promise.all([other.close(), console.close(), office.close(), ...readers.map((reader) => reader.page.context().close())]);
});
