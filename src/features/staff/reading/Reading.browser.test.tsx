import { QueryClientProvider } from '@tanstack/react-query';
import { PDFDocument } from 'pdf-lib';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { checklistRuleMessages } from '../../../../domain/checklist';
import { fileMessages } from '../../../../domain/messages';
import { reviewMessages } from '../../../../domain/reviews';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { ToastProvider } from '../../../ui/Toast';
import { DocumentViewer } from '../kit/DocumentViewer';
import { StaffApp } from '../StaffApp';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const FORM = { version: 3, scales: [{ name: 'Essay', labels: ['1 – Weak', '2 – Strong'] }, { name: 'Academics', labels: ['Low', 'High'] }], recommendations: ['Admit', 'Deny'], updated_by: 'admin@example.edu', updated_at: '2026-11-20T09:00:00.000Z' };
const OTHER_REVIEW = { id: 1, reviewer_email: 'first@example.edu', bin: 'Second read', form_version: 3, ratings: [{ scale: 'Essay', rating: 2, label: '2 – Strong' }, { scale: 'Academics', rating: 2, label: 'High' }], recommendation: 'Admit', comment: 'Lovely essay.', submitted_at: '2026-11-24T10:00:00.000Z', signature: 'a'.repeat(64) };

let role = 'reader';
/** Bodies the server was sent, by "METHOD path". */
let sent: [string, unknown][] = [];
/** Whether my review is in (the blind bin then shows the others). */
let reviewed = false;
/** The PDF copy's status the application is read with. */
let pdfStatus = 'COMPLETED';
/** The form and the bins as the server keeps them: a save changes what is read next (the editor starts again from it). */
let form = FORM;
const RULES = {
  version: 0,
  rules: [
    { key: 'transcript', label: 'High-school transcript', from: 'school', document_key: null, when: [] },
    { key: 'english_proficiency', label: 'Proof of English proficiency (TOEFL, IELTS or Duolingo)', from: 'applicant', document_key: null, when: [{ question: 'citizenship_type', equals: 'N' }] },
  ],
  updated_by: null,
  updated_at: null,
};
type Rules = Omit<typeof RULES, 'updated_by' | 'updated_at'> & { updated_by: string | null; updated_at: string | null };
let rules: Rules = RULES;
let bins = [{ id: 1, name: 'First read', blind: false, receives_complete: false, count: 3 }, { id: 2, name: 'Second read', blind: true, receives_complete: false, count: 1 }];

const row = (n: number) => ({ id: idOf(n), name: `Applicant ${n}`, email: `a${n}@example.com`, status: 'submitted', submitted_at: '2026-11-20T16:02:11.000Z', entry_term: 'Fall 2027', intended_major: 'Biology', high_school: 'East High School', bin: 'Second read' });
const application = () => ({
  id: idOf(1),
  status: 'submitted',
  submitted_at: '2026-11-20T16:02:11.000Z',
  view: { username: 'a1@example.com', application_number: 100001, submitted_at: '2026-11-20T16:02:11.000Z', answer: { first_name: 'Applicant', last_name: '1' }, add_another: {}, document_answer: {}, tabs: {} },
  documents: [],
  pdf: { status: pdfStatus },
  timeline: [],
  notes: [],
  decision: null,
  bin: { id: 2, name: 'Second read', blind: true },
  assignments: [{ staff_id: idOf(90), staff_email: 'reader@example.edu', assigned_at: '2026-11-24T09:00:00.000Z', reviewed_at: null }],
  reviews: reviewed ? [OTHER_REVIEW, { ...OTHER_REVIEW, id: 2, reviewer_email: `${role}@example.edu`, comment: 'Thin activities.' }] : role !== 'reader' ? [OTHER_REVIEW] : [],
  reviews_hidden: reviewed || role !== 'reader' ? 0 : 1,
  corrections: [] as unknown[],
  withdrawal: null,
  merged_into: null,
  merged_from: [] as string[],
  open_by: [] as unknown[],
  checklist: { complete: false, items: [{ key: 'transcript', label: 'High-school transcript', status: 'awaiting', by: null, reason: null, at: null, materials: [] }] },
});

