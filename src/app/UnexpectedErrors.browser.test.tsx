import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { UnauthorizedError } from '../lib/api/errors';
import { UnexpectedErrors } from './UnexpectedErrors';

describe('UnexpectedErrors', () => {
  it("shows the 'Unexpected Error' modal for a promise nobody handled", async () => {
    const screen = await render(
      <UnexpectedErrors>
        <p>Page</p>
      </UnexpectedErrors>,
    );
    window.dispatchEvent(new PromiseRejectionEvent('unhandledrejection', { promise: Promise.resolve(), reason: new Error('boom') }));
    const dialog = screen.getByRole('dialog', { name: 'Unexpected Error' });
    await expect.element(dialog).toBeVisible();
    await expect.element(dialog).toHaveTextContent("We've encountered an unexpected error at this time. Please try again later.");
    await screen.getByRole('button', { name: 'Close' }).click();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays closed for a 401 nobody handled: the session end already took the applicant to /login', async () => {
    const screen = await render(
      <UnexpectedErrors>
        <p>Page</p>
      </UnexpectedErrors>,
    );
    window.dispatchEvent(new PromiseRejectionEvent('unhandledrejection', { promise: Promise.resolve(), reason: new UnauthorizedError('gone') }));
    await expect.element(screen.getByText('Page')).toBeVisible();
    await expect.element(screen.getByRole('dialog')).not.toBeInTheDocument();
  });
});
