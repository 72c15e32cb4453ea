import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page } from 'vitest/browser';
import type { components } from '../../../../generated/api';
import { createQueryClient } from '../../../lib/queryClient';
import { axeViolations } from '../../../test/axe';
import { staffApplicationQuery } from '../kit/applicationCache';
import { ApplicationNotes } from './ApplicationNotes';
import '../staff.css';

type StaffApplication = components['schemas']['StaffApplication'];

const ID = '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const firstNote = { id: 1, author_email: 'reader@example.edu', text: 'Strong essay.\nAsk for grades.', created_at: '2026-11-25T14:03:00.000Z' };

/** A query client holding the open application, as ApplicationView leaves it. */
function clientWithApplication(id: string) {
  const client = createQueryClient();
  client.setQueryData(staffApplicationQuery(id).queryKey, { id, notes: [firstNote] } as unknown as StaffApplication);
  return client;
}

afterEach(() => vi.restoreAllMocks());

describe('ApplicationNotes (issue 30)', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('lists the notes with author and time, adds one as typed and clears the box, with no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const sent: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      sent.push(await request.json());
      return json(201, { id: 2, author_email: 'me@example.edu', text: 'Agreed.', created_at: '2026-11-25T15:00:00.000Z' });
    });
    const client = clientWithApplication(ID);
    const screen = await render(
      <QueryClientProvider client={client}>
        <main>
          <ApplicationNotes applicationId={ID} notes={[firstNote]} />
        </main>
      </QueryClientProvider>,
    );
    await expect.element(screen.getByText('reader@example.edu,', { exact: false })).toBeVisible();
    expect(document.querySelector('.staff-notes__text')!.textContent).toBe('Strong essay.\nAsk for grades.');
    expect(await axeViolations()).toEqual([]);

    await screen.getByLabelText('Add a note').fill('Agreed.');
    await screen.getByRole('button', { name: 'Add the note' }).click();
    await expect.element(screen.getByLabelText('Add a note')).toHaveValue('');
    expect(sent).toEqual([{ text: 'Agreed.' }]);
    // The kept note joins the cached application: no second read (each read is an audited view).
    const cached = client.getQueryData<StaffApplication>(staffApplicationQuery(ID).queryKey)!;
    expect(cached.notes.map((note) => note.text)).toEqual(['Strong essay.\nAsk for grades.', 'Agreed.']);
    expect(await axeViolations()).toEqual([]);
  });

  it('says why a note was refused, on the field, and keeps what was typed', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(400, { message: 'Write the note before adding it.', errors: { text: ['Write the note before adding it.'] } }));
    const screen = await render(
      <QueryClientProvider client={createQueryClient()}>
        <main>
          <ApplicationNotes applicationId={ID} notes={[]} />
        </main>
      </QueryClientProvider>,
    );
    await expect.element(screen.getByText('No notes yet.')).toBeVisible();
    await screen.getByLabelText('Add a note').fill('   ');
    await screen.getByRole('button', { name: 'Add the note' }).click();
    await expect.element(screen.getByText('Write the note before adding it.')).toBeVisible();
    await expect.element(screen.getByLabelText('Add a note')).toHaveAttribute('aria-invalid', 'true');
    await expect.element(screen.getByLabelText('Add a note')).toHaveValue('   ');
    expect(await axeViolations()).toEqual([]);
  });
});
