import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { createQueryClient } from '../../lib/queryClient';
import { expectNoViolationsAtBothWidths } from '../../test/axe';
import { ToastProvider } from '../../ui/Toast';
import { PdfCopy } from './PdfCopy';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.restoreAllMocks());

describe('PdfCopy', () => {
  it('offers to try again when the copy failed, and then shows the download once it is made', async () => {
    let made = false;
    const calls: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      if (request.method === 'POST') {
        made = true;
        return json(202, { status: 'UNPROCESSED', url: null });
      }
      return made ? json(200, { status: 'COMPLETED', url: '/api/pdf/download' }) : json(200, { status: 'FAILED', url: null, message: 'It failed.' });
    });
    const screen = await render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <main>
            <h1>Submitted</h1>
            <PdfCopy />
          </main>
        </ToastProvider>
      </QueryClientProvider>,
    );
    // The spec's label with the reason, beside Try again, and no toast over it (issue 48).
    const alert = screen.getByRole('alert');
    await expect.element(alert).toHaveTextContent('Error downloading PDF copy of your application.The PDF copy of your application could not be made. It failed.');
    expect(document.querySelector('.toast')).toBeNull();
    await expectNoViolationsAtBothWidths();
    await screen.getByRole('button', { name: 'Try again' }).click();
    await expect.element(screen.getByRole('link', { name: 'Download a PDF copy of your application' })).toBeVisible();
    expect(calls).toContain('POST /api/pdf');
  });
});
