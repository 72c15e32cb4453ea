import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { ToastProvider } from '../../../ui/Toast';
import { StaffApp } from '../StaffApp';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const days = (open: number[]) => open.map((n, i) => ({ date: `2026-11-${String(16 + i).padStart(2, '0')}`, reviewed: i % 3, open: n }));
const DASHBOARD = {
  per_day: [{ date: '2026-11-29', started: 3, submitted: 1 }],
  stopped_at: [],
  by_term: [],
  by_major: [],
  by_place: [],
  workload: [
    { email: 'first@example.edu', open: 4, reviewed: 13, days: days([9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 4]) },
    { email: 'second@example.edu', open: 0, reviewed: 0, days: days(Array(14).fill(0)) },
  ],
};

afterEach(() => vi.restoreAllMocks());

describe('the dashboard: each reader’s work (issue 51 §1)', () => {
  it('shows what each reader has to read now, what they reviewed in a fortnight, and each of the last seven days', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL((input as Request).url);
      if (url.pathname === '/staff/api/me') return json(200, { email: 'decider@example.edu', role: 'decider' });
      if (url.pathname === '/staff/api/dashboard') return json(200, DASHBOARD);
      return json(404, { message: 'Not here.' });
    });
    const screen = await render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <MemoryRouter initialEntries={['/staff/dashboard']}>
            <Routes>
              <Route path="/staff/*" element={<StaffApp />} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>,
    );
    const table = screen.getByRole('region', { name: 'Readers’ work' });
    await expect.element(table.getByRole('columnheader', { name: 'Nov 23' })).toBeVisible();
    expect((await table.getByRole('columnheader').all()).map((header) => header.element().textContent)).toEqual([
      'Reader',
      'To read now',
      'Reviewed, 14 days',
      'Nov 23',
      'Nov 24',
      'Nov 25',
      'Nov 26',
      'Nov 27',
      'Nov 28',
      'Nov 29',
    ]);
    await expect.element(table.getByRole('row', { name: /first@example.edu/ })).toHaveTextContent('first@example.edu4131 (7)2 (6)0 (6)1 (6)2 (5)0 (5)1 (4)');
    await expectNoViolationsAtBothWidths();
  });
});
