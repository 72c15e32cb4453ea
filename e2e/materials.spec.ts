import type { APIRequestContext, Page } from '@playwright/test';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { RATING_POINTS, RATING_SCALES, recommenderMessages } from '../domain/recommenders';
import { FIXTURE_TEXT, makeFixtureFiles, pdfTextByPage } from '../server/testing/files';
import { expectNoAxeViolations } from './axe';
import { confirmedAccount, PASSWORD, uniqueEmail } from './support/accounts';
import { expect, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { MAILROOM_EMAIL, MAILROOM_LINK_FILE } from './support/staff';
import { staffSignedIn } from './support/staffSignIn';

/*
 * Materials and recommenders (issue 31), with a real browser and a real server: the recommender's
 * link comes by real mail (SMTP), the letter is converted by the real worker, and the applicant,
 * the recommender and the office each see the same application from their own page.
 */

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Submits a complete application through the applicant's calls, waiving (or not) the right to see the letters. */
async function submit(request: APIRequestContext, waived: boolean) {
  expect((await request.put('/api/answer', { data: { ...completeApplication, first_name: 'Jordan', last_name: 'Rivera', citizenship_type: 'C', counselor_waiver_request: waived ? 'Y' : 'N' } })).ok()).toBe(true);
  expect((await request.post('/api/submit')).ok(), 'submit').toBe(true);
}

async function axeAtBothWidths(page: Page) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const linkIn = (text: string) => /https?:\/\/\S+\/recommend\?token=[\w-]+/.exec(text)![0];

/** The recommender's page: every answer, the letter, sent; then the thanks once the letter is converted. */
async function recommend(page: Page, link: string, letter: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto(link);
  await page.getByLabel('How do you know the applicant?').fill('Their chemistry teacher in grade 11');
  await page.getByRole('radio', { name: '1 to 2 years' }).check();
  for (const scale of RATING_SCALES) await page.getByRole('group', { name: `${scale}, compared with other students you have known` }).getByRole('radio', { name: RATING_POINTS[1] }).check();
  await page.getByLabel('Your letter (PDF or Word, up to 1 MB)').setInputFiles(letter);
  await page.getByRole('button', { name: 'Send my recommendation' }).click();
  await expect(page.getByText(recommenderMessages.linkUsed)).toBeVisible({ timeout: 60_000 });
}

test('an applicant asks a counselor and a teacher; the teacher’s mailed link takes a DOCX letter; with the waiver the applicant sees it submitted and no letter; the office attaches a posted transcript, waives an item, and the application is complete', async ({ page, browser, applicant }) => {
  // Three people, a conversion by the worker and each screen at two widths: a minute or two, not seconds.
  test.setTimeout(180_000);
  const files = await makeFixtureFiles();
  await submit(page.request, true);
  const counselorEmail = uniqueEmail('counselor');
  const teacherEmail = uniqueEmail('teacher');

  // The applicant asks from the status page.
  await page.goto('/completion');
  await expect(page.getByRole('heading', { name: 'Your materials' })).toBeVisible();
  for (const [role, name, email] of [
    ['School counselor', 'Pat Lee', counselorEmail],
    ['Teacher', 'Sam Ortiz', teacherEmail],
  ] as const) {
    await page.getByRole('radio', { name: role, exact: true }).check();
    await page.getByLabel('Their name').fill(name);
    await page.getByLabel('Their e-mail address').fill(email);
    await page.getByRole('button', { name: 'Send the request', exact: true }).click();
    await expect(page.getByText(`Asked ${name}: they have been e-mailed a link of their own.`)).toBeVisible();
  }
  await expect(page.getByText(/Pat Lee.*Asked on .*; not opened yet/)).toBeVisible();
  await axeAtBothWidths(page);

  // The teacher's mail, over SMTP, says the applicant waived their right to read the letter; its link opens the page.
  const mail = await waitForMail(teacherEmail);
  expect(mail.text).toContain('The applicant has waived their right to see this recommendation: they will not read your letter.');
  const teacher = await browser.newPage();
  await teacher.goto(linkIn(mail.text));
  await expect(teacher.getByRole('heading', { level: 1, name: 'A recommendation for Jordan Rivera' })).toBeVisible();
  await axeAtBothWidths(teacher);
  await recommend(teacher, linkIn(mail.text), { name: 'letter.docx', mimeType: DOCX, buffer: files.docx });
  await axeAtBothWidths(teacher);

  // The applicant sees the teacher's recommendation in, and no letter (the waiver governs).
  await page.reload();
  await expect(page.getByText(/Sam Ortiz.*Sent their recommendation on/)).toBeVisible();
  await expect(page.getByText(/Pat Lee.*not opened yet/)).toBeVisible();
  await expect(page.getByRole('link', { name: /letter \(PDF\)/ })).toHaveCount(0);

  // The office: the letter on the checklist (converted from the DOCX), a posted transcript attached, the counselor's waived.
  const office = await browser.newContext();
  await staffSignedIn(office.request, MAILROOM_EMAIL, MAILROOM_LINK_FILE);
  const mailroom = await office.newPage();
  // The mail room's day: submitted applications still missing a transcript, this one found by its address.
  await mailroom.goto('/staff?status=submitted&missing=transcript');
  await mailroom.getByLabel('Name or e-mail').fill(applicant.email);
  await mailroom.getByRole('button', { name: 'Search' }).click();
  await mailroom.getByRole('row').filter({ hasText: applicant.email }).getByRole('link', { name: 'Jordan Rivera' }).click();
  await expect(mailroom.getByRole('heading', { name: 'Checklist' })).toBeVisible();
  const letters = mailroom.getByRole('list', { name: 'Files for Teacher recommendation' });
  await expect(letters.getByRole('link', { name: 'letter.docx (PDF)' })).toBeVisible();
  const letter = await office.request.get((await letters.getByRole('link', { name: 'letter.docx (PDF)' }).getAttribute('href'))!);
  expect((await pdfTextByPage(await letter.body())).join(' ')).toContain(FIXTURE_TEXT.docx);

  await mailroom.getByLabel('Attach a file for High-school transcript (PDF, DOCX, PNG or JPEG)').setInputFiles({ name: 'transcript-scan.pdf', mimeType: 'application/pdf', buffer: files.pdf });
  await expect(mailroom.getByRole('list', { name: 'Files for High-school transcript' }).getByRole('link', { name: 'transcript-scan.pdf (PDF)' })).toBeVisible({ timeout: 60_000 });
  await mailroom.getByRole('button', { name: 'Waive Counselor recommendation' }).click();
  await mailroom.getByLabel('Why Counselor recommendation is waived').fill('The school has no counselor; the principal wrote instead.');
  await mailroom.getByRole('button', { name: 'Waive it' }).click();
  await expect(mailroom.getByText('Complete: nothing is awaited.')).toBeVisible();
  await axeAtBothWidths(mailroom);

  // Complete: the list's filter finds it, and the applicant's page says so.
  await mailroom.goto(`/staff?status=submitted&checklist=complete&q=${encodeURIComponent(applicant.email)}`);
  await expect(mailroom.getByRole('row').filter({ hasText: applicant.email }).getByRole('link', { name: 'Jordan Rivera' })).toBeVisible();
  await page.reload();
  await expect(page.getByText('We have everything we need to read your application.')).toBeVisible();
  await expect(page.getByText(/High-school transcript: Received/)).toBeVisible();
  await expect(page.getByText(/Counselor recommendation: Not needed/)).toBeVisible();
  await axeAtBothWidths(page);
  await office.close();
});

test('asked from Final Steps before submitting, without the waiver: the recommender is told the applicant may read the letter, and the applicant reads it', async ({ browser }) => {
  // Sign-up, a request by real mail, the worker's conversion of the letter and the applicant's read:
  // about 30 s on a busy two-core CI machine, so the default 30 s test timeout is too tight.
  test.setTimeout(120_000);
  const files = await makeFixtureFiles();
  const context = await browser.newContext();
  const email = uniqueEmail('no-waiver');
  await confirmedAccount(context.request, email);
  expect((await context.request.post('/public/login', { data: { username: email, password: PASSWORD } })).ok()).toBe(true);
  expect((await context.request.put('/api/answer', { data: { ...completeApplication, first_name: 'Jordan', last_name: 'Rivera', citizenship_type: 'C', counselor_waiver_request: 'N' } })).ok()).toBe(true);
  const teacherEmail = uniqueEmail('reader-teacher');
  const form = await context.newPage();
  await form.goto('/final-steps');
  await form.getByRole('button', { name: 'Ask for recommendations now' }).click();
  await expect(form.getByRole('heading', { name: 'Recommendations' })).toBeVisible();
  await form.getByRole('radio', { name: 'Teacher', exact: true }).check();
  await form.getByLabel('Their name').fill('Ann Cho');
  await form.getByLabel('Their e-mail address').fill(teacherEmail);
  await form.getByRole('button', { name: 'Send the request', exact: true }).click();
  await expect(form.getByText('Asked Ann Cho: they have been e-mailed a link of their own.')).toBeVisible();
  expect((await context.request.post('/api/submit')).ok(), 'submit').toBe(true);
  const mail = await waitForMail(teacherEmail);
  expect(mail.text).toContain('The applicant has not waived their right to see this recommendation: they may read your letter.');
  const teacher = await browser.newPage();
  await recommend(teacher, linkIn(mail.text), { name: 'letter.pdf', mimeType: 'application/pdf', buffer: files.pdf });
  const page = await context.newPage();
  await page.goto('/completion');
  const link = page.getByRole('link', { name: 'Read Ann Cho’s letter (PDF)' });
  await expect(link).toBeVisible();
  const letter = await context.request.get((await link.getAttribute('href'))!);
  expect((await pdfTextByPage(await letter.body())).join(' ')).toContain(FIXTURE_TEXT.pdf);
  await context.close();
});
