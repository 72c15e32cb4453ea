import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page } from 'vitest/browser';
import type { components } from '../../../../generated/api';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { ExportPage } from './ExportPage';
import { ExportTemplatePage } from './ExportTemplatePage';
import '../staff.css';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const run: components['schemas']['ExportRun'] = {
  id: 12,
  template_id: 1,
  template_name: 'SIS nightly',
  format: 'csv',
  mode: 'changes',
  status: 'succeeded',
  started_by: 'admin@example.edu',
  started_at: '2026-11-25T02:00:00.000Z',
  finished_at: '2026-11-25T02:00:04.000Z',
  rows: 214,
  bytes: 88412,
  file_name: 'sis-nightly-12.csv',
  bundle_file_name: 'sis-nightly-12-documents.zip',
  withdrawn_at: null,
  unmapped: { TERM: 2 },
  message: null,
};
const template: components['schemas']['ExportTemplateDetail'] = {
  id: 1,
  name: 'SIS nightly',
  format: 'csv',
  columns: [
    { field: 'application_number', header: 'APPL_NO', codes: null },
    { field: 'entry_term', header: 'TERM', codes: 'terms' },
  ],
  filter: { stages: ['submitted'], terms: [], decisions: [], checklist: 'any' },
  code_tables: { terms: { 'Fall 2027': '202710' } },
  schedule: { every: 'never', hour_utc: 2 },
  documents: false,
  unmapped_values: 'keep',
  cursor_at: '2026-11-25T02:00:04.000Z',
  updated_by: 'admin@example.edu',
  updated_at: '2026-11-24T09:00:00.000Z',
};

