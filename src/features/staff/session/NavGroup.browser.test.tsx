import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent, type Locator } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { createQueryClient } from '../../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../../test/axe';
import { tap } from '../../../test/hands';
import { ToastProvider } from '../../../ui/Toast';
import { StaffApp } from '../StaffApp';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

async function openConsole() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/staff/api/me') return json(200, { email: 'admin@example.edu', role: 'admin' });
    if (url.pathname === '/staff/api/applications') return json(200, { total: 0, page: 1, page_size: 25, counts: { started: 0, validating: 0, submitted: 0 }, items: [] });
    if (url.pathname === '/staff/api/application-counts') return json(200, { started: 0, validating: 0, submitted: 0 });
    if (url.pathname === '/staff/api/saved-views') return json(200, { views: [] });
    if (url.pathname === '/staff/api/bins') return json(200, { unplaced: 0, bins: [] });
    if (url.pathname === '/staff/api/review-form') return json(200, { version: 0, scales: [], recommendations: [], updated_by: null, updated_at: null });
    if (url.pathname === '/staff/api/checklist-rules') return json(200, { version: 0, rules: [], updated_by: null, updated_at: null });
    return json(404, { message: 'Not here.' });
  });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/staff']}>
          <Routes>
            <Route
              path="/staff/*"
              element={
                <>
                  <StaffApp />
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => page.viewport(1366, 900));
afterEach(() => vi.restoreAllMocks());

describe('the console’s menu (issue 51 §4)', () => {
  it('keeps an administrator’s menu on one row at 1366 px, the set-up pages under Settings', async () => {
    const screen = await openConsole();
    const menu = screen.getByRole('navigation', { name: 'Console' });
    await expect.element(menu.getByRole('button', { name: 'Settings' })).toBeVisible();
    const items = [...menu.element().querySelectorAll(':scope > ul > li')];
    expect(items.map((item) => item.querySelector(':scope > a, :scope > button')!.textContent)).toEqual(['Applications', 'My queue', 'Dashboard', 'Reports', 'Committee', 'Decisions', 'Duplicates', 'Letters', 'Export', 'Settings ▾']);
    expect(new Set(items.map((item) => Math.round(item.getBoundingClientRect().top))).size).toBe(1);
  });

  const hands: [string, (locator: Locator) => Promise<unknown>][] = [
    ['a pointer', (locator) => locator.click()],
    ['a finger', (locator) => tap(locator)],
    [
      'the keyboard',
      async (locator) => {
        (locator.element() as HTMLElement).focus();
        await userEvent.keyboard('{Enter}');
      },
    ],
  ];
  it.each(hands)('opens Settings and goes to a page in it by %s; Escape closes it and gives the focus back', async (_hand, press) => {
    const screen = await openConsole();
    const settings = screen.getByRole('button', { name: 'Settings' });
    await expect.element(settings).toBeVisible();
    await press(settings);
    await expect.element(settings).toHaveAttribute('aria-expanded', 'true');
    await expectNoViolationsAtBothWidths();
    await page.viewport(1366, 900);
    (screen.getByRole('link', { name: 'Composite score' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Escape}');
    await expect.element(settings).toHaveAttribute('aria-expanded', 'false');
    await expect.element(settings).toHaveFocus();
    await press(settings);
    await press(screen.getByRole('link', { name: 'Bins' }));
    await expect.element(screen.getByTestId('where')).toHaveTextContent('/staff/bins');
    await expect.element(settings).toHaveAttribute('aria-expanded', 'false');
    expect(settings.element().className).toBe('active');
  });
});
