import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { fileMessages } from '../../../domain/messages';
import { recommenderMessages } from '../../../domain/recommenders';
import { createQueryClient } from '../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../test/axe';
import { ApplicantMaterials } from './Materials';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const TEACHER = { id: '3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d', role: 'teacher', name: 'Sam Ortiz', email: 's.ortiz@school.example', status: 'submitted', sent_at: '2026-11-20T10:00:00.000Z', opened_at: '2026-11-21T10:00:00.000Z', submitted_at: '2026-11-22T10:00:00.000Z', waived: true, letter: false };
const COUNSELOR = { ...TEACHER, id: '2f1d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b', role: 'counselor', name: 'Pat Lee', email: 'pat@school.example', status: 'opened', submitted_at: null };

let waived = true;
let reminders = true;
let asked: object[] = [];
/** Bodies the server was sent, by "METHOD path". */
let sent: [string, unknown][] = [];

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  if (request.method !== 'GET') {
    const text = request.headers.get('content-type')?.startsWith('multipart/') ? '' : await request.text();
    sent.push([key, text ? JSON.parse(text) : null]);
  }
  if (key === 'GET /api/checklist')
    return json(200, {
      complete: false,
      reminders,
      items: [
        { key: 'transcript', label: 'High-school transcript', status: 'received', from: 'school', files: [] },
        { key: 'teacher_recommendation', label: 'Teacher recommendation', status: 'received', from: 'recommender', files: [] },
        { key: 'english_proficiency', label: 'Proof of English proficiency (TOEFL, IELTS or Duolingo)', status: 'awaiting', from: 'applicant', files: [] },
      ],
    });
  if (key === 'PUT /api/checklist/reminders') {
    reminders = (sent.at(-1)![1] as { enabled: boolean }).enabled;
    return json(200, { enabled: reminders });
  }
  if (key === 'GET /api/recommenders') return json(200, { waived, recommenders: [...asked] });
  if (key === 'POST /api/recommenders') {
    const body = sent.at(-1)![1] as { name: string; email: string; role: string };
    if (body.email === 'third@school.example') return json(409, { message: recommenderMessages.tooMany });
    const created = { ...COUNSELOR, id: '9a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d', ...body, status: 'sent', opened_at: null, submitted_at: null };
    asked = [...asked, created];
    return json(201, created);
  }
  if (key === `POST /api/recommenders/${COUNSELOR.id}/resend`) return json(200, COUNSELOR);
  if (key === `DELETE /api/recommenders/${COUNSELOR.id}`) {
    asked = asked.filter((each) => (each as { id: string }).id !== COUNSELOR.id);
    return new Response(null, { status: 204 });
  }
  return json(404, { message: 'We could not find that.' });
}

async function renderMaterials() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => answer(input instanceof Request ? input : new Request(new URL(String(input), location.origin), init)));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <main>
        <h1>Application Submitted</h1>
        <ApplicantMaterials />
      </main>
    </QueryClientProvider>,
  );
}


beforeEach(() => {
  waived = true;
  reminders = true;
  asked = [TEACHER, COUNSELOR];
  sent = [];
});
afterEach(() => vi.restoreAllMocks());

