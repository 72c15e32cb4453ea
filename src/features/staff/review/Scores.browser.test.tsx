import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userEvent, type Locator } from 'vitest/browser';
import { tap } from '../../../test/hands';
import { render } from 'vitest-browser-react';
import { scoreMessages } from '../../../../domain/scores';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { ToastProvider } from '../../../ui/Toast';
import { StaffApp } from '../StaffApp';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const FORM = {
  version: 2,
  scales: [
    { name: 'Academics', labels: ['Low', 'High'] },
    { name: 'Essay', labels: ['Weak', 'Strong'] },
  ],
  recommendations: ['Admit', 'Deny'],
  updated_by: 'admin@example.edu',
  updated_at: '2026-11-20T09:00:00.000Z',
};
const SCORED = {
  reviews: 2,
  means: [
    { scale: 'Academics', mean: 3.5 },
    { scale: 'Essay', mean: 3 },
  ],
  recommendations: [
    { recommendation: 'Admit', count: 1 },
    { recommendation: 'Deny', count: 1 },
  ],
  composite: 12.1,
};
const row = (n: number, scores: object | null) => ({ id: idOf(n), name: `Applicant ${n}`, email: `a${n}@example.com`, status: 'submitted', submitted_at: '2026-11-20T16:02:11.000Z', entry_term: 'Fall 2027', intended_major: 'Biology', high_school: 'East High School', bin: 'First read', scores });

const application = () => ({
  id: idOf(1),
  status: 'submitted',
  submitted_at: '2026-11-20T16:02:11.000Z',
  view: { username: 'a1@example.com', application_number: 100001, submitted_at: '2026-11-20T16:02:11.000Z', answer: { first_name: 'Applicant', last_name: '1' }, add_another: {}, document_answer: {}, tabs: {} },
  documents: [],
  pdf: { status: 'COMPLETED' },
  timeline: [],
  notes: [],
  decision: null,
  bin: { id: 1, name: 'First read', blind: false },
  assignments: [],
  reviews: [],
  reviews_hidden: 0,
  scores: {
    ...SCORED,
    composite: null,
    formula_version: 1,
    reason: 'Not computed: no GPA on a 4.0 scale.',
    parts: [
      { source: 'scale', name: 'Academics', weight: 2, value: 3.5, points: 7 },
      { source: 'recommendation', name: 'Admit', weight: -1.5, value: 0.5, points: -0.75 },
      { source: 'answer', name: 'gpa_on_4', weight: 1, value: null, points: null },
    ],
  },
  corrections: [],
  withdrawal: null,
  merged_into: null,
  merged_from: [],
  open_by: [{ email: 'second@example.edu', at: '2026-11-29T09:02:00.000Z' }],
  checklist: null,
});

type View = { id: number; name: string; query: string; columns: string[]; shared: boolean; owner_email: string; mine: boolean };
const SHARED_VIEW: View = { id: 1, name: 'Strong academics', query: 'score=mean%3AAcademics&score_min=3', columns: ['reviews'], shared: true, owner_email: 'chair@example.edu', mine: false };
let views: View[] = [];
/** Whether the applications were moved out of the bin the list shows. */
let moved = false;
/** Decisions recorded in the committee, by application. */
let decided: Record<string, string> = {};
const review = (reviewer: string, academics: string, essay: string, recommendation: string, comment: string) => ({
  reviewer_email: reviewer,
  ratings: [
    { scale: 'Academics', rating: 1, label: academics },
    { scale: 'Essay', rating: 2, label: essay },
  ],
  recommendation,
  comment,
});
const committee = () => ({
  total: 2,
  shown: 2,
  scales: ['Academics', 'Essay'],
  items: [
    {
      id: idOf(1),
      name: 'Applicant 1',
      status: 'submitted',
      entry_term: 'Fall 2027',
      intended_major: 'Biology',
      decision: decided[idOf(1)] ? { decision: decided[idOf(1)], released: false } : null,
      scores: { ...SCORED, means: [{ scale: 'Academics', mean: 3.5 }, { scale: 'Essay', mean: 2 }] },
      reviews: [review('first@example.edu', 'High', 'Weak', 'Admit', 'Strong record.'), review('second@example.edu', 'High', 'Strong', 'Deny', '')],
    },
    {
      id: idOf(2),
      name: 'Applicant 2',
      status: 'submitted',
      entry_term: 'Fall 2027',
      intended_major: 'History',
      decision: { decision: 'waitlist', released: true },
      scores: { reviews: 1, means: [{ scale: 'Academics', mean: 2 }, { scale: 'Essay', mean: 4 }], recommendations: [{ recommendation: 'Admit', count: 1 }], composite: 9 },
      reviews: [review('first@example.edu', 'Low', 'Strong', 'Admit', 'A lovely essay.')],
    },
  ],
});

