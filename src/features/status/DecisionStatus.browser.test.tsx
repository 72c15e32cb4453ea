import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { page } from 'vitest/browser';
import { createQueryClient } from '../../lib/queryClient';
import { axeViolations } from '../../test/axe';
import { DecisionStatus } from './DecisionStatus';

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

    await screen.getByRole('radio', { name: 'I accept the offer of admission' }).click();
    await screen.getByRole('button', { name: 'Send my reply' }).click();
    await expect.element(screen.getByText('You accepted the offer of admission on March 16, 2027.')).toBeVisible();
    expect(sent).toEqual([{ reply: 'accept' }]);
    expect(screen.getByRole('button', { name: 'Send my reply' }).query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('says why a reply was refused (409), and asks for none on a decision that is not an offer', async () => {
    const screen = await renderStatus((request) =>
      request.method === 'PUT' ? json(409, { message: 'The reply date (May 1, 2027) has passed. Please contact the admissions office.' }) : json(200, admitted),
    );
    await screen.getByRole('radio', { name: 'I decline the offer of admission' }).click();
    await screen.getByRole('button', { name: 'Send my reply' }).click();
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