describe('the applicant’s materials and recommenders after submission (issue 31)', () => {
  it('shows each item’s state and each recommender’s, and with the waiver no letter', async () => {
    const screen = await renderMaterials();
    await expect.element(screen.getByText('1 of 3 still awaited.', { exact: false })).toBeVisible();
    await expect.element(screen.getByText('Sent their recommendation on November 22, 2026', { exact: false })).toBeVisible();
    await expect.element(screen.getByText('Opened your request on November 21, 2026', { exact: false })).toBeVisible();
    await expect.element(screen.getByText(/You waived your right to see your recommendations/)).toBeVisible();
    expect(screen.getByRole('link', { name: /letter \(PDF\)/ }).query()).toBeNull();
    // A submitted recommendation cannot be sent again or withdrawn; an open one can.
    expect(screen.getByRole('button', { name: 'Send again: the request to Sam Ortiz' }).query()).toBeNull();
    await expect.element(screen.getByRole('button', { name: 'Send again: the request to Pat Lee' })).toBeVisible();
    await expectNoViolationsAtBothWidths();
  });

  it('without the waiver offers each letter that arrived', async () => {
    waived = false;
    asked = [{ ...TEACHER, waived: false, letter: true }];
    const screen = await renderMaterials();
    await expect.element(screen.getByRole('link', { name: 'Read Sam Ortiz’s letter (PDF)' })).toHaveAttribute('href', `/api/recommenders/${TEACHER.id}/letter`);
    await expect.element(screen.getByText(/You have not waived your right to see your recommendations/)).toBeVisible();
  });

  it('says of a request asked before the waiver that its letter is still the applicant’s (each letter follows what its recommender was told)', async () => {
    waived = true;
    asked = [{ ...TEACHER, waived: false, letter: true }, { ...COUNSELOR, waived: true }];
    const screen = await renderMaterials();
    await expect.element(screen.getByRole('listitem').filter({ hasText: 'Sam Ortiz' })).toHaveTextContent('Asked before you waived your right to see it: you can read its letter.');
    await expect.element(screen.getByRole('link', { name: 'Read Sam Ortiz’s letter (PDF)' })).toBeVisible();
    expect(screen.getByRole('listitem').filter({ hasText: 'Pat Lee' }).element().textContent).not.toContain('Asked ');
    await expectNoViolationsAtBothWidths();
  });

  it('asks for a recommendation: what is missing is said before anything is sent, a refusal keeps what was typed, and the new request joins the list', async () => {
    const screen = await renderMaterials();
    await screen.getByRole('button', { name: 'Send the request', exact: true }).click();
    await expect.element(screen.getByText(recommenderMessages.roleRequired)).toBeVisible();
    await expect.element(screen.getByText(recommenderMessages.nameRequired)).toBeVisible();
    await expect.element(screen.getByText(recommenderMessages.emailInvalid)).toBeVisible();
    expect(sent).toEqual([]);
    await expectNoViolationsAtBothWidths();

    await screen.getByRole('radio', { name: 'Teacher' }).click();
    await screen.getByLabelText('Their name').fill('Third Teacher');
    await screen.getByLabelText('Their e-mail address').fill('third@school.example');
    await screen.getByRole('button', { name: 'Send the request', exact: true }).click();
    await expect.element(screen.getByRole('alert').filter({ hasText: recommenderMessages.tooMany })).toBeVisible();
    await expect.element(screen.getByLabelText('Their name')).toHaveValue('Third Teacher');

    await screen.getByLabelText('Their e-mail address').fill('ann@school.example');
    await screen.getByLabelText('Their name').fill('Ann Cho');
    await screen.getByRole('button', { name: 'Send the request', exact: true }).click();
    await expect.element(screen.getByText('Asked Ann Cho: they have been e-mailed a link of their own.')).toBeVisible();
    await expect.element(screen.getByText('Asked on November 20, 2026; not opened yet', { exact: false })).toBeVisible();
    expect(sent.at(-1)).toEqual(['POST /api/recommenders', { role: 'teacher', name: 'Ann Cho', email: 'ann@school.example' }]);
    await expect.element(screen.getByLabelText('Their name')).toHaveValue('');
  });

  it('withdraws a request only once confirmed, and sends one again', async () => {
    const screen = await renderMaterials();
    await screen.getByRole('button', { name: 'Send again: the request to Pat Lee' }).click();
    await expect.element(screen.getByText('Sent again: the link in the earlier e-mail no longer works.')).toBeVisible();
    await screen.getByRole('button', { name: 'Withdraw the request to Pat Lee' }).click();
    expect(sent.map(([key]) => key)).toEqual([`POST /api/recommenders/${COUNSELOR.id}/resend`]);
    await screen.getByRole('button', { name: 'Yes, withdraw the request to Pat Lee' }).click();
    await expect.element(screen.getByText('Pat Lee', { exact: true })).not.toBeInTheDocument();
  });

  it('switches the weekly reminder off and on', async () => {
    const screen = await renderMaterials();
    const reminder = screen.getByRole('checkbox', { name: 'E-mail me once a week about what is still awaited' });
    await expect.element(reminder).toBeChecked();
    await reminder.click();
    await expect.element(reminder).not.toBeChecked();
    expect(sent).toEqual([['PUT /api/checklist/reminders', { enabled: false }]]);
    await reminder.click();
    await expect.element(reminder).toBeChecked();
  });

  it('refuses a file of another type for an item the applicant sends, before sending anything', async () => {
    const screen = await renderMaterials();
    await screen.getByLabelText('Send a file for Proof of English proficiency (TOEFL, IELTS or Duolingo) (PDF, DOCX, PNG or JPEG)').upload(new File(['x'], 'scores.txt', { type: 'text/plain' }));
    await expect.element(screen.getByRole('alert').filter({ hasText: fileMessages.wrongType })).toBeVisible();
    expect(sent).toEqual([]);
  });
});