function inConsole(at: string) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route element={<main><Outlet context={{ email: 'admin@example.edu', role: 'admin' }} /></main>}>
            <Route path="/staff/export" element={<ExportPage />} />
            <Route path="/staff/export/templates/:template" element={<ExportTemplatePage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

afterEach(() => vi.restoreAllMocks());

/** The review form the template page offers the committee's fields from. */
const REVIEW_FORM = { version: 0, scales: [{ name: 'Academics', labels: ['Low', 'High'] }], recommendations: ['Admit', 'Deny'], updated_by: null, updated_at: null };

describe('Export (issue 32)', () => {
  it('lists the templates and runs, starts a run of changes, and offers a succeeded run’s file', async () => {
    const started: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      if (request.method === 'POST') {
        started.push([path, await request.json()]);
        return json(202, { ...run, id: 13, status: 'running', rows: null, file_name: null, bundle_file_name: null, finished_at: null, unmapped: null });
      }
      if (path === '/staff/api/export-runs') return json(200, { runs: [run] });
      if (path === '/staff/api/export-clients') return json(200, { clients: [] });
      return json(200, { templates: [{ id: 1, name: 'SIS nightly', format: 'csv', columns: 2, cursor_at: run.finished_at, last_run: run }] });
    });
    const screen = await render(inConsole('/staff/export'));
    await expect.element(screen.getByRole('link', { name: 'Download sis-nightly-12.csv' })).toHaveAttribute('href', '/staff/api/export-runs/12/file');
    await expect.element(screen.getByText('TERM: 2')).toBeVisible();
    await expect.element(screen.getByRole('link', { name: 'Download sis-nightly-12-documents.zip' })).toHaveAttribute('href', '/staff/api/export-runs/12/documents');
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Run the changes of SIS nightly' }).click();
    await expect.element(screen.getByText('Run 13 of SIS nightly started: its file appears below when it is done.')).toBeVisible();
    expect(started).toEqual([['/staff/api/export-templates/1/runs', { mode: 'changes' }]]);
  });

  it('shows a run withdrawn after an erasure as withdrawn, with why, and offers no file (issue 49)', async () => {
    const withdrawn = { ...run, file_name: null, bundle_file_name: null, withdrawn_at: '2026-11-28T10:00:00.000Z', message: 'Withdrawn: it carried an applicant whose records were erased since. Run the template again for a file without them.' };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL((input as Request).url).pathname;
      if (path === '/staff/api/export-runs') return json(200, { runs: [withdrawn] });
      if (path === '/staff/api/export-clients') return json(200, { clients: [] });
      return json(200, { templates: [{ id: 1, name: 'SIS nightly', format: 'csv', columns: 2, cursor_at: run.finished_at, last_run: withdrawn }] });
    });
    const screen = await render(inConsole('/staff/export'));
    await expect.element(screen.getByText(withdrawn.message)).toBeVisible();
    await expect.element(screen.getByRole('cell', { name: 'Withdrawn', exact: true })).toBeVisible();
    await expect.element(screen.getByText('Withdrawn, 214 rows')).toBeVisible();
    expect(screen.getByRole('link', { name: /Download sis-nightly-12/ }).elements()).toEqual([]);
    await expectNoViolationsAtBothWidths();
  });

  it('makes a machine client for chosen templates and shows its key once', async () => {
    const made: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      const path = new URL(request.url).pathname;
      if (request.method === 'POST') {
        made.push(await request.json());
        return json(201, { client: { id: 2, name: 'Banner SIS', templates: [1], created_by: 'admin@example.edu', created_at: '2026-11-26T09:00:00.000Z', revoked_at: null, last_used_at: null }, key: 'pk_theKeyShownOnce' });
      }
      if (path === '/staff/api/export-runs') return json(200, { runs: [] });
      if (path === '/staff/api/export-clients') return json(200, { clients: [{ id: 1, name: 'Old CRM', templates: [1], created_by: 'admin@example.edu', created_at: '2026-11-01T09:00:00.000Z', revoked_at: null, last_used_at: null }] });
      return json(200, { templates: [{ id: 1, name: 'SIS nightly', format: 'csv', columns: 2, cursor_at: null, last_run: null }] });
    });
    const screen = await render(inConsole('/staff/export'));
    await expect.element(screen.getByText('Old CRM: SIS nightly; last used never')).toBeVisible();
    await screen.getByLabelText('Name of the system').fill('Banner SIS');
    await screen.getByRole('checkbox', { name: 'SIS nightly' }).click();
    await screen.getByRole('button', { name: 'Make the client and its key' }).click();
    await expect.element(screen.getByText('pk_theKeyShownOnce')).toBeVisible();
    expect(made).toEqual([{ name: 'Banner SIS', templates: [1] }]);
    await expectNoViolationsAtBothWidths();
  });

  it('edits a template: a column moved, a code table loaded as CSV, the server’s refusal shown by its field', async () => {
    const saved: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'PUT') {
        const body = await request.json();
        saved.push(body);
        if (saved.length === 1) return json(409, { message: 'Another template has this name.', errors: { name: ['Another template has this name.'] } });
        return json(200, { ...template, ...body });
      }
      if (new URL(request.url).pathname === '/staff/api/review-form') return json(200, REVIEW_FORM);
      return json(200, template);
    });
    await page.viewport(1280, 800);
    const screen = await render(inConsole('/staff/export/templates/1'));
    await expect.element(screen.getByRole('heading', { name: 'Edit export template' })).toBeVisible();
    await expect.element(screen.getByLabelText('Values and codes')).toHaveValue('Fall 2027,202710');
    // The committee's fields, from the review form in force (issue 51 §1).
    await expect.element(screen.getByRole('option', { name: 'scale_mean_academics (Academics: the mean rating)' }).first()).toBeInTheDocument();
    await expect.element(screen.getByRole('option', { name: 'review_3_rating_academics (Review 3: Academics (its point, from 1))' }).first()).toBeInTheDocument();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Move column 2 up' }).click();
    await screen.getByLabelText('Runs by itself (each run takes the changes since the last)').selectOptions('day');
    await screen.getByLabelText('At', { exact: true }).selectOptions('3');
    await screen.getByRole('checkbox', { name: /Also write the applications’ documents/ }).click();
    await screen.getByLabelText('Values and codes').fill('value,code\nFall 2027,202710\n"Spring 2028",202820');
    // A value the table does not list fails the run (issue 51).
    await screen.getByRole('group', { name: 'A value its table does not list' }).getByRole('radio', { name: 'Fail the run, naming the value and the application' }).click();
    await screen.getByRole('button', { name: 'Save the template' }).click();
    await expect.element(screen.getByText('Another template has this name.')).toBeVisible();
    await screen.getByRole('button', { name: 'Save the template' }).click();
    await expect.element(screen.getByText(/^Saved\. The next run of changes/)).toBeVisible();
    expect(saved[1]).toEqual({
      name: 'SIS nightly',
      format: 'csv',
      columns: [
        { field: 'entry_term', header: 'TERM', codes: 'terms' },
        { field: 'application_number', header: 'APPL_NO', codes: null },
      ],
      filter: template.filter,
      code_tables: { terms: { 'Fall 2027': '202710', 'Spring 2028': '202820' } },
      schedule: { every: 'day', hour_utc: 3 },
      documents: true,
      unmapped_values: 'fail',
    });
  });

  it('says which line of a code table cannot be used, and sends nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => json(200, new URL((input as Request).url).pathname === '/staff/api/review-form' ? REVIEW_FORM : template));
    const screen = await render(inConsole('/staff/export/templates/1'));
    await screen.getByLabelText('Values and codes').fill('Fall 2027,202710\nSpring 2028');
    await screen.getByRole('button', { name: 'Save the template' }).click();
    await expect.element(screen.getByText('Line 2 needs two values: the value as stored, then its code.')).toBeVisible();
    expect(fetch.mock.calls.filter(([request]) => (request as Request).method === 'PUT')).toEqual([]);
  });
});
