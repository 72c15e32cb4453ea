import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
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
});