const MATERIAL = { id: idOf(70), file_name: 'transcript-scan.pdf', status: 'unprocessed', message: null, by: 'reader@example.edu', at: '2026-12-02T09:30:00.000Z', recommendation: null };
const LETTER = {
  ...MATERIAL,
  id: idOf(71),
  file_name: 'letter.pdf',
  status: 'completed',
  by: 'teacher@school.example',
  recommendation: { name: 'Sam Ortiz', role: 'teacher', relationship: 'Their chemistry teacher', known_for: '1 to 2 years', ratings: { 'Academic achievement': 'Excellent (top 10%)' } },
};
const received = (materials: object[]) => ({ complete: true, items: [{ key: 'transcript', label: 'High-school transcript', status: 'received', by: 'reader@example.edu', reason: null, at: MATERIAL.at, materials }] });
let onePagePdf: Uint8Array;

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  if (request.method !== 'GET') {
    // The upload's body is a form, not JSON.
    const text = request.headers.get('content-type')?.startsWith('multipart/') ? '' : await request.text();
    sent.push([key, text ? JSON.parse(text) : null]);
  }
  if (key === 'GET /staff/api/me') return json(200, { email: `${role}@example.edu`, role });
  if (url.pathname === '/staff/api/review-form') {
    if (request.method === 'PUT') form = { ...form, ...(sent.at(-1)![1] as object), version: form.version + 1 };
    return json(200, form);
  }
  if (url.pathname === '/staff/api/checklist-rules') {
    if (request.method === 'PUT') {
      const body = sent.at(-1)![1] as { rules: { key?: string; label: string }[] };
      if (body.rules.some((rule) => !rule.label)) return json(400, { message: 'Please check the highlighted fields.', errors: { [`rules.${body.rules.findIndex((rule) => !rule.label)}.label`]: [checklistRuleMessages.labelRequired] } });
      rules = { ...rules, version: rules.version + 1, rules: body.rules.map((rule, i) => ({ key: rule.key ?? `new_${i}`, from: 'school', document_key: null, when: [], ...rule })), updated_by: 'admin@example.edu', updated_at: '2026-11-27T09:00:00.000Z' } as Rules;
    }
    return json(200, rules);
  }
  if (url.pathname === '/staff/api/bins') {
    if (request.method === 'PUT') bins = (sent.at(-1)![1] as { bins: { id?: number; name: string; blind: boolean; receives_complete: boolean }[] }).bins.map((bin, i) => ({ id: bin.id ?? 10 + i, name: bin.name, blind: bin.blind, receives_complete: bin.receives_complete, count: 0 }));
    return json(200, { unplaced: 1, bins });
  }
  if (key === 'GET /staff/api/readers') return json(200, [{ id: idOf(90), email: 'reader@example.edu', role: 'reader', open: 1 }, { id: idOf(91), email: 'second@example.edu', role: 'reader', open: 0 }]);
  if (key === 'POST /staff/api/bins/moves') return json(200, { moved: 2 });
  if (key === 'POST /staff/api/assignments') {
    const body = sent.at(-1)![1] as { application_ids: string[]; reader_ids: string[] };
    return json(200, { assigned: body.application_ids.map((id, i) => ({ application_id: id, staff_id: body.reader_ids[i % body.reader_ids.length], staff_email: 'second@example.edu' })), skipped: [] });
  }
  if (request.method === 'DELETE' && url.pathname.includes('/assignments/')) return new Response(null, { status: 204 });
  if (key === `POST /staff/api/applications/${idOf(1)}/pdf`) return json(202, { status: 'UNPROCESSED' });
  if (key === `POST /staff/api/applications/${idOf(1)}/withdrawal`) return json(200, { kind: 'withdrawn', at: '2026-12-01T10:00:00.000Z', reason: (sent.at(-1)![1] as { reason: string }).reason, by: 'decider@example.edu' });
  if (key === `DELETE /staff/api/applications/${idOf(1)}/withdrawal`) return new Response(null, { status: 204 });
  if (key === `POST /staff/api/applications/${idOf(1)}/corrections`) {
    const body = sent.at(-1)![1] as { key: string; value: string | null; reason: string };
    if (!body.reason.trim()) return json(400, { message: 'Please check the highlighted fields.', errors: { reason: ['Say why the answer is corrected: the applicant’s request, a document that shows it.'] } });
    return json(200, { corrections: [{ id: 1, key: body.key, label: 'Legal First Name', from: 'Applicant', to: body.value, reason: body.reason, by: 'decider@example.edu', at: '2026-12-01T10:00:00.000Z' }] });
  }
  if (key === `PUT /staff/api/applications/${idOf(1)}/checklist/transcript`) {
    const body = sent.at(-1)![1] as { status: string; reason?: string };
    if (body.status === 'waived' && !body.reason?.trim()) return json(400, { message: 'Say why this item is waived: whoever reads the application later will ask.', errors: { reason: ['Say why this item is waived: whoever reads the application later will ask.'] } });
    return json(200, { complete: true, items: [{ key: 'transcript', label: 'High-school transcript', status: body.status, by: 'reader@example.edu', reason: body.reason ?? null, at: '2026-12-01T10:00:00.000Z', materials: [] }] });
  }
  // A file attached for the transcript: the policy, the upload, the attachment, then its conversion done when the checklist is next read.
  if (key === `POST /staff/api/applications/${idOf(1)}/checklist/transcript/upload`) return json(200, { url: '/upload', fields: { key: `materials/${idOf(1)}/transcript/abc` } });
  if (key === 'POST /upload') return new Response(null, { status: 204 });
  if (key === `POST /staff/api/applications/${idOf(1)}/checklist/transcript/materials`) return json(202, MATERIAL);
  if (key === `GET /staff/api/applications/${idOf(1)}/checklist`) return json(200, received([{ ...MATERIAL, status: 'completed' }, LETTER]));
  if (key === `GET /staff/api/applications/${idOf(1)}/materials/${idOf(70)}`) return new Response(onePagePdf as BlobPart, { status: 200, headers: { 'Content-Type': 'application/pdf' } });
  if (key === `DELETE /staff/api/applications/${idOf(1)}/materials/${idOf(70)}`) return json(200, application().checklist);
  if (key === `POST /staff/api/applications/${idOf(1)}/reviews`) {
    const body = sent.at(-1)![1] as { ratings: Record<string, number> };
    if (!body.ratings.Academics) return json(400, { message: 'Rate Academics.', errors: { 'ratings.Academics': ['Rate Academics.'] } });
    reviewed = true;
    return json(201, { ...OTHER_REVIEW, id: 2, reviewer_email: `${role}@example.edu` });
  }
  if (url.pathname === '/staff/api/audit') {
    const entry = (id: number, action: string, detail: object) => ({ id, at: '2026-11-25T15:00:00.000Z', staff_email: 'admin@example.edu', action, application_id: null, applicant_email: null, detail, ip: '127.0.0.1' });
    return json(200, { total: 2, page: 1, page_size: 50, items: [entry(2, 'bins_change', { bins: ['First read', 'Second read'] }), entry(1, 'review_submit', { review: 7, signature: 'a'.repeat(8) })] });
  }
  if (url.pathname === '/staff/api/applications') return json(200, { total: 2, page: 1, page_size: 25, counts: { started: 0, validating: 0, submitted: 2 }, items: [row(1), row(2)] });
  if (url.pathname === '/staff/api/saved-views') return json(200, { views: [] });
  if (url.pathname === '/staff/api/application-counts') return json(200, { started: 0, validating: 0, submitted: 2 });
  return json(200, application());
}

