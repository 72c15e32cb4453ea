import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page, userEvent } from 'vitest/browser';
import type { components } from '../../../../generated/api';
import { createQueryClient } from '../../../lib/queryClient';
import { axeViolations } from '../../../test/axe';
import { DecisionPanel } from './DecisionPanel';
import { DecisionsPage } from './DecisionsPage';
import { LettersPage } from './LettersPage';
import '../staff.css';

type StaffDecision = components['schemas']['StaffDecision'];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ID = '0b6f6a36-7d5e-4b7a-9a43-2f3f1f8e2a10';
const OTHER = '1c7a7b47-8e6f-4c8b-9b54-3a4a2a9f3b21';
const provisional: StaffDecision = { decision: 'admit', state: 'provisional', decided_by: 'decider@example.edu', decided_at: '2027-03-01T10:00:00.000Z', release_at: null, reason: null, reply: null, replied_at: null, reply_recorded_by: null, reply_reason: null };

/** A console page as the signed-in console renders it: the member in the outlet's context. */
function inConsole(element: ReactNode, role: 'reader' | 'decider' | 'admin' = 'decider', at = '/staff/decisions') {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route element={<main><Outlet context={{ email: `${role}@example.edu`, role }} /></main>}>
            <Route path="/staff/decisions" element={element} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

afterEach(() => vi.restoreAllMocks());

describe('DecisionsPage (issue 30)', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('releases a selection of provisional decisions now, with no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const released: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST') {
        released.push(await request.json());
        return json(202, { scheduled: 1, release_at: '2027-03-15T16:00:00.000Z' });
      }
      return json(200, {
        total: 2,
        page: 1,
        page_size: 50,
        items: [
          { ...provisional, application_id: ID, name: 'Jordan Rivera', email: 'jordan@example.com' },
          { ...provisional, decision: 'deny', application_id: OTHER, name: 'Sam Lee', email: 'sam@example.com' },
        ],
      });
    });
    const screen = await render(inConsole(<DecisionsPage />));
    await expect.element(screen.getByText('2 decisions, page 1 of 1.')).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await screen.getByRole('checkbox', { name: 'Release the decision on Jordan Rivera' }).click();
    await screen.getByRole('button', { name: 'Release 1 decision now' }).click();
    await expect.element(screen.getByText(/^1 decision will be released /)).toBeVisible();
    expect(released).toEqual([{ application_ids: [ID] }]);
    expect(await axeViolations()).toEqual([]);
  });

  it('schedules a selection at a set time, sent as the instant the decider meant', async () => {
    const released: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST') {
        released.push(await request.json());
        return json(202, { scheduled: 2, release_at: '2027-03-15T16:00:00.000Z' });
      }
      return json(200, { total: 1, page: 1, page_size: 50, items: [{ ...provisional, application_id: ID, name: 'Jordan Rivera', email: 'jordan@example.com' }] });
    });
    const screen = await render(inConsole(<DecisionsPage />));
    await screen.getByRole('checkbox', { name: 'Select all 1 shown' }).click();
    await screen.getByLabelText('Or release at').fill('2027-03-15T09:00');
    await screen.getByRole('button', { name: 'Schedule' }).click();
    await expect.element(screen.getByText(/^2 decisions will be released /)).toBeVisible();
    expect(released).toEqual([{ application_ids: [ID], release_at: new Date('2027-03-15T09:00').toISOString() }]);
  });
});