let role = 'admin';
/** The requests the console made, by "METHOD path?query", and the bodies it sent. */
let asked: string[] = [];
let sent: [string, unknown][] = [];
let formula: { version: number; terms: object[]; updated_by: string | null; updated_at: string | null } = { version: 0, terms: [], updated_by: null, updated_at: null };

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  asked.push(`${key}${url.search}`);
  if (request.method !== 'GET') {
    const text = await request.text();
    sent.push([key, text ? JSON.parse(text) : null]);
  }
  if (key === 'GET /staff/api/me') return json(200, { email: `${role}@example.edu`, role });
  if (url.pathname === '/staff/api/review-form') return json(200, FORM);
  if (url.pathname === '/staff/api/composite-formula') {
    if (request.method === 'PUT') formula = { version: formula.version + 1, terms: (sent.at(-1)![1] as { terms: object[] }).terms, updated_by: 'admin@example.edu', updated_at: '2026-11-29T09:00:00.000Z' };
    return json(200, formula);
  }
  if (url.pathname === '/staff/api/bins') return json(200, { unplaced: 0, bins: [{ id: 1, name: 'First read', blind: false, receives_complete: false, count: 3 }] });
  if (url.pathname === '/staff/api/checklist-rules') return json(200, { version: 0, rules: [], updated_by: null, updated_at: null });
  if (key === 'POST /staff/api/bins/moves') {
    moved = true;
    return json(200, { moved: (sent.at(-1)![1] as { application_ids: string[] }).application_ids.length });
  }
  if (url.pathname === '/staff/api/applications' && moved) return json(200, { total: 0, page: 1, page_size: 25, counts: { started: 0, validating: 0, submitted: 0 }, items: [] });
  if (url.pathname === '/staff/api/applications') return json(200, { total: 3, page: 1, page_size: 25, counts: { started: 0, validating: 0, submitted: 3 }, items: [row(1, SCORED), row(2, { reviews: 0, means: [], recommendations: [], composite: null }), row(3, null)] });
  if (url.pathname === '/staff/api/application-counts') return json(200, { started: 0, validating: 0, submitted: 3 });
  if (key === `GET /staff/api/applications/${idOf(1)}`) return json(200, application());
  if (key === 'GET /staff/api/committee') return json(200, committee());
  if (key === 'GET /staff/api/saved-views') return json(200, { views });
  if (url.pathname === '/staff/api/reply-dates') {
    if (request.method === 'PUT') {
      const body = sent.at(-1)![1] as { terms: { entry_term: string; reply_by: string; deposit: string | null }[] };
      return json(200, { terms: body.terms.map((term) => ({ ...term, built_in: false })), updated_by: 'admin@example.edu', updated_at: '2026-11-29T09:00:00.000Z' });
    }
    return json(200, {
      terms: [
        { entry_term: 'Fall 2027', reply_by: '2027-05-01', deposit: null, built_in: true },
        { entry_term: 'Fall 2028', reply_by: '2028-05-01', deposit: null, built_in: true },
      ],
      updated_by: null,
      updated_at: null,
    });
  }
  if (key === 'GET /staff/api/reports') {
    const group = (by: string | null, then: string | null, thenValue: string | null, count: number) => ({ by: by ?? 'Not answered', by_value: by, then, then_value: thenValue, count });
    const then = url.searchParams.get('then');
    return json(200, {
      by: 'place',
      then,
      total: 5,
      groups: then
        ? [group('Colorado', 'Admit', 'admit', 2), group('Colorado', '=SUM(1)', 'deny', 1), group('Japan', 'No decision', 'none', 1), group(null, 'No decision', 'none', 1)]
        : [group('Colorado', null, null, 3), group('Japan', null, null, 1), group(null, null, null, 1)],
    });
  }
  if (key === 'POST /staff/api/saved-views') {
    const body = sent.at(-1)![1] as { name: string; query: string; columns: string[]; shared: boolean };
    const made = { ...body, id: 10 + views.length, owner_email: `${role}@example.edu`, mine: true };
    views = [made, ...views];
    return json(201, made);
  }
  if (request.method === 'DELETE' && url.pathname.startsWith('/staff/api/saved-views/')) {
    views = views.filter((view) => `/staff/api/saved-views/${view.id}` !== url.pathname);
    return new Response(null, { status: 204 });
  }
  if (key === 'POST /staff/api/decisions') {
    const body = sent.at(-1)![1] as { application_ids: string[]; decision: string };
    decided = { ...decided, ...Object.fromEntries(body.application_ids.map((id) => [id, body.decision])) };
    return json(200, { decided: body.application_ids.length, skipped: 0 });
  }
  if (key === 'GET /staff/api/readers') return json(200, []);
  return json(404, { message: 'Not here.' });
}

