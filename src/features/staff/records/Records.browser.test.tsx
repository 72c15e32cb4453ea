import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { PersonRequestPanel } from './PersonRequestPanel';
import { RetentionPage } from './RetentionPage';
import { DuplicatesPage } from './DuplicatesPage';
import { MergedPanel } from './MergedPanel';
import { SignInRulesSection } from '../admin/SignInRulesSection';
import { StaffLogin } from '../session/StaffLogin';
import '../staff.css';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ID = '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10';

function Notice() {
  const state = useLocation().state as { notice?: string } | null;
  return <p>{state?.notice ?? 'The list'}</p>;
}

function inConsole(element: ReactNode, at: string) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route element={<main><Outlet context={{ email: 'admin@example.edu', role: 'admin' }} /></main>}>
            <Route path="/staff" element={<Notice />} />
            <Route path="/staff/retention" element={element} />
            <Route path="/staff/applications/:id" element={element} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

afterEach(() => vi.restoreAllMocks());

describe('a person’s records and retention (issue 32)', () => {
  it('sets a cycle’s date and shows the dry run of what is due; a save that erases at once asks, naming the count; any day’s dry run on asking (issue 51)', async () => {
    const sent: unknown[] = [];
    const asked: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'PUT') {
        const body = await request.json();
        sent.push(body);
        if (body.erase_now !== 1200) return json(409, { message: 'Saving erases 1,200 applications and 4,810 files within the hour. Confirm to go on.', applications: 1200, files: 4810 });
        return json(200, { rules: body.rules, due: [{ term: 'Fall 2027', applications: 1200, files: 4810 }], due_on: '2026-11-26', updated_by: 'admin@example.edu', updated_at: '2026-11-26T09:00:00.000Z' });
      }
      const on = new URL(request.url).searchParams.get('on');
      if (on) asked.push(on);
      if (on === '2031-09-01') return json(200, { rules: [], due: [{ term: 'Spring 2028', applications: 7, files: 0 }], due_on: on, updated_by: null, updated_at: null });
      return json(200, { rules: [], due: [], due_on: on ?? '2026-11-26', updated_by: null, updated_at: null });
    });
    const screen = await render(inConsole(<RetentionPage />, '/staff/retention'));
    await expect.element(screen.getByText('Nothing is due: no cycle has passed its date.')).toBeVisible();
    await screen.getByRole('button', { name: 'Add a cycle' }).click();
    await screen.getByLabelText('Entry term').selectOptions('Fall 2027');
    await screen.getByLabelText('Erase its applications from (UTC)').fill('2026-09-01');
    await screen.getByRole('button', { name: 'Save and see what is due' }).click();
    // Refused until confirmed: the count in a dialog, no banner; Cancel keeps what was typed.
    const dialog = screen.getByRole('dialog', { name: 'Erase at once?' });
    await expect.element(dialog.getByText('Saving erases 1,200 applications and 4,810 files within the hour. Confirm to go on.')).toBeVisible();
    expect(screen.getByRole('alert').query()).toBeNull();
    await expectNoViolationsAtBothWidths();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(screen.getByLabelText('Erase its applications from (UTC)')).toHaveValue('2026-09-01');
    await screen.getByRole('button', { name: 'Save and see what is due' }).click();
    await screen.getByRole('dialog', { name: 'Erase at once?' }).getByRole('button', { name: 'Erase 1,200 applications and save' }).click();
    await expect.element(screen.getByText('Saved.', { exact: true })).toBeVisible();
    await expect.element(screen.getByRole('row', { name: 'Fall 2027 1,200 4,810' })).toBeVisible();
    expect(sent).toEqual([
      { rules: [{ term: 'Fall 2027', delete_after: '2026-09-01' }] },
      { rules: [{ term: 'Fall 2027', delete_after: '2026-09-01' }] },
      { rules: [{ term: 'Fall 2027', delete_after: '2026-09-01' }], erase_now: 1200 },
    ]);

    // Another day's dry run, the future's too.
    await screen.getByLabelText('Day (UTC)').fill('2031-09-01');
    await screen.getByRole('button', { name: 'Show what is due that day' }).click();
    await expect.element(screen.getByRole('region', { name: 'Due by 2031-09-01' }).getByRole('row', { name: 'Spring 2028 7 0' })).toBeVisible();
    expect(asked).toEqual(['2031-09-01']);
    await expectNoViolationsAtBothWidths();
  });

  it('offers everything held as a zip, and erases only once the address typed is the applicant’s, then says so on the list', async () => {
    let attempts = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      attempts++;
      if (attempts === 1) return json(400, { message: 'Please check the highlighted fields.', errors: { email: ['Type the applicant’s e-mail address exactly, to confirm whose records are erased.'] } });
      return json(200, { files: 4 });
    });
    const screen = await render(inConsole(<PersonRequestPanel applicationId={ID} />, `/staff/applications/${ID}`));
    await expect.element(screen.getByRole('link', { name: 'Download everything held about this applicant (zip)' })).toHaveAttribute('href', `/staff/api/applications/${ID}/record`);
    await expectNoViolationsAtBothWidths();
    await screen.getByLabelText('Why (the request, and when it came)').fill('Asked on 2026-11-20.');
    await screen.getByLabelText('The applicant’s e-mail address, to confirm').fill('someone@example.com');
    await screen.getByRole('button', { name: 'Erase this applicant’s records' }).click();
    await expect.element(screen.getByText('Type the applicant’s e-mail address exactly, to confirm whose records are erased.')).toBeVisible();
    // The refused field says so to a screen reader too: marked invalid, the message its description.
    const email = screen.getByLabelText('The applicant’s e-mail address, to confirm');
    await expect.element(email).toHaveAttribute('aria-invalid', 'true');
    await expect.element(email).toHaveAccessibleDescription('Error: Type the applicant’s e-mail address exactly, to confirm whose records are erased.');
    await expect.element(screen.getByLabelText('Why (the request, and when it came)')).not.toHaveAttribute('aria-invalid', 'true');
    await screen.getByRole('button', { name: 'Erase this applicant’s records' }).click();
    await expect.element(screen.getByText('The applicant’s records and 4 files were erased.')).toBeVisible();
  });
});