describe('DecisionsPage: scheduled releases', () => {
  it('calls a selection back before its time, with no axe violations', async () => {
    const recalled: unknown[] = [];
    const scheduled: StaffDecision = { ...provisional, state: 'scheduled', release_at: '2027-03-15T16:00:00.000Z' };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'POST') {
        recalled.push([new URL(request.url).pathname, await request.json()]);
        return json(200, { recalled: 1 });
      }
      return json(200, { total: 1, page: 1, page_size: 50, items: [{ ...scheduled, application_id: ID, name: 'Jordan Rivera', email: 'jordan@example.com' }] });
    });
    const screen = await render(inConsole(<DecisionsPage />, 'decider', '/staff/decisions?state=scheduled'));
    await screen.getByRole('checkbox', { name: 'Call back the decision on Jordan Rivera' }).click();
    await screen.getByRole('button', { name: 'Call back 1 decision' }).click();
    await expect.element(screen.getByText('1 decision called back: provisional again.')).toBeVisible();
    expect(recalled).toEqual([['/staff/api/decisions/recall', { application_ids: [ID] }]]);
    expect(await axeViolations()).toEqual([]);
  });
});

describe('DecisionPanel (issue 30)', () => {
  it('asks a reason to change a released decision and keeps what was typed when it is refused; a reader sees the decision only', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json(400, { message: 'Say why the released decision is changing: the applicant will see the new one.', errors: { reason: ['Say why the released decision is changing: the applicant will see the new one.'] } }),
    );
    const released: StaffDecision = { ...provisional, decision: 'waitlist', state: 'released', release_at: '2027-03-15T16:00:00.000Z' };
    const screen = await render(inConsole(<DecisionPanel applicationId={ID} submitted decision={released} />));
    await expect.element(screen.getByText(/^Waitlist, released .*: the applicant sees it\.$/)).toBeVisible();
    await screen.getByRole('radio', { name: 'Admit' }).click();
    await screen.getByLabelText('Why it changes').fill('  ');
    await screen.getByRole('button', { name: 'Change the released decision' }).click();
    await expect.element(screen.getByText('Say why the released decision is changing: the applicant will see the new one.')).toBeVisible();
    await expect.element(screen.getByLabelText('Why it changes')).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations()).toEqual([]);

    const reader = await render(inConsole(<DecisionPanel applicationId={OTHER} submitted decision={provisional} />, 'reader'));
    await expect.element(reader.getByText('Admit, provisional: the applicant does not see it until it is released.').last()).toBeVisible();
    expect(reader.getByRole('button', { name: 'Save the decision' }).query()).toBeNull();
  });
});

