import type { Locator, Page } from '@playwright/test';
import { FIXTURE_TEXT, makeFixtureFiles, pdfTextByPage, type FixtureFiles } from '../server/testing/files';
import { fileMessages } from '../domain/messages';
import { formatFileSize } from '../domain/rules/formats';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './support/fixtures';
import { confirmedAccount, uniqueEmail } from './support/accounts';
import { completeApplication } from '../domain/catalogue/completeApplication';

/**
 * Documents from the file chooser to the PDF copy. A real browser: the file input, the upload to
 * the signed policy and the polling; the real server: the conversions (Chromium, a worker thread)
 * and the copy it prints.
 */

let files: FixtureFiles;
test.beforeAll(async () => {
  files = await makeFixtureFiles();
});

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A complete application of a permanent resident (the card's upload question shows) with a second high school. */
const answers = {
  ...completeApplication,
  citizenship_type: 'R',
  citizenship: 'MEX',
  alien_registration_number: 'A123456789',
  hs_2_name: 'Denver School of the Arts',
  hs_2_attend_from_month: '8',
  hs_2_attend_from_year: '2020',
  hs_2_grad_month: '6',
  hs_2_grad_year: '2022',
};

/** A file chosen as a person does: the field clicked, the browser's chooser answered (issue 48: by the pointer). */
async function choose(page: Page, key: string, name: string, buffer: Buffer, mimeType: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.locator(`input[type="file"]#${key}`).click();
  await (await chooser).setFiles({ name, mimeType, buffer });
}

/**
 * Waits until `shown` is on the page, moving the page's clock on by a poll's interval (2 s) at each
 * look: no look waits out the time to the next poll.
 */
async function expectAfterPolls(page: Page, shown: Locator, timeout: number) {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(2_000);
        return shown.isVisible();
      },
      { timeout },
    )
    .toBe(true);
}

/** Waits for the converted file's name and size, as the field shows them once completed. */
async function expectUploaded(page: Page, name: string, size: number) {
  await expectAfterPolls(page, page.getByText(`${name} (${formatFileSize(size)})`), 60_000);
}

async function deleteThroughModal(page: Page, name: string) {
  await page.getByRole('button', { name: 'Delete', exact: true }).and(page.locator(`[aria-describedby$="-file"]`)).first().click();
  const dialog = page.getByRole('dialog', { name: 'Delete File' });
  await expect(dialog).toContainText('Are you sure you want to delete your file?');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(name)).toHaveCount(0);
}

