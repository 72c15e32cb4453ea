import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { RATING_POINTS, RATING_SCALES, ratingRequiredOf, recommenderMessages } from '../../../domain/recommenders';
import { createQueryClient } from '../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../test/axe';
import { RecommenderPage } from './RecommenderPage';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const TOKEN = 'r3c0mmendT0kenAbCdEfGhIjKlMnOpQr';
const REQUEST = { applicant_name: 'Jordan Rivera', recommender_name: 'Sam Ortiz', role: 'teacher', waived: true, letter: null };

/** What the link answers next: the request, then (once sent) the letter's state as the test sets it. */
let state: { status: number; body: unknown } = { status: 200, body: REQUEST };
let letterStatus = 'failed';
let sent: [string, unknown][] = [];

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  if (request.method !== 'GET') {
    const text = request.headers.get('content-type')?.startsWith('multipart/') ? '' : await request.text();
    sent.push([key, text ? JSON.parse(text) : null]);
  }
  if (key === 'GET /public/recommendation') return json(state.status, state.body);
  if (key === 'POST /public/recommendation/upload') return json(200, { url: '/upload', fields: { key: 'materials/u/teacher_recommendation/r-1-abc' } });
  if (key === 'POST /upload') return new Response(null, { status: 204 });
  if (key === 'POST /public/recommendation') {
    // Converting, then (when the page asks again) the state the test chose.
    state = letterStatus === 'used' ? { status: 409, body: { message: recommenderMessages.linkUsed } } : { status: 200, body: { ...REQUEST, letter: { file_name: 'letter.docx', status: 'failed', message: 'Your file could not be read.' } } };
    return json(202, { ...REQUEST, letter: { file_name: 'letter.docx', status: 'in_progress', message: null } });
  }
  return json(404, { message: 'We could not find that.' });
}

async function openLink(token = TOKEN) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => answer(input instanceof Request ? input : new Request(new URL(String(input), location.origin), init)));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/recommend?token=${token}`]}>
        <RecommenderPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}


async function fillIn(screen: Awaited<ReturnType<typeof openLink>>) {
  await screen.getByLabelText('How do you know the applicant?').fill('Their chemistry teacher');
  await screen.getByRole('radio', { name: '1 to 2 years' }).click();
  for (const scale of RATING_SCALES) await screen.getByRole('group', { name: `${scale}, compared with other students you have known` }).getByRole('radio', { name: RATING_POINTS[1] }).click();
  await screen.getByLabelText('Your letter (PDF or Word, up to 1 MB)').upload(new File(['PK'], 'letter.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }));
}

beforeEach(() => {
  state = { status: 200, body: REQUEST };
  letterStatus = 'failed';
  sent = [];
});
afterEach(() => vi.restoreAllMocks());

describe('the recommender’s page (issue 31)', () => {
  it('says who asks and that the applicant waived their right to read the letter; says what is missing before sending anything', async () => {
    const screen = await openLink();
    await expect.element(screen.getByRole('heading', { level: 1, name: 'A recommendation for Jordan Rivera' })).toBeVisible();
    await expect.element(screen.getByText('The applicant has waived their right to see this recommendation: they will not read your letter.')).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Send my recommendation' }).click();
    await expect.element(screen.getByText(recommenderMessages.relationshipRequired)).toBeVisible();
    await expect.element(screen.getByText(recommenderMessages.knownForRequired)).toBeVisible();
    for (const scale of RATING_SCALES) await expect.element(screen.getByText(ratingRequiredOf(scale))).toBeVisible();
    await expect.element(screen.getByText(recommenderMessages.letterRequired)).toBeVisible();
    expect(sent).toEqual([]);
    await expectNoViolationsAtBothWidths();
  });

  it('sends the answers with the letter; a failed conversion says why and keeps every answer', async () => {
    const screen = await openLink();
    await fillIn(screen);
    await screen.getByRole('button', { name: 'Send my recommendation' }).click();
    await expect.element(screen.getByText('Your file could not be read.')).toBeVisible();
    expect(sent.map(([key]) => key)).toEqual(['POST /public/recommendation/upload', 'POST /upload', 'POST /public/recommendation']);
    expect(sent.at(-1)![1]).toEqual({ relationship: 'Their chemistry teacher', known_for: '1 to 2 years', ratings: Object.fromEntries(RATING_SCALES.map((scale) => [scale, RATING_POINTS[1]])), file_key: 'materials/u/teacher_recommendation/r-1-abc', file_name: 'letter.docx' });
    await expect.element(screen.getByLabelText('How do you know the applicant?')).toHaveValue('Their chemistry teacher');
    await expect.element(screen.getByRole('radio', { name: '1 to 2 years' })).toBeChecked();
  });

  it('thanks the recommender once the letter is in, and the link then says so', async () => {
    letterStatus = 'used';
    const screen = await openLink();
    await fillIn(screen);
    await screen.getByRole('button', { name: 'Send my recommendation' }).click();
    await expect.element(screen.getByText(recommenderMessages.linkUsed)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send my recommendation' }).query()).toBeNull();
    await expectNoViolationsAtBothWidths();
  });

  it.each([
    [404, recommenderMessages.linkInvalid],
    [410, recommenderMessages.linkExpired],
    [410, recommenderMessages.linkWithdrawn],
  ])('a refused link (%i) says why and shows no form', async (status, message) => {
    state = { status, body: { message } };
    const screen = await openLink();
    await expect.element(screen.getByText(message)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send my recommendation' }).query()).toBeNull();
  });
});