function openConsole(at: string) {
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

beforeEach(() => {
  role = 'admin';
  asked = [];
  sent = [];
  formula = { version: 0, terms: [], updated_by: null, updated_at: null };
  decided = {};
  views = [SHARED_VIEW];
  moved = false;
  sessionStorage.clear();
  localStorage.removeItem('portal.staffListColumns');
});
afterEach(() => vi.restoreAllMocks());

describe('the composite score’s formula (issue 51 §1)', () => {
  it('is built part by part with the pointer, says a part’s faults before sending, and shows the formula as it reads', async () => {
    const screen = await openConsole('/staff/composite');
    await expect.element(screen.getByText('No formula yet.')).toBeVisible();
    await expect.element(screen.getByText('No parts yet: no composite score.')).toBeVisible();
    await expectNoViolationsAtBothWidths();

    await screen.getByRole('button', { name: 'Add a part' }).click();
    await screen.getByRole('button', { name: 'Add a part' }).click();
    const first = screen.getByRole('group', { name: 'Part 1' });
    const second = screen.getByRole('group', { name: 'Part 2' });
    await first.getByLabelText('Scale').selectOptions('Academics');
    await first.getByLabelText('Weight').click();
    await userEvent.keyboard('{Backspace}2');
    await second.getByLabelText('Weighs').selectOptions('A numeric answer');
    await second.getByLabelText('Weight').click();
    await userEvent.keyboard('{Backspace}half');
    await screen.getByRole('button', { name: 'Save the formula' }).click();
    // Nothing chosen, a weight that is not a number: said on the part, nothing sent, nothing typed lost.
    await expect.element(second.getByText(`${scoreMessages.nameRequired} ${scoreMessages.weightNumber}`)).toBeVisible();
    expect(sent).toEqual([]);
    await expect.element(second.getByLabelText('Weight')).toHaveValue('half');
    await expect.element(second.getByLabelText('Weight')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolationsAtBothWidths();

    await second.getByLabelText('Answer').selectOptions('GPA on a 4.0 scale');
    await second.getByLabelText('Weight').click();
    await userEvent.keyboard('{Control>}a{/Control}0.5');
    await expect.element(screen.getByText('Composite score = 2 × Academics (mean rating) + 0.5 × GPA on a 4.0 scale')).toBeVisible();
    await screen.getByRole('button', { name: 'Save the formula' }).click();
    await expect.element(screen.getByRole('status').filter({ hasText: 'Saved as version 1' })).toHaveTextContent('Saved as version 1: every reviewed application’s composite score is being computed again.');
    expect(sent).toEqual([
      [
        'PUT /staff/api/composite-formula',
        {
          terms: [
            { source: 'scale', name: 'Academics', weight: 2 },
            { source: 'answer', name: 'gpa_on_4', weight: 0.5 },
          ],
        },
      ],
    ]);
    await expect.element(screen.getByText('Version 1, by admin@example.edu', { exact: false })).toBeVisible();
  });

  it('is built by the keyboard alone', async () => {
    const screen = await openConsole('/staff/composite');
    await screen.getByRole('button', { name: 'Add a part' }).click();
    const part = screen.getByRole('group', { name: 'Part 1' });
    // From "Weighs" on: choose a recommendation's share with the arrows, then Admit, then a weight of 3.
    (part.getByLabelText('Weighs').element() as HTMLSelectElement).focus();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(part.getByLabelText('Recommendation')).toBeVisible();
    await userEvent.keyboard('{Tab}{ArrowDown}');
    await expect.element(part.getByLabelText('Recommendation')).toHaveValue('Admit');
    await userEvent.keyboard('{Tab}{Backspace}3{Enter}');
    await expect.element(screen.getByText('Version 1, by admin@example.edu', { exact: false })).toBeVisible();
    expect(sent.at(-1)![1]).toEqual({ terms: [{ source: 'recommendation', name: 'Admit', weight: 3 }] });
  });
});

describe('the list by score (issue 51 §1)', () => {
  it('shows each application’s reviews and composite, hides what a blind bin hides, and is ranked and filtered by the score chosen', async () => {
    role = 'reader';
    const screen = await openConsole('/staff');
    const table = screen.getByRole('region', { name: 'Applications table' });
    await expect.element(table.getByRole('row', { name: /Applicant 1/ })).toHaveTextContent(/First read\s*2\s*12\.1$/);
    await expect.element(table.getByRole('row', { name: /Applicant 2/ })).toHaveTextContent(/0\s*—$/);
    await expect.element(table.getByRole('row', { name: /Applicant 3/ })).toHaveTextContent(/First read\s*Hidden\s*Hidden$/);
    await expectNoViolationsAtBothWidths();

    await screen.getByRole('combobox', { name: /^Score/ }).selectOptions('Academics (mean)');
    await screen.getByLabelText('At least').click();
    await userEvent.keyboard('3{Enter}');
    await expect.element(table.getByRole('columnheader', { name: 'Academics (mean)' })).toBeVisible();
    await expect.element(table.getByRole('row', { name: /Applicant 1/ })).toHaveTextContent(/3\.5/);
    // The column shows from the address at once, over the page shown before: the list's request follows.
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/applications?')).at(-1)).toContain('score=mean%3AAcademics&score_min=3'));
    await screen.getByLabelText('Sort by').selectOptions('Highest academics (mean) first');
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/applications?')).at(-1)).toContain('sort=score_desc'));
    // The counts ask with the same score filter, so "arrived" compares like with like.
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/application-counts?')).at(-1)).toContain('score=mean%3AAcademics&score_min=3'));

    await screen.getByLabelText('At most').click();
    await userEvent.keyboard('lots{Enter}');
    await expect.element(screen.getByText('Enter each bound as a number, for example 8 or 3.5, or leave it empty.')).toBeVisible();
    await expectNoViolationsAtBothWidths();
  });
});

describe('an application’s scores (issue 51 §1)', () => {
  it('shows how its composite is computed, part by part, and why there is none', async () => {
    role = 'decider';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByText('Composite score: none')).toBeVisible();
    await expect.element(screen.getByText('(Not computed: no GPA on a 4.0 scale.)')).toBeVisible();
    // Another member opened it lately (issue 51 §4).
    await expect.element(screen.getByRole('status').filter({ hasText: 'Someone else has this open: second@example.edu (opened' })).toBeVisible();
    const parts = screen.getByRole('table', { name: 'How it is computed (formula version 1)' });
    await expect.element(parts.getByRole('row', { name: 'Academics (mean rating) 2 3.5 7' })).toBeVisible();
    await expect.element(parts.getByRole('row', { name: 'Admit (share of reviews) −1.5 0.5 −0.75' })).toBeVisible();
    await expect.element(parts.getByRole('row', { name: 'GPA on a 4.0 scale 1 none —' })).toBeVisible();
    await expect.element(screen.getByText('Admit 1 · Deny 1')).toBeVisible();
    await expectNoViolationsAtBothWidths();
  });
});

describe('the list’s columns (issue 51 §1: choosable; §4: 15 rows at 1366)', () => {
  const hands: [string, (locator: Locator) => Promise<unknown>][] = [
    ['a pointer', (locator) => locator.click()],
    ['a finger', (locator) => tap(locator)],
    [
      'the keyboard',
      async (locator) => {
        (locator.element() as HTMLElement).focus();
        await userEvent.keyboard(locator.element().tagName === 'SUMMARY' ? '{Enter}' : ' ');
      },
    ],
  ];
  it.each(hands)('are chosen by %s, and kept for the next visit', async (_hand, press) => {
    localStorage.removeItem('portal.staffListColumns');
    const screen = await openConsole('/staff');
    const table = screen.getByRole('region', { name: 'Applications table' });
    await expect.element(table.getByRole('columnheader', { name: 'Composite' })).toBeVisible();
    expect(table.getByRole('columnheader', { name: 'High school' }).query()).toBeNull();
    await press(screen.getByText('Columns', { exact: true }));
    await press(screen.getByRole('checkbox', { name: 'High school column' }));
    await press(screen.getByRole('checkbox', { name: 'E-mail column' }));
    await expect.element(table.getByRole('columnheader', { name: 'High school' })).toBeVisible();
    expect(table.getByRole('columnheader', { name: 'E-mail' }).query()).toBeNull();
    await expectNoViolationsAtBothWidths();
    // Kept for the next visit, in this browser.
    expect(JSON.parse(localStorage.getItem('portal.staffListColumns')!)).toEqual(['email']);
    localStorage.removeItem('portal.staffListColumns');
  });

  it('opens with the columns this browser kept, whatever else was stored', async () => {
    localStorage.setItem('portal.staffListColumns', JSON.stringify(['status', 'composite', 'nonsense']));
    const screen = await openConsole('/staff');
    const table = screen.getByRole('region', { name: 'Applications table' });
    await expect.element(table.getByRole('columnheader', { name: 'High school' })).toBeVisible();
    expect(table.getByRole('columnheader', { name: 'Status' }).query()).toBeNull();
    expect(table.getByRole('columnheader', { name: 'Composite' }).query()).toBeNull();
    // Ranked by the composite, it shows whatever was chosen.
    await screen.getByLabelText('Sort by').selectOptions('Highest composite score first');
    await expect.element(table.getByRole('columnheader', { name: 'Composite' })).toBeVisible();
    localStorage.removeItem('portal.staffListColumns');
  });
});

describe('the committee’s table (issue 51 §1)', () => {
  const names = async (screen: Awaited<ReturnType<typeof openConsole>>) =>
    (await screen.getByRole('region', { name: 'Committee table' }).getByRole('rowheader').all()).map((cell) => cell.element().textContent);

  it('ranks by composite with every review side by side, sorts by a header pressed by pointer or keyboard, prints, and decides in place', async () => {
    role = 'decider';
    const screen = await openConsole('/staff/committee?bin=1');
    await expect.element(screen.getByRole('status').filter({ hasText: '2 applications.' })).toBeVisible();
    const table = screen.getByRole('region', { name: 'Committee table' });
    await expect.element(table.getByRole('row', { name: /Applicant 1/ })).toHaveTextContent(
      'Applicant 112.13.52first@example.edu: Academics High, Essay Weak. AdmitStrong record.second@example.edu: Academics High, Essay Strong. Deny—',
    );
    await expect.element(table.getByRole('row', { name: /Applicant 2/ })).toHaveTextContent(/Waitlist, released$/);
    expect(await names(screen)).toEqual(['Applicant 1', 'Applicant 2']);
    await expectNoViolationsAtBothWidths();

    // The pointer on "Essay": highest mean first.
    await table.getByRole('button', { name: 'Essay: sort ascending' }).click();
    await vi.waitFor(async () => expect(await names(screen)).toEqual(['Applicant 2', 'Applicant 1']));
    // The keyboard on it again: lowest first.
    (table.getByRole('button', { name: /^Essay: sort/ }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(async () => expect(await names(screen)).toEqual(['Applicant 1', 'Applicant 2']));
    await expect.element(table.getByRole('columnheader', { name: /Essay/ })).toHaveAttribute('aria-sort', 'ascending');

    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await screen.getByRole('button', { name: 'Print' }).click();
    expect(print).toHaveBeenCalledOnce();

    await screen.getByRole('checkbox', { name: 'Select Applicant 1' }).click();
    await screen.getByLabelText('Decision for the application ticked').selectOptions('Admit');
    await screen.getByRole('button', { name: 'Record (provisional)' }).click();
    expect(sent.at(-1)).toEqual(['POST /staff/api/decisions', { application_ids: [idOf(1)], decision: 'admit' }]);
    // Read again: the decision shows in its row.
    await expect.element(table.getByRole('row', { name: /Applicant 1/ })).toHaveTextContent(/Admit \(provisional\)$/);
  });

  it('opens on the applications ticked in the list', async () => {
    role = 'decider';
    const screen = await openConsole('/staff');
    await screen.getByRole('checkbox', { name: 'Select Applicant 1' }).click();
    await tap(screen.getByRole('checkbox', { name: 'Select Applicant 2' }));
    await screen.getByRole('link', { name: 'Read them as the committee (2)' }).click();
    await expect.element(screen.getByRole('heading', { name: 'Committee' })).toBeVisible();
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/committee')).at(-1)).toBe(`GET /staff/api/committee?ids=${idOf(1)}%2C${idOf(2)}`));
  });
});

describe('saved views of the list (issue 51 §1)', () => {
  const lastList = () => asked.filter((each) => each.startsWith('GET /staff/api/applications?')).at(-1)!;

  it('saves the list as it is under a name, shared with the office, and removes it', async () => {
    role = 'reader';
    const screen = await openConsole('/staff?entry_term=Fall+2027&sort=score_desc&page=2');
    await expect.element(screen.getByRole('region', { name: 'Applications table' })).toBeVisible();
    await screen.getByRole('button', { name: 'Save this view' }).click();
    const form = screen.getByRole('form', { name: 'Save this view' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.element(form.getByText('Name the view.')).toBeVisible();
    expect(sent).toEqual([]);
    await expectNoViolationsAtBothWidths();
    await form.getByLabelText('Name').click();
    await userEvent.keyboard('Fall 2027 ranked');
    await tap(form.getByRole('checkbox', { name: 'Share with the office' }));
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(sent.at(-1)).toEqual(['POST /staff/api/saved-views', { name: 'Fall 2027 ranked', query: 'entry_term=Fall+2027&sort=score_desc', columns: ['email', 'status', 'submitted', 'term', 'major', 'bin', 'reviews', 'composite'], shared: true }]));
    await expect.element(screen.getByRole('combobox', { name: /^View/ })).toHaveDisplayValue('Fall 2027 ranked');
    await screen.getByRole('button', { name: 'Remove this view' }).click();
    await vi.waitFor(() => expect(sent.at(-1)![0]).toBe('DELETE /staff/api/saved-views/11'));
    await expect.element(screen.getByRole('combobox', { name: /^View/ })).toHaveDisplayValue('Choose a saved view');
    // The list stays as it was: only the view's name is gone.
    expect(lastList()).toContain('entry_term=Fall%202027');
  });

  it('opens a view shared by another member with the keyboard: its filters, score and columns', async () => {
    role = 'reader';
    const screen = await openConsole('/staff');
    const table = screen.getByRole('region', { name: 'Applications table' });
    await expect.element(table).toBeVisible();
    (screen.getByRole('combobox', { name: /^View/ }).element() as HTMLSelectElement).focus();
    await userEvent.keyboard('{ArrowDown}');
    await vi.waitFor(() => expect(lastList()).toContain('score=mean%3AAcademics&score_min=3'));
    await expect.element(table.getByRole('columnheader', { name: 'Academics (mean)' })).toBeVisible();
    expect((await table.getByRole('columnheader').all()).map((header) => header.element().textContent)).toEqual(['Name', 'Reviews', 'Academics (mean)']);
    // Not mine: it can be used, not removed.
    expect(screen.getByRole('button', { name: 'Remove this view' }).query()).toBeNull();
    await expectNoViolationsAtBothWidths();
  });
});

describe('reports (issue 51 §1)', () => {
  it('counts by one field then another, as a chart and a table whose every figure opens its list, and downloads it as CSV', async () => {
    role = 'reader';
    const screen = await openConsole('/staff/reports?by=place&status=submitted');
    await expect.element(screen.getByRole('heading', { name: 'Applications by state, or country' })).toBeVisible();
    await expect.element(screen.getByRole('img', { name: /^Bar chart: Applications by state, or country, the 3 largest groups/ })).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByLabelText('Then by').selectOptions('Decision');
    const table = screen.getByRole('region', { name: 'Applications by state, or country and decision' });
    await expect.element(table.getByRole('row', { name: /^Colorado/ })).toHaveTextContent('Colorado2103');
    expect(asked.filter((each) => each.startsWith('GET /staff/api/reports')).at(-1)).toBe('GET /staff/api/reports?by=place&then=decision&status=submitted');
    // No link where no filter reaches the group (not answered).
    expect(table.getByRole('row', { name: /^Not answered/ }).getByRole('link').query()).toBeNull();
    await expectNoViolationsAtBothWidths();

    const clicked: { href: string; download: string; text: Promise<string> }[] = [];
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      clicked.push({ href: '', download: '', text: (blob as Blob).text() });
      return 'blob:report';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.at(-1)!.download = this.download;
    });
    await screen.getByRole('button', { name: 'Download as CSV' }).click();
    expect(createObjectURL).toHaveBeenCalledOnce();
    expect(clicked[0]!.download).toBe('report-place-decision.csv');
    // A label a spreadsheet would run is kept as text.
    expect(await clicked[0]!.text).toBe('"State, or country",Admit,\'=SUM(1),No decision,Total\r\nColorado,2,1,0,3\r\nJapan,0,0,1,1\r\nNot answered,0,0,1,1\r\n');

    await table.getByRole('row', { name: /^Colorado/ }).getByRole('link', { name: '2' }).click();
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/applications?')).at(-1)).toContain('place=Colorado&decision=admit'));
    // The list says what it is narrowed to, though no control of its own shows it.
    await expect.element(screen.getByText('Also narrowed to state or country: Colorado; decision: Admit.')).toBeVisible();
    await screen.getByRole('button', { name: 'Show them all' }).click();
    await vi.waitFor(() => expect(asked.filter((each) => each.startsWith('GET /staff/api/applications?')).at(-1)).not.toContain('place='));
  });
});

describe('reply dates per entry term (issue 51 §2)', () => {
  it('sets a term’s reply date with the keyboard and its deposit line, and says it is saved', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/reply-dates');
    const fall = screen.getByRole('group', { name: 'Fall 2028' });
    await expect.element(fall.getByText('The built-in date, May 1, 2028.')).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await fall.getByLabelText('Reply by').click();
    // A date field by the keyboard: month, day, year in turn.
    await userEvent.keyboard('04152028');
    await fall.getByLabelText('Deposit line (optional)').click();
    await userEvent.keyboard('A $300 deposit is due.');
    await screen.getByRole('button', { name: 'Save the reply dates' }).click();
    await expect.element(screen.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect(sent.at(-1)).toEqual([
      'PUT /staff/api/reply-dates',
      {
        terms: [
          { entry_term: 'Fall 2027', reply_by: '2027-05-01', deposit: null },
          { entry_term: 'Fall 2028', reply_by: '2028-04-15', deposit: 'A $300 deposit is due.' },
        ],
      },
    ]);
  });
});

describe('a move that empties the list (issue 51 §4)', () => {
  it('still says what it did once the list is empty', async () => {
    role = 'decider';
    const screen = await openConsole('/staff?bin=1');
    await screen.getByRole('checkbox', { name: 'Select all 3 shown' }).click();
    await screen.getByLabelText('Move the 3 applications ticked to').selectOptions('No bin');
    await screen.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.element(screen.getByText('No applications match.')).toBeVisible();
    await expect.element(screen.getByRole('status').filter({ hasText: '3 applications moved.' })).toBeVisible();
  });
});

describe('a record’s whole history (issue 51 §4)', () => {
  it('is a link to the audit log for an administrator, and no one else', async () => {
    role = 'admin';
    const screen = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(screen.getByRole('link', { name: 'Its whole history in the audit log' })).toHaveAttribute('href', `/staff/audit?application=${idOf(1)}`);
    screen.unmount();
    role = 'decider';
    const decider = await openConsole(`/staff/applications/${idOf(1)}`);
    await expect.element(decider.getByText('Composite score: none')).toBeVisible();
    expect(decider.getByRole('link', { name: 'Its whole history in the audit log' }).query()).toBeNull();
  });
});
