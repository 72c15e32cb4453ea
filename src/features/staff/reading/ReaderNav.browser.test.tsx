import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page, userEvent } from 'vitest/browser';
import { createQueryClient } from '../../../lib/queryClient';
import { axeViolations } from '../../../test/axe';
import { ToastProvider } from '../../../ui/Toast';
import { StaffApp } from '../StaffApp';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const row = (n: number) => ({ id: idOf(n), name: `Applicant ${n}`, email: `a${n}@example.com`, status: 'submitted', submitted_at: '2026-11-20T16:02:11.000Z', entry_term: 'Fall 2027', intended_major: 'Biology', high_school: 'East High School', bin: null });
const TOTAL = 30;
/** What the minute's count says was submitted (the list's own until a test says more arrived). */
let countedSubmitted = TOTAL;
/** How many times the list was read. */
let listReads = 0;
/** Who is signed in. */
let role = 'reader';
/** The bodies of the decisions recorded on a selection. */
const decided: unknown[] = [];
/** The applications I reviewed: they leave my queue (`queue=mine`), as on the server. */
const reviewedByMe = new Set<string>();
/** Conflicts declared, and withdrawn (their addresses). */
const declared: unknown[] = [];
const withdrawn: string[] = [];

/** The list's pages of 25 as the server answers them, and one application per id. */
/** While set, the list's second page is not answered until it resolves (a slow line). */
let secondPageHeld: Promise<void> | null = null;

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === '/staff/api/me') return json(200, { email: `${role}@example.edu`, role });
  if (url.pathname.endsWith('/conflict') && request.method === 'PUT') {
    declared.push(await request.json());
    return new Response(null, { status: 204 });
  }
  if (url.pathname === '/staff/api/conflicts') {
    return json(200, withdrawn.length ? [] : [{ application_id: idOf(5), name: 'Applicant 5', staff_id: idOf(99), staff_email: 'reader@example.edu', reason: 'A neighbour.', declared_at: '2026-11-25T14:03:00.000Z' }]);
  }
  if (url.pathname.includes('/conflicts/') && request.method === 'DELETE') {
    withdrawn.push(url.pathname);
    return new Response(null, { status: 204 });
  }
  if (url.pathname === '/staff/api/decisions' && request.method === 'POST') {
    decided.push(await request.json());
    return json(200, { decided: 2, skipped: 0 });
  }
  if (url.pathname === '/staff/api/review-form') return json(200, { version: 0, scales: [{ name: 'Essay', labels: ['Weak', 'Strong'] }], recommendations: ['Admit', 'Deny'], updated_by: null, updated_at: null });
  if (url.pathname === '/staff/api/bins') return json(200, { unplaced: 0, bins: [{ id: 1, name: 'First read', blind: false, count: 30 }] });
  if (url.pathname === '/staff/api/readers') return json(200, [{ id: idOf(98), email: 'reader@example.edu', role: 'reader', open: 0 }]);
  if (url.pathname === '/staff/api/saved-views') return json(200, { views: [] });
  if (url.pathname === '/staff/api/application-counts') return json(200, { started: 0, validating: 0, submitted: countedSubmitted });
  if (url.pathname.endsWith('/reviews') && request.method === 'POST') {
    const id = url.pathname.split('/').at(-2)!;
    reviewedByMe.add(id);
    return json(200, { id: 97, reviewer_email: `${role}@example.edu`, bin: null, form_version: 0, ratings: [{ scale: 'Essay', rating: 2, label: 'Strong' }], recommendation: 'Admit', comment: '', submitted_at: '2026-11-25T14:03:00.000Z', signature: 'a'.repeat(64) });
  }
  if (url.pathname === '/staff/api/applications') {
    listReads++;
    const pageNumber = Number(url.searchParams.get('page') ?? 1);
    // A slow line: the second page answers when the test lets it.
    if (pageNumber === 2 && secondPageHeld) await secondPageHeld;
    const all = Array.from({ length: TOTAL }, (_, i) => row(i + 1)).filter((item) => url.searchParams.get('queue') !== 'mine' || !reviewedByMe.has(item.id));
    const items = all.slice((pageNumber - 1) * 25, pageNumber * 25);
    return json(200, { total: all.length, page: pageNumber, page_size: 25, counts: { started: 0, validating: 0, submitted: all.length }, items });
  }
  const n = Number(url.pathname.split('/').at(-1)!.slice(-12));
  return json(200, {
    id: idOf(n),
    status: 'submitted',
    submitted_at: '2026-11-20T16:02:11.000Z',
    view: { username: `a${n}@example.com`, application_number: 100000 + n, submitted_at: '2026-11-20T16:02:11.000Z', answer: { first_name: 'Applicant', last_name: String(n) }, add_another: {}, document_answer: {}, tabs: {} },
    documents: [],
    pdf: { status: 'COMPLETED' },
    timeline: [],
    notes: [],
    decision: null,
    bin: null,
    assignments: [],
    reviews: [],
    reviews_hidden: 0,
    corrections: [],
    withdrawal: null,
    merged_into: null,
    merged_from: [],
    open_by: [],
    checklist: null,
  });
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

