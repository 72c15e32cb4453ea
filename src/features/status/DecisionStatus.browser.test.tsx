import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page } from 'vitest/browser';
import { createQueryClient } from '../../lib/queryClient';
import { axeViolations } from '../../test/axe';
import { userEvent } from 'vitest/browser';
import { tap } from '../../test/hands';
import { CONFIRM_REPLY, DecisionStatus, LAST_STEPS } from './DecisionStatus';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const admitted = {
  state: 'decided',
  decision: 'admit',
  released_at: '2027-03-15T16:00:00.000Z',
  letter: 'Dear Jordan,\n\nCongratulations! I am delighted to offer you admission.\n\nSincerely,\nOffice of Admissions',
  reply_by: '2027-05-01',
  reply: null,
  replied_at: null,
};

/** The status as the completion page shows it, answered by `respond` per call. */
async function renderStatus(respond: (request: Request) => Response | Promise<Response>) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => respond(input as Request));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <main>
        <h1>Application Submitted</h1>
        <DecisionStatus />
      </main>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('DecisionStatus (issue 30)', () => {
  it('says the application is under review until a decision is released', async () => {
    const screen = await renderStatus(() => json(200, { state: 'under_review' }));
    await expect.element(screen.getByText('Your application is under review. We will e-mail you when there is an update here.')).toBeVisible();
    await expect.element(screen.getByText(LAST_STEPS)).toBeVisible();
    expect(LAST_STEPS).toBe('Last steps: ask your school counselor to send your transcript, and watch your e-mail for news from the Office of Admissions.');
    expect(await axeViolations()).toEqual([]);
  });

  it.each([
    [1280, 800],
    [390, 844],
  ])('says an application the office withdrew at my request was withdrawn, and nothing else (issue 51), with no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const screen = await renderStatus(() => json(200, { state: 'withdrawn', withdrawn_at: '2027-02-02T15:30:00.000Z' }));
    await expect.element(screen.getByText('Your application was withdrawn at your request on February 2, 2027. If this is a mistake, please contact the Office of Admissions.')).toBeVisible();
    expect(screen.getByText(LAST_STEPS).query()).toBeNull();
    expect(screen.getByRole('heading', { name: /Decision/ }).query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it.each([
    [1280, 800],
    [390, 844],
  ])('shows the decision and its letter, takes the reply once and says what was sent, with no axe violations at %ipx', async (width, height) => {
    await page.viewport(width, height);
    const sent: unknown[] = [];
    const screen = await renderStatus(async (request) => {
      if (request.method === 'PUT') {
        sent.push(await request.json());
        return json(200, { ...admitted, reply: 'accept', replied_at: '2027-03-16T09:12:00.000Z' });
      }
      return json(200, admitted);
    });
    await expect.element(screen.getByRole('heading', { level: 2, name: 'Decision: Admit' })).toBeVisible();
    const letter = screen.getByRole('article', { name: 'Your decision letter' });
    await expect.element(letter).toHaveTextContent(/Dear Jordan,\s*Congratulations! I am delighted to offer you admission\./);
    expect(document.querySelectorAll('.status__letter p')).toHaveLength(3);
    await expect.element(screen.getByRole('link', { name: 'Download the letter (PDF)' })).toHaveAttribute('href', '/api/decision/letter');
    await expect.element(screen.getByRole('group', { name: 'Reply by May 1, 2027. Your reply is final.' })).toBeVisible();
    expect(await axeViolations()).toEqual([]);

    // Issue 48: the decision released, the submit day's last steps are gone.
    expect(screen.getByText(LAST_STEPS).query()).toBeNull();

    await screen.getByRole('radio', { name: 'I accept the offer of admission' }).click();
    await screen.getByRole('button', { name: 'Send my reply' }).click();
    // Asked once more before a reply that is final (issue 48); nothing sent yet.
    const asked = screen.getByRole('dialog', { name: 'Accept the offer?' });
    await expect.element(asked).toHaveTextContent(CONFIRM_REPLY.accept.text);
    expect(await axeViolations()).toEqual([]);
    expect(sent).toEqual([]);
    await screen.getByRole('button', { name: 'Yes, accept the offer' }).click();
    const confirmation = screen.getByText('You accepted the offer of admission on March 16, 2027.');
    await expect.element(confirmation).toBeVisible();
    // Focus on what was sent, not dropped to the page (issue 48).
    await expect.element(confirmation).toHaveFocus();
    expect(sent).toEqual([{ reply: 'accept' }]);
    expect(screen.getByRole('button', { name: 'Send my reply' }).query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('a decline is asked about (tapped on a phone), and Go back or Escape sends nothing', async () => {
    const sent: unknown[] = [];
    const screen = await renderStatus(async (request) => {
      if (request.method === 'PUT') sent.push(await request.json());
      return json(200, admitted);
    });
    await tap(screen.getByRole('radio', { name: 'I decline the offer of admission' }));
    await tap(screen.getByRole('button', { name: 'Send my reply' }));
    await expect.element(screen.getByRole('dialog', { name: 'Decline the offer?' })).toHaveTextContent(
      'You are declining the offer of admission to Northfield University. You will not be able to accept it later: your reply is final.',
    );
    await tap(screen.getByRole('button', { name: 'Go back' }));
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    await screen.getByRole('button', { name: 'Send my reply' }).click();
    await expect.element(screen.getByRole('dialog', { name: 'Decline the offer?' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('says why a reply was refused (409), and asks for none on a decision that is not an offer', async () => {
    const screen = await renderStatus((request) =>
      request.method === 'PUT' ? json(409, { message: 'The reply date (May 1, 2027) has passed. Please contact the admissions office.' }) : json(200, admitted),
    );
    await screen.getByRole('radio', { name: 'I decline the offer of admission' }).click();
    await screen.getByRole('button', { name: 'Send my reply' }).click();
    await screen.getByRole('button', { name: 'Yes, decline the offer' }).click();
    await expect.element(screen.getByRole('alert')).toHaveTextContent('The reply date (May 1, 2027) has passed. Please contact the admissions office.');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a waitlist with its letter and no reply', async () => {
    const screen = await renderStatus(() => json(200, { ...admitted, decision: 'waitlist', reply_by: null, letter: 'Dear Jordan,\n\nWe have placed your application on our waitlist.' }));
    await expect.element(screen.getByRole('heading', { level: 2, name: 'Decision: Waitlist' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send my reply' }).query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });
});

describe('an offer’s reply date and deposit line, the entry term’s (issue 51 §2)', () => {
  it('shows the term’s reply date and its deposit line with the offer', async () => {
    const screen = await renderStatus(() => json(200, { ...admitted, reply_by: '2028-04-15', deposit: 'A $300 enrollment deposit is due with your acceptance.' }));
    await expect.element(screen.getByRole('group', { name: 'Reply by April 15, 2028. Your reply is final.' })).toBeVisible();
    await expect.element(screen.getByText('A $300 enrollment deposit is due with your acceptance.')).toBeVisible();
    for (const width of [1280, 390]) {
      await page.viewport(width, 800);
      expect(await axeViolations(), `${width} px`).toEqual([]);
    }
  });
});