describe('likely duplicates (issue 32)', () => {
  it('lists the pairs with why, and an administrator merges one into the other with the reason', async () => {
    const merged: unknown[] = [];
    const side = (id: string, email: string) => ({ id, name: 'Jordan Rivera', email, status: 'submitted', birth_date: '2008-04-17' });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST') {
        merged.push([new URL(request.url).pathname, await request.json()]);
        return json(200, { merged_from: ['1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21'] });
      }
      return json(200, { pairs: merged.length ? [] : [{ a: side(ID, 'jordan.rivera@gmail.com'), b: side('1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21', 'jordanrivera+apply@gmail.com'), reasons: ['name_and_birth_date', 'email_variant'] }] });
    });
    const screen = await render(inConsole(<DuplicatesPage />, '/staff/retention'));
    await expect.element(screen.getByText('Why: same name and birth date and one mailbox.')).toBeVisible();
    await expectNoViolationsAtBothWidths();
    await screen.getByLabelText('Why they are one person (kept with each merge)').fill('A +tag address.');
    await screen.getByRole('button', { name: 'Keep jordan.rivera@gmail.com, merge jordanrivera+apply@gmail.com into it' }).click();
    await expect.element(screen.getByText('Merged. The duplicate is named on the record that stays.')).toBeVisible();
    await expect.element(screen.getByText('No likely duplicates.')).toBeVisible();
    expect(merged).toEqual([[`/staff/api/applications/${ID}/merge`, { duplicate: '1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21', reason: 'A +tag address.' }]]);
  });
});

describe('a merged record (issue 32)', () => {
  it('names the record that stays, and an administrator undoes the merge', async () => {
    const undone: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      undone.push(`${(input as Request).method} ${new URL((input as Request).url).pathname}`);
      return new Response(null, { status: 204 });
    });
    const application = { id: ID, merged_into: '1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21', merged_from: [] } as unknown as Parameters<typeof MergedPanel>[0]['application'];
    const screen = await render(inConsole(<MergedPanel application={application} />, `/staff/applications/${ID}`));
    await expect.element(screen.getByRole('link', { name: 'the record that stays' })).toHaveAttribute('href', '/staff/applications/1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21');
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Undo the merge' }).click();
    await expect.element(screen.getByText('This record stands on its own again. Open it again to see it so.')).toBeVisible();
    expect(undone).toEqual([`DELETE /staff/api/applications/${ID}/merge`]);
  });
});

describe('sign-in with the institution’s account (issue 32)', () => {
  it('offers the institution’s sign-in on the staff sign-in page, and says why one came back refused', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, { enabled: true, label: 'Sign in with your Northfield account' }));
    const screen = await render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/staff/login?sign_in=refused']}>
          <Routes>
            <Route path="/staff/login" element={<StaffLogin />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await expect.element(screen.getByRole('link', { name: 'Sign in with your Northfield account' })).toHaveAttribute('href', '/oidc/staff/start');
    await expect.element(screen.getByRole('alert')).toHaveTextContent('Your account at the institution is not let into the admissions console. Ask an administrator.');
    await expectNoViolationsAtBothWidths();
  });

  it('lets an administrator set the domains let in and the claim’s mappings to roles', async () => {
    const saved: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      if (path === '/staff/public/oidc') return json(200, { enabled: true, label: 'Sign in with your Northfield account' });
      if (request.method === 'PUT') {
        const body = await request.json();
        saved.push(body);
        return json(200, { ...body, updated_by: 'admin@example.edu', updated_at: '2026-11-26T09:00:00.000Z' });
      }
      return json(200, { domains: [], role_claim: '', mappings: [], updated_by: null, updated_at: null });
    });
    const screen = await render(inConsole(<SignInRulesSection />, '/staff/retention'));
    await screen.getByLabelText('E-mail domains let in (comma-separated)').fill('northfield.edu, med.northfield.edu');
    await screen.getByRole('button', { name: 'Add a mapping' }).click();
    await screen.getByLabelText('When the claim holds').fill('admissions-deans');
    await screen.getByLabelText('The role', { exact: true }).selectOptions('decider');
    await screen.getByRole('button', { name: 'Save who may sign in' }).click();
    await expect.element(screen.getByText(/^Saved\. The next sign-in follows these rules/)).toBeVisible();
    expect(saved).toEqual([{ domains: ['northfield.edu', 'med.northfield.edu'], role_claim: 'groups', mappings: [{ value: 'admissions-deans', role: 'decider' }] }]);
    await expectNoViolationsAtBothWidths();
  });
});