async function openConsole(at: string) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => answer(input as Request));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path="/staff/*" element={<StaffApp />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.removeItem('portal.staffShortcuts');
  countedSubmitted = TOTAL;
  listReads = 0;
  role = 'reader';
  decided.length = 0;
  reviewedByMe.clear();
  sessionStorage.clear();
  declared.length = 0;
  withdrawn.length = 0;
});
afterEach(() => vi.restoreAllMocks());

describe('the reader (issue 30)', () => {
  it('shows at least 15 rows of the list on a 1366 × 900 screen, console and filters included', async () => {
    await page.viewport(1366, 900);
    const screen = await openConsole('/staff');
    await expect.element(screen.getByText('30 applications, page 1 of 2.')).toBeVisible();
    const visible = [...document.querySelectorAll('.data-table tbody tr')].filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight);
    expect(visible.length).toBeGreaterThanOrEqual(15);
    // A reader decides nothing: no boxes to tick.
    expect(document.querySelectorAll('.data-table input[type="checkbox"]')).toHaveLength(0);
    expect(await axeViolations()).toEqual([]);
  });

  it('walks the list it came from with next / previous and J / K, across its pages, and goes back to its page and row', async () => {
    await page.viewport(1280, 800);
    const screen = await openConsole(`/staff/applications/${idOf(24)}?status=submitted`);
    const where = screen.getByTestId('where');
    await expect.element(screen.getByText('Application 24 of 30')).toBeVisible();
    expect(await axeViolations()).toEqual([]);

    await screen.getByRole('link', { name: 'Next application' }).click();
    await expect.element(screen.getByText('Application 25 of 30')).toBeVisible();
    // The last of page 1: next is the first of page 2, and the list's page moves with it.
    await userEvent.keyboard('j');
    await expect.element(screen.getByText('Application 26 of 30')).toBeVisible();
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(26)}?status=submitted&page=2`);
    await userEvent.keyboard('k');
    await expect.element(screen.getByText('Application 25 of 30')).toBeVisible();
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(25)}?status=submitted`);

    // W goes to my review (its first scale); keys there are the form's, not shortcuts.
    await userEvent.keyboard('w');
    await expect.element(screen.getByRole('radio', { name: 'Weak' })).toHaveFocus();
    await userEvent.keyboard('jk');
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(25)}?status=submitted`);
    await screen.getByLabelText('Comment (optional)').fill('jk');
    await expect.element(screen.getByLabelText('Comment (optional)')).toHaveValue('jk');

    // Turned off, the keys do nothing (and stay off).
    await screen.getByLabelText('Keys: J next, K previous, W write my review').click();
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('j');
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(25)}?status=submitted`);
    expect(localStorage.getItem('portal.staffShortcuts')).toBe('off');

    await screen.getByRole('link', { name: 'Back to the applications' }).click();
    await expect.element(where).toHaveTextContent(`/staff?status=submitted&at=${idOf(25)}`);
    await expect.element(screen.getByRole('link', { name: 'Applicant 25' })).toHaveFocus();
  });

  it('walks my queue as it was when I began, though each review I submit takes a file out of it (issue 51)', async () => {
    await page.viewport(1280, 800);
    const screen = await openConsole(`/staff/applications/${idOf(24)}?queue=mine`);
    const where = screen.getByTestId('where');
    await expect.element(screen.getByText('Application 24 of 30')).toBeVisible();

    const review = async () => {
      await screen.getByRole('radio', { name: 'Strong' }).click();
      await screen.getByRole('radio', { name: 'Admit' }).click();
      await screen.getByRole('button', { name: 'Submit my review' }).click();
      await expect.element(screen.getByRole('button', { name: 'Submit my review' })).not.toBeInTheDocument();
    };
    await review();
    // The queue was read again without 24; the way on is the queue as it was.
    await expect.poll(() => reviewedByMe.size).toBe(1);
    await expect.element(screen.getByText('Application 24 of 30')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Previous application' })).toBeVisible();
    await screen.getByRole('link', { name: 'Next application' }).click();
    await expect.element(screen.getByText('Application 25 of 30')).toBeVisible();
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(25)}?queue=mine`);
    await review();
    // The last of the queue's first page as it was: J goes on to the first file after it, every time.
    await userEvent.keyboard('j');
    await expect.element(screen.getByText('Application 26 of 30')).toBeVisible();
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(26)}?queue=mine&page=2`);
    await review();
    await userEvent.keyboard('j');
    await expect.element(screen.getByText('Application 27 of 30')).toBeVisible();
    // Back along the way I came, to files no longer in my queue.
    await userEvent.keyboard('k');
    await expect.element(screen.getByText('Application 26 of 30')).toBeVisible();
    await userEvent.keyboard('k');
    await expect.element(screen.getByText('Application 25 of 30')).toBeVisible();
    await expect.element(where).toHaveTextContent(`/staff/applications/${idOf(25)}?queue=mine`);
    expect(await axeViolations()).toEqual([]);

    // A reload goes on with the run this tab kept; back at the list, the next file opened begins a new one.
    await screen.unmount();
    const reloaded = await openConsole(`/staff/applications/${idOf(25)}?queue=mine`);
    await expect.element(reloaded.getByText('Application 25 of 30')).toBeVisible();
    await expect.element(reloaded.getByRole('link', { name: 'Previous application' })).toBeVisible();
    await reloaded.getByRole('link', { name: 'Back to the applications' }).click();
    await expect.element(reloaded.getByRole('link', { name: 'Applicant 27' })).toBeVisible();
    expect(sessionStorage.getItem('portal.staffReadingRun')).toBeNull();
    await reloaded.getByRole('link', { name: 'Applicant 27' }).click();
    await expect.element(reloaded.getByText('Application 24 of 27')).toBeVisible();
  });

  it('tells the reader when applications arrived, and shows them only when asked', async () => {
    countedSubmitted = TOTAL + 2;
    const screen = await openConsole('/staff');
    await expect.element(screen.getByText('2 applications arrived or moved on.')).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    const reads = listReads;
    countedSubmitted = TOTAL;
    await screen.getByRole('button', { name: 'Show the list as it is now' }).click();
    await expect.poll(() => listReads).toBe(reads + 1);
    await expect.element(screen.getByRole('button', { name: 'Show the list as it is now' })).not.toBeInTheDocument();
  });

  it('lets a decider record one decision on the applications ticked (a reader has no boxes)', async () => {
    role = 'decider';
    const screen = await openConsole('/staff');
    await screen.getByRole('checkbox', { name: 'Select Applicant 1', exact: true }).click();
    await screen.getByRole('checkbox', { name: 'Select Applicant 3', exact: true }).click();
    await screen.getByLabelText('Decision for the 2 applications ticked').selectOptions('Admit');
    await screen.getByRole('button', { name: 'Record (provisional)' }).click();
    await expect.element(screen.getByText('2 decisions recorded, provisional.')).toBeVisible();
    expect(decided).toEqual([{ application_ids: [idOf(1), idOf(3)], decision: 'admit' }]);
    await expect.element(screen.getByRole('checkbox', { name: 'Select Applicant 1', exact: true })).not.toBeChecked();
    expect(await axeViolations()).toEqual([]);
  });

  it('declares a conflict of interest after a confirmation, and leaves for the list without it', async () => {
    const screen = await openConsole(`/staff/applications/${idOf(5)}?status=submitted`);
    await screen.getByRole('button', { name: 'I have a conflict of interest' }).click();
    const dialog = screen.getByRole('dialog', { name: 'Conflict of interest' });
    await expect.element(dialog).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await dialog.getByLabelText('Why (optional, for the administrators)').fill('A neighbour.');
    await dialog.getByRole('button', { name: 'Declare it and leave' }).click();
    await expect.element(screen.getByText('Conflict of interest declared: that application is no longer shown to you.')).toBeVisible();
    await expect.element(screen.getByTestId('where')).toHaveTextContent('/staff?status=submitted');
    expect(declared).toEqual([{ reason: 'A neighbour.' }]);
  });

  it('lets an administrator withdraw a conflict of interest', async () => {
    role = 'admin';
    const screen = await openConsole('/staff/conflicts');
    const withdraw = screen.getByRole('button', { name: 'Withdraw the conflict of reader@example.edu with Applicant 5' });
    await expect.element(withdraw).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await withdraw.click();
    await expect.element(screen.getByText('Withdrawn: the application is shown to them again.')).toBeVisible();
    await expect.element(screen.getByText('No one has declared a conflict of interest.')).toBeVisible();
    expect(withdrawn).toEqual([`/staff/api/applications/${idOf(5)}/conflicts/${idOf(99)}`]);
  });

  it('offers no next or previous to an application opened by its address alone', async () => {
    const screen = await openConsole(`/staff/applications/${idOf(3)}`);
    await expect.element(screen.getByRole('heading', { level: 1, name: 'Applicant 3' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Next application' }).query()).toBeNull();
    expect(screen.getByRole('link', { name: 'Previous application' }).query()).toBeNull();
  });
});

describe('J pressed before the next file is known (issue 51 §4)', () => {
  it('is kept and carried out once the list’s next page arrives, not lost', async () => {
    let letGo = () => {};
    secondPageHeld = new Promise<void>((resolve) => (letGo = resolve));
    try {
      await page.viewport(1280, 800);
      const screen = await openConsole(`/staff/applications/${idOf(25)}?status=submitted`);
      await expect.element(screen.getByText('Application 25 of 30')).toBeVisible();
      // The last file of page 1: its next is on page 2, still on its way.
      expect(screen.getByRole('link', { name: 'Next application' }).query()).toBeNull();
      await userEvent.keyboard('j');
      letGo();
      await expect.element(screen.getByText('Application 26 of 30')).toBeVisible();
      await expect.element(screen.getByTestId('where')).toHaveTextContent(`/staff/applications/${idOf(26)}?status=submitted&page=2`);
    } finally {
      secondPageHeld = null;
      letGo();
    }
  });
});