function openConsole(at: string) {
  // The client's calls send a Request; the upload to the bucket's address sends a URL and options.
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => answer(input instanceof Request ? input : new Request(new URL(String(input), location.origin), init)));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path="/staff/*" element={<StaffApp />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}


beforeAll(async () => {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  onePagePdf = await pdf.save();
});

beforeEach(() => {
  role = 'reader';
  rules = RULES;
  sent = [];
  reviewed = false;
  pdfStatus = 'COMPLETED';
  form = FORM;
  bins = [{ id: 1, name: 'First read', blind: false, receives_complete: false, count: 3 }, { id: 2, name: 'Second read', blind: true, receives_complete: false, count: 1 }];
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('reading (issue 30)', () => {
  it('holds the other reviews back in a blind bin, keeps a refused review as typed, and shows them all once mine is signed', async () => {
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText(`${reviewMessages.writeReviewFirst} 1 review is in.`)).toBeVisible();
    expect(screen.getByText('Lovely essay.').query()).toBeNull();
    await expectNoViolationsAtBothWidths();

    await screen.getByRole('radio', { name: '2 – Strong' }).click();
    await screen.getByRole('radio', { name: 'Deny' }).click();
    await screen.getByLabelText('Comment (optional)').fill('Thin activities.');
    await screen.getByRole('button', { name: 'Submit my review' }).click();
    await expect.element(screen.getByRole('group', { name: 'Academics' }).getByText('Rate Academics.')).toBeVisible();
    // Nothing typed is lost: the ratings, the recommendation and the comment stay.
    await expect.element(screen.getByRole('radio', { name: '2 – Strong' })).toBeChecked();
    await expect.element(screen.getByLabelText('Comment (optional)')).toHaveValue('Thin activities.');
    await expectNoViolationsAtBothWidths();

    await screen.getByRole('radio', { name: 'High' }).click();
    await screen.getByRole('button', { name: 'Submit my review' }).click();
    await expect.element(screen.getByText('Lovely essay.')).toBeVisible();
    await expect.element(screen.getByText('Thin activities.')).toBeVisible();
    expect(sent.filter(([key]) => key.endsWith('/reviews')).at(-1)![1]).toEqual({ form_version: 3, ratings: { Essay: 2, Academics: 2 }, recommendation: 'Deny', comment: 'Thin activities.' });
    await expect.element(screen.getByRole('button', { name: 'Submit my review' })).not.toBeInTheDocument();
  });

  it('shows my queue as its own page, marked so in the menu, and asks the list for my queue alone', async () => {
    const asked: string[] = [];
    const screen = await openConsole('/staff?queue=mine');
    await expect.element(screen.getByRole('heading', { level: 1, name: 'My queue' })).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'My queue' })).toHaveAttribute('aria-current', 'page');
    await expect.element(screen.getByRole('link', { name: 'Applications', exact: true })).toHaveAttribute('aria-current', 'false');
    for (const [input] of vi.mocked(globalThis.fetch).mock.calls) asked.push(new URL((input as Request).url).pathname + new URL((input as Request).url).search);
    const lists = asked.filter((url) => url.startsWith('/staff/api/applications?'));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.filter((url) => !url.includes('queue=mine'))).toEqual([]);
    await expectNoViolationsAtBothWidths();
  });

  it('filters the list by its checklist: complete, or missing one item, the counts asked for the same (issue 31)', async () => {
    const screen = await openConsole('/staff');
    const asked = () => vi.mocked(globalThis.fetch).mock.calls.map(([input]) => new URL((input as Request).url)).filter((url) => url.pathname.startsWith('/staff/api/application'));
    await screen.getByLabelText('Materials').selectOptions('Missing: High-school transcript');
    await expect.poll(() => asked().filter((url) => url.searchParams.get('missing') === 'transcript').map((url) => url.pathname)).toEqual(expect.arrayContaining(['/staff/api/applications', '/staff/api/application-counts']));
    await screen.getByLabelText('Materials').selectOptions('Complete');
    await expect.poll(() => asked().some((url) => url.pathname === '/staff/api/applications' && url.searchParams.get('checklist') === 'complete' && !url.searchParams.has('missing'))).toBe(true);
    await expectNoViolationsAtBothWidths();
  });

  it('makes a failed PDF copy again and shows its new status without reading the application again (each read is an audited view)', async () => {
    pdfStatus = 'FAILED';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText('Status: Failed')).toBeVisible();
    await screen.getByRole('button', { name: 'Make the PDF copy again' }).click();
    await expect.element(screen.getByText('Status: Waiting to be made')).toBeVisible();
    const reads = vi.mocked(globalThis.fetch).mock.calls.filter(([input]) => (input as Request).method === 'GET' && new URL((input as Request).url).pathname === `/staff/api/applications/${idOf(1)}`);
    expect(reads).toHaveLength(1);
  });

  it('marks a checklist item waived with its reason (none refused, what was typed kept), and the checklist says it is complete (issue 31)', async () => {
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText('1 of 1 still awaited.')).toBeVisible();
    await screen.getByRole('button', { name: 'Waive High-school transcript' }).click();
    await screen.getByRole('button', { name: 'Waive it' }).click();
    await expect.element(screen.getByLabelText('Why High-school transcript is waived')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolationsAtBothWidths();
    await screen.getByLabelText('Why High-school transcript is waived').fill('Home-schooled.');
    await screen.getByRole('button', { name: 'Waive it' }).click();
    await expect.element(screen.getByText('Complete: nothing is awaited.')).toBeVisible();
    await expect.element(screen.getByText(/Waived \(reader@example.edu, .*: Home-schooled.\)/)).toBeVisible();
    expect(sent.filter(([key]) => key.includes('/checklist/')).map(([, body]) => body)).toEqual([{ status: 'waived', reason: '' }, { status: 'waived', reason: 'Home-schooled.' }]);
    await expectNoViolationsAtBothWidths();
  });

  it('attaches a file that arrived to its item, shows it converted and the item received, reads it in the page and removes it; a file of another type is refused before it is sent (issue 31)', async () => {
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    const input = screen.getByLabelText('Attach a file for High-school transcript (PDF, DOCX, PNG or JPEG)');
    await input.upload(new File(['MZ'], 'transcript.exe', { type: 'application/octet-stream' }));
    await expect.element(screen.getByRole('alert').filter({ hasText: fileMessages.wrongType })).toBeVisible();
    expect(sent).toEqual([]);
    await input.upload(new File([onePagePdf as BlobPart], 'transcript-scan.pdf', { type: 'application/pdf' }));
    await expect.element(screen.getByText('Complete: nothing is awaited.')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'transcript-scan.pdf (PDF)' })).toHaveAttribute('href', `/staff/api/applications/${idOf(1)}/materials/${idOf(70)}`);
    expect(sent.map(([key]) => key)).toEqual([`POST /staff/api/applications/${idOf(1)}/checklist/transcript/upload`, 'POST /upload', `POST /staff/api/applications/${idOf(1)}/checklist/transcript/materials`]);
    expect(sent.at(-1)![1]).toEqual({ file_key: `materials/${idOf(1)}/transcript/abc`, file_name: 'transcript-scan.pdf' });
    // A recommender's letter shows what their form said.
    await expect.element(screen.getByText('Their chemistry teacher')).toBeVisible();
    await expect.element(screen.getByText('Excellent (top 10%)')).toBeVisible();
    // Received because of the file: there is no mark to take back, only the file to remove.
    expect(screen.getByRole('button', { name: 'Mark High-school transcript awaiting again' }).query()).toBeNull();
    await screen.getByRole('button', { name: 'Read here: transcript-scan.pdf' }).click();
    await expect.element(screen.getByRole('img', { name: 'transcript-scan.pdf, page 1 of 1' })).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Remove transcript-scan.pdf' }).click();
    await expect.element(screen.getByText('1 of 1 still awaited.')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'transcript-scan.pdf (PDF)' })).not.toBeInTheDocument();
  });

  it('keeps a review draft while the reader moves away and back', async () => {
    const first = await openConsole(`/staff/applications/${idOf(1)}`);
    await first.getByRole('radio', { name: '1 – Weak' }).click();
    await first.getByLabelText('Comment (optional)').fill('Half written.');
    await first.unmount();
    const again = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(again.getByLabelText('Comment (optional)')).toHaveValue('Half written.');
    await expect.element(again.getByRole('radio', { name: '1 – Weak' })).toBeChecked();
  });

  it('lets a decider move an application, give it to a reader and take it back', async () => {
    role = 'decider';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText('Bin: Second read (read blind)')).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByLabelText('Move to').selectOptions('First read');
    await screen.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.element(screen.getByText('Bin: First read')).toBeVisible();
    await screen.getByLabelText('Give to a reader').selectOptions('second@example.edu (0 to read)');
    await screen.getByRole('button', { name: 'Give', exact: true }).click();
    await expect.element(screen.getByText(/^second@example.edu: to read/)).toBeVisible();
    await screen.getByRole('button', { name: 'Take back from reader@example.edu' }).click();
    await expect.element(screen.getByText(/^reader@example.edu: to read/)).not.toBeInTheDocument();
    expect(sent.map(([key, body]) => [key, body])).toEqual([
      ['POST /staff/api/bins/moves', { application_ids: [idOf(1)], bin_id: 1 }],
      ['POST /staff/api/assignments', { application_ids: [idOf(1)], reader_ids: [idOf(91)], second_reader: true }],
      [`DELETE /staff/api/applications/${idOf(1)}/assignments/${idOf(90)}`, null],
    ]);
  });

  it('lets a decider correct a submitted answer with its reason: the history shows what the applicant gave, the answer shows corrected, without reading the application again (issue 32)', async () => {
    role = 'decider';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText('No answer has been corrected.')).toBeVisible();
    await screen.getByLabelText('Question to correct').selectOptions('first_name');
    await expect.element(screen.getByText('Answered now: “Applicant”')).toBeVisible();
    await screen.getByLabelText('Corrected answer (empty removes it)').fill('Applicantina');
    await screen.getByRole('button', { name: 'Correct the answer' }).click();
    await expect.element(screen.getByText('Say why the answer is corrected: the applicant’s request, a document that shows it.')).toBeVisible();
    await screen.getByLabelText('Why (kept with the correction)').fill('The applicant wrote in.');
    await screen.getByRole('button', { name: 'Correct the answer' }).click();
    await expect.element(screen.getByText(/^Legal First Name: “Applicant” → “Applicantina”, by decider@example.edu/)).toBeVisible();
    await expect.element(screen.getByText('Answered now: “Applicantina”')).toBeVisible();
    await expectNoViolationsAtBothWidths();
    expect(sent.filter(([key]) => key.endsWith('/corrections')).map(([, body]) => body)).toEqual([
      { key: 'first_name', value: 'Applicantina', reason: '' },
      { key: 'first_name', value: 'Applicantina', reason: 'The applicant wrote in.' },
    ]);
    const reads = vi.mocked(globalThis.fetch).mock.calls.filter(([input]) => (input as Request).method === 'GET' && new URL((input as Request).url).pathname === `/staff/api/applications/${idOf(1)}`);
    expect(reads).toHaveLength(1);
  });

  it('lets a decider withdraw a submitted application at the applicant’s request and reinstate it, in place (issue 32)', async () => {
    role = 'decider';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await screen.getByLabelText('The applicant’s request (what they asked, and when)').fill('Enrolling elsewhere.');
    await screen.getByRole('button', { name: 'Withdraw at the applicant’s request' }).click();
    await expect.element(screen.getByText(/^Withdrawn at the applicant’s request, .* by decider@example.edu: Enrolling elsewhere\.$/)).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Reinstate the application' }).click();
    await expect.element(screen.getByRole('button', { name: 'Withdraw at the applicant’s request' })).toBeVisible();
    expect(sent.filter(([key]) => key.endsWith('/withdrawal')).map(([key, body]) => [key.split(' ')[0], body])).toEqual([
      ['POST', { reason: 'Enrolling elsewhere.' }],
      ['DELETE', null],
    ]);
  });

  it('lets a decider move and share out the applications ticked in the list', async () => {
    role = 'decider';
    const screen = await openConsole('/staff');
    await screen.getByRole('checkbox', { name: 'Select Applicant 1', exact: true }).click();
    await screen.getByRole('checkbox', { name: 'Select Applicant 2', exact: true }).click();
    await screen.getByLabelText('Move the 2 applications ticked to').selectOptions('First read');
    await screen.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.element(screen.getByText('2 applications moved.')).toBeVisible();
    await screen.getByRole('checkbox', { name: 'Select Applicant 1', exact: true }).click();
    await screen.getByRole('checkbox', { name: 'Select Applicant 2', exact: true }).click();
    await screen.getByLabelText('reader@example.edu (1 to read)').click();
    await screen.getByLabelText('second@example.edu (0 to read)').click();
    await screen.getByRole('button', { name: 'Give', exact: true }).click();
    await expect.element(screen.getByText('2 applications given.')).toBeVisible();
    expect(sent).toEqual([
      ['POST /staff/api/bins/moves', { application_ids: [idOf(1), idOf(2)], bin_id: 1 }],
      ['POST /staff/api/assignments', { application_ids: [idOf(1), idOf(2)], reader_ids: [idOf(90), idOf(91)], second_reader: false }],
    ]);
    await expectNoViolationsAtBothWidths();
  });

  it('lets an administrator define the review form', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/review-form');
    await expect.element(screen.getByText('Version 3, by admin@example.edu', { exact: false })).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Remove the scale Academics' }).click();
    await screen.getByRole('button', { name: 'Add a rating scale' }).click();
    await screen.getByRole('group', { name: 'Rating scale 2' }).getByLabelText('Name').fill('Interview');
    await screen.getByRole('group', { name: 'Rating scale 2' }).getByLabelText('Points').fill('Poor\n\nGood\nExcellent');
    await screen.getByLabelText('Recommendations').fill('Admit\nWaitlist\nDeny');
    await screen.getByRole('button', { name: 'Save the review form' }).click();
    // Saved: the editor starts again from version 4, and says so.
    await expect.element(screen.getByText(/^Saved as version 4/)).toBeVisible();
    await expect.element(screen.getByText('Version 4, by admin@example.edu', { exact: false })).toBeVisible();
    await expect.element(screen.getByRole('group', { name: 'Rating scale 2' }).getByLabelText('Name')).toHaveValue('Interview');
    expect(sent).toEqual([
      [
        'PUT /staff/api/review-form',
        {
          scales: [
            { name: 'Essay', labels: ['1 – Weak', '2 – Strong'] },
            { name: 'Interview', labels: ['Poor', 'Good', 'Excellent'] },
          ],
          recommendations: ['Admit', 'Waitlist', 'Deny'],
        },
      ],
    ]);
  });

  it('names every step of the cycle in the audit log, and reads out a list that is not of applications', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/audit');
    const table = screen.getByRole('table');
    await expect.element(table.getByText('Changed the bins')).toBeVisible();
    await expect.element(table.getByText('bins: First read, Second read')).toBeVisible();
    await expect.element(table.getByText('Signed a review')).toBeVisible();
    await expect.element(screen.getByRole('option', { name: 'Called back a scheduled release' })).toBeInTheDocument();
    await expectNoViolationsAtBothWidths();
  });

  it('lets an administrator set the checklist: an item required on an answer, a refused save keeping what was typed (issue 31)', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/checklist');
    await expect.element(screen.getByText('The built-in checklist.')).toBeVisible();
    const english = screen.getByRole('group', { name: 'Item 2' });
    await expect.element(english.getByLabelText('Required')).toHaveValue('citizenship_type');
    await expect.element(english.getByLabelText('is answered')).toHaveValue('N');
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Add an item' }).click();
    const added = screen.getByRole('group', { name: 'Item 3' });
    await added.getByLabelText('Sent by').selectOptions('The applicant (uploads it after submitting)');
    await added.getByLabelText('Required').selectOptions('When: Do you waive your right to see the recommendations written for you?');
    await added.getByLabelText('is answered').selectOptions('Yes');
    await screen.getByRole('button', { name: 'Save the checklist' }).click();
    await expect.element(added.getByText(checklistRuleMessages.labelRequired)).toBeVisible();
    await expect.element(added.getByLabelText('is answered')).toHaveValue('Y');
    await expectNoViolationsAtBothWidths();
    await added.getByLabelText('Name').fill('Portfolio');
    await screen.getByRole('button', { name: 'Save the checklist' }).click();
    await expect.element(screen.getByText('Saved as version 1: every submitted application’s checklist is being computed again.')).toBeVisible();
    expect(sent.at(-1)).toEqual([
      'PUT /staff/api/checklist-rules',
      {
        rules: [
          { key: 'transcript', label: 'High-school transcript', from: 'school', when: [] },
          { key: 'english_proficiency', label: 'Proof of English proficiency (TOEFL, IELTS or Duolingo)', from: 'applicant', when: [{ question: 'citizenship_type', equals: 'N' }] },
          { label: 'Portfolio', from: 'applicant', when: [{ question: 'counselor_waiver_request', equals: 'Y' }] },
        ],
      },
    ]);
  });

  it('lets an administrator rename, reorder, add and remove bins', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/bins');
    await expect.element(screen.getByLabelText('Bin 1 (3 now)')).toHaveValue('First read');
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Move up: Second read' }).click();
    await screen.getByRole('button', { name: 'Add a bin' }).click();
    await screen.getByLabelText('Bin 3 (new)').fill('Committee');
    await screen.getByRole('button', { name: 'Remove: First read' }).click();
    // One bin at most receives complete applications: choosing another unchooses the first.
    const completeBoxes = screen.getByRole('checkbox', { name: 'Complete applications arrive here' });
    await completeBoxes.nth(0).click();
    await completeBoxes.nth(1).click();
    await expect.element(completeBoxes.nth(0)).not.toBeChecked();
    await screen.getByRole('button', { name: 'Save the bins' }).click();
    await expect.element(screen.getByText('Saved.')).toBeVisible();
    await expect.element(screen.getByLabelText('Bin 2 (0 now)')).toHaveValue('Committee');
    await expect.element(screen.getByRole('checkbox', { name: 'Complete applications arrive here' }).nth(1)).toBeChecked();
    expect(sent).toEqual([['PUT /staff/api/bins', { bins: [{ id: 2, name: 'Second read', blind: true, receives_complete: false }, { name: 'Committee', blind: false, receives_complete: true }] }]]);
  });
});