describe('a reply recorded by the office (issue 51 §2)', () => {
  it('records a reply given by phone with the keyboard, asking the reason first, and shows who recorded it and why', async () => {
    const sent: unknown[] = [];
    const admitted: StaffDecision = { ...provisional, state: 'released', release_at: '2027-03-15T16:00:00.000Z' };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const body = await (input as Request).json();
      sent.push(body);
      if (!body.reason.trim()) return json(400, { message: 'Say why the reply is recorded here: a phone call, a letter, a reply sent by mistake.', errors: { reason: ['Say why the reply is recorded here: a phone call, a letter, a reply sent by mistake.'] } });
      return json(200, { ...admitted, reply: body.reply, replied_at: '2027-03-20T10:00:00.000Z', reply_recorded_by: 'decider@example.edu', reply_reason: body.reason });
    });
    const screen = await render(inConsole(<DecisionPanel applicationId={ID} submitted decision={admitted} />));
    const opener = screen.getByText('Record or correct the reply');
    await expect.element(opener).toBeVisible();
    (opener.element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    const accepted = screen.getByRole('radio', { name: 'Accepted' });
    (accepted.element() as HTMLElement).focus();
    await userEvent.keyboard(' ');
    await expect.element(accepted).toBeChecked();
    (screen.getByRole('button', { name: 'Record the reply' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByLabelText('Why it is recorded here')).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations()).toEqual([]);
    await screen.getByLabelText('Why it is recorded here').click();
    await userEvent.keyboard('She accepted by phone.');
    (screen.getByRole('button', { name: 'Record the reply' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(screen.getByRole('status').filter({ hasText: 'Reply recorded.' })).toBeVisible();
    expect(sent.at(-1)).toEqual({ reply: 'accept', reason: 'She accepted by phone.' });
    // Who recorded it and why, as the application shows it once read again.
    const shown = await render(inConsole(<DecisionPanel applicationId={OTHER} submitted decision={{ ...admitted, reply: 'accept', replied_at: '2027-03-20T10:00:00.000Z', reply_recorded_by: 'decider@example.edu', reply_reason: 'She accepted by phone.' }} />));
    await expect.element(shown.getByText(/The applicant accepted the offer on .*\. Recorded by decider@example.edu: She accepted by phone\.$/)).toBeVisible();
  });
});

const builtIn = (decision: string, body: string) => ({ decision, body, built_in: true, updated_by: null, updated_at: null });
const templates = [builtIn('admit', 'Dear {first_name},\n\nCongratulations!'), builtIn('deny', 'Dear {first_name},'), builtIn('waitlist', 'Dear {first_name},'), builtIn('defer', 'Dear {first_name},')];

describe('LettersPage (issue 30)', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('lets an administrator write a letter, says which merge field is unknown, and keeps the text; no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const sent: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      if (request.method === 'PUT') {
        const body = (await request.json()) as { body: string };
        sent.push(body);
        if (body.body.includes('{nickname}')) return json(400, { message: 'Unknown merge field {nickname}: use {first_name}.', errors: { body: ['Unknown merge field {nickname}: use {first_name}.'] } });
        return json(200, { decision: 'admit', body: body.body, built_in: false, updated_by: 'admin@example.edu', updated_at: '2027-02-01T10:00:00.000Z' });
      }
      return json(200, templates);
    });
    const screen = await render(inConsole(<LettersPage />, 'admin'));
    const admit = screen.getByLabelText('Text of the admit letter');
    await expect.element(admit).toHaveValue('Dear {first_name},\n\nCongratulations!');
    expect(await axeViolations()).toEqual([]);
    await admit.fill('Dear {nickname},');
    await screen.getByRole('button', { name: 'Save the admit letter' }).click();
    await expect.element(screen.getByText('Unknown merge field {nickname}: use {first_name}.')).toBeVisible();
    await expect.element(admit).toHaveAttribute('aria-invalid', 'true');
    await expect.element(admit).toHaveValue('Dear {nickname},');
    expect(await axeViolations()).toEqual([]);
    await admit.fill('Dear {first_name}, welcome!');
    await screen.getByRole('button', { name: 'Save the admit letter' }).click();
    await expect.element(screen.getByText('Saved: every letter read from now on uses it, released ones included.')).toBeVisible();
    expect(sent.at(-1)).toEqual({ body: 'Dear {first_name}, welcome!' });
  });

  it('shows a decider the letters to read, not to edit', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, templates));
    const screen = await render(inConsole(<LettersPage />, 'decider'));
    await expect.element(screen.getByRole('heading', { level: 2, name: 'Admit letter' })).toBeVisible();
    expect(screen.getByLabelText('Text of the admit letter').query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });
});

describe('the letter preview (issue 30)', () => {
  it('shows the letter this applicant would read for the decision chosen, only when asked', async () => {
    const asked: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL((input as Request).url);
      asked.push(`${url.pathname}?${url.searchParams}`);
      return json(200, { decision: 'deny', letter: 'Dear Jordan,\n\nThank you for applying.' });
    });
    const screen = await render(inConsole(<DecisionPanel applicationId={ID} submitted decision={null} />));
    await screen.getByRole('radio', { name: 'Deny' }).click();
    expect(asked).toEqual([]);
    await screen.getByRole('button', { name: 'Preview the letter (Deny)' }).click();
    await expect.element(screen.getByRole('article', { name: 'Deny letter to this applicant' })).toHaveTextContent(/Dear Jordan,\s*Thank you for applying\./);
    expect(asked).toEqual([`/staff/api/applications/${ID}/letter?decision=deny`]);
    expect(await axeViolations()).toEqual([]);
  });
});