test('documents: each type converts, bad files get the spec messages, tabs, submit, and the PDF copy holds answers and documents', async ({ page, browser, applicant: { email } }) => {
  test.setTimeout(300_000);
  // The page's clock runs, and is moved on where the test waits for a poll.
  await page.clock.install();
  // The answers saved through the API: typing them is the form's journey (form.spec.ts); here the
  // documents, and the copy that prints the answers with them.
  for (const [url, data] of [
    ['/api/answer', { ...answers, first_name: 'Jordan' }],
    ['/api/add-another', { button_id: 'add_high_school', num_components: 2 }],
  ] as const) {
    expect((await page.request.put(url, { data })).ok(), url).toBe(true);
  }
  await page.goto('/about');

  // Bad files: the client's checks, then the server's look at the bytes of a renamed program.
  const card = 'student_upload_card';
  const error = page.locator(`#${card}-error`);
  await choose(page, card, 'empty.pdf', Buffer.alloc(0), 'application/pdf');
  await expect(error).toHaveText(`Error: ${fileMessages.empty}`);
  await choose(page, card, 'large.pdf', Buffer.alloc(1_100_000, 32), 'application/pdf');
  await expect(error).toHaveText(`Error: ${fileMessages.tooLarge}`);
  await choose(page, card, `${'n'.repeat(29)}.png`, files.png, 'image/png');
  await expect(error).toHaveText(`Error: ${fileMessages.nameTooLong}`);
  await choose(page, card, 'installer.exe', files.exe, 'application/octet-stream');
  await expect(error).toHaveText(`Error: ${fileMessages.wrongType}`);
  await choose(page, card, 'installer.png', files.exe, 'image/png');
  await expect(error).toHaveText(`Error: ${fileMessages.wrongType}`);
  await expectNoAxeViolations(page);

  // PNG: converting, then its name and size; delete it through the modal; then a JPEG stays.
  await choose(page, card, 'card.png', files.png, 'image/png');
  await expectUploaded(page, 'card.png', files.png.length);
  await expect(error).toHaveCount(0);
  await expectNoAxeViolations(page);
  await deleteThroughModal(page, 'card.png');
  await choose(page, card, 'card.jpg', files.jpeg, 'image/jpeg');
  await expectUploaded(page, 'card.jpg', files.jpeg.length);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/education$/);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(/\/final-steps$/);

  // Additional information: a PDF, deleted through the modal.
  await page.getByRole('button', { name: 'Add additional information' }).click();
  await choose(page, 'additional_info_doc', 'letter.pdf', files.pdf, 'application/pdf');
  await expectUploaded(page, 'letter.pdf', files.pdf.length);
  await deleteThroughModal(page, 'letter.pdf');

  // While the conversion reads as running (the status call answers in_progress), the tab cannot switch.
  const conversionUrl = '**/api/pdf/document-answer/additional_info_doc';
  await page.route(conversionUrl, (route) => (route.request().method() === 'GET' ? route.fulfill({ json: { status: 'in_progress' } }) : route.continue()));
  await choose(page, 'additional_info_doc', 'essay.docx', files.docx, DOCX);
  await expect(page.getByText('Converting your file to PDF…')).toBeVisible();
  await page.getByRole('tab', { name: 'Write it here' }).click();
  const blocked = page.getByRole('dialog', { name: 'File Upload in Progress' });
  await expect(blocked).toContainText('Please wait until the file upload has completed.');
  await expectNoAxeViolations(page);
  await blocked.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('tab', { name: 'Upload a document' })).toHaveAttribute('aria-selected', 'true');
  await page.unroute(conversionUrl);
  // The next poll (every 2 s) reads the real status.
  await expectUploaded(page, 'essay.docx', files.docx.length);

  // Switching now asks, then deletes the document and its answer first; switching back clears what was written.
  await page.getByRole('tab', { name: 'Write it here' }).click();
  const confirmSwitch = page.getByRole('dialog', { name: 'Switch to Write it here?' });
  await expect(confirmSwitch).toContainText('Switching removes your uploaded file for Upload a document. This cannot be undone.');
  await expectNoAxeViolations(page);
  await confirmSwitch.getByRole('button', { name: 'Remove and switch' }).click();
  await expect(page.getByRole('textbox', { name: 'Additional information' })).toBeVisible();
  await expect.poll(async () => (await page.request.get('/api/document-answer')).json()).not.toHaveProperty('additional_info_doc');
  expect(await (await page.request.get('/api/tabs')).json()).toEqual({ additional_info_tabs: 'write' });
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Additional information' }).fill('A few words.');
  await page.getByRole('tab', { name: 'Upload a document' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Switch to Upload a document?' }).getByRole('button', { name: 'Remove and switch' }).click();
  await expect(page.getByRole('tab', { name: 'Upload a document' })).toHaveAttribute('aria-selected', 'true');
  await choose(page, 'additional_info_doc', 'essay.docx', files.docx, DOCX);
  await expectUploaded(page, 'essay.docx', files.docx.length);

  await page.getByRole('button', { name: 'Save and Submit' }).click();
  await expect(page).toHaveURL(/\/completion$/);
  const saved = (await (await page.request.get('/api/profile')).json()).answer;
  expect(saved.additional_info_essay).toBeUndefined();
  expect(saved).toMatchObject({ student_upload_card: 'ANSWERED', additional_info_doc: 'ANSWERED' });

  // The PDF copy: polled until ready, then downloaded; it holds the answers and both documents.
  const download = page.getByRole('link', { name: 'Download a PDF copy of your application' });
  await expectAfterPolls(page, download, 90_000);
  await expectNoAxeViolations(page);
  const response = await page.request.get((await download.getAttribute('href'))!);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="?Rivera_Jordan_\d{6}_Application\.pdf"?$/);
  const pages = await pdfTextByPage(await response.body());
  const printed = pages.slice(0, -2).join('\n');
  for (const typed of ['Jordan', 'Rivera', '1200 Larimer St', 'Denver', '(303) 555-0142', 'A123456789', 'East High School', 'Denver School of the Arts', 'Jordan Rivera', email]) {
    expect(printed).toContain(typed);
  }
  expect(printed).toContain('card.jpg');
  // The converted JPEG (an image page, no text of its own) and the DOCX's page follow the printed
  // form, each under a caption naming its question and file.
  expect(pages.at(-2)).toContain('Attachment for Permanent Resident Card: card.jpg');
  expect(pages.at(-2)).toContain(`Page ${pages.length - 1} of ${pages.length}`);
  expect(pages.at(-1)).toContain('Attachment for Additional Information: essay.docx');
  expect(pages.at(-1)).toContain(FIXTURE_TEXT.docx);

  // Another account can reach none of it.
  const other = await browser.newContext();
  const otherEmail = uniqueEmail('docs-other');
  await confirmedAccount(other.request, otherEmail);
  expect((await other.request.post('/public/login', { data: { username: otherEmail, password: 'Correct-Horse-42!' } })).ok()).toBe(true);
  expect((await other.request.get('/api/pdf/download')).status()).toBe(404);
  expect(await (await other.request.get('/api/document-answer')).json()).toEqual({});
  expect((await other.request.delete('/api/document-answer/student_upload_card')).status()).toBe(404);
  await other.close();
});

test('a visitor sees why they cannot upload yet', async ({ page }) => {
  await page.goto('/about');
  await page.locator('input[name="citizenship_type"][value="R"]').check();
  await expect(page.getByText('This question can be finished once you have created an account.')).toBeVisible();
  await expect(page.locator('input[type="file"]')).toHaveCount(0);
});

test('the print view with a wrong token says so, without the form around it', async ({ page }) => {
  await page.goto('/about?service_token=not-a-real-token-0123456789');
  await expect(page.getByRole('alert')).toHaveText('This print link has expired or is not valid. Please ask for a new one.');
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.getByRole('button')).toHaveCount(0);
  await expectNoAxeViolations(page);
});