describe('a document read in the page', () => {
  it('draws every page with PDF.js, each named for a screen reader', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    pdf.addPage([612, 792]);
    const bytes = await pdf.save();
    // Each read is an audited view: StrictMode's second mount must not read it again.
    const read = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(bytes as BlobPart, { status: 200, headers: { 'Content-Type': 'application/pdf' } }));
    const screen = await render(
      <StrictMode>
        <QueryClientProvider client={createQueryClient()}>
          <DocumentViewer url="/staff/api/applications/x/documents/y?view=inline" title="Additional Information" />
        </QueryClientProvider>
      </StrictMode>,
    );
    await expect.element(screen.getByText('Additional Information: 2 pages.')).toBeVisible();
    await expect.element(screen.getByRole('img', { name: 'Additional Information, page 2 of 2' })).toBeVisible();
    expect(document.querySelectorAll('canvas.staff-viewer__page')).toHaveLength(2);
    expect(read).toHaveBeenCalledTimes(1);
    await expectNoViolationsAtBothWidths();
  });

  it('says why a document cannot be shown', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(404, { message: 'This document has not been converted, so there is nothing to download.' }));
    const screen = await render(
      <QueryClientProvider client={createQueryClient()}>
        <DocumentViewer url="/staff/api/applications/x/documents/y?view=inline" title="Additional Information" />
      </QueryClientProvider>,
    );
    await expect.element(screen.getByRole('alert')).toHaveTextContent('This document has not been converted, so there is nothing to download.');
  });
});
