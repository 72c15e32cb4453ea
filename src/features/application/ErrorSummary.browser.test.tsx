import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { MemoryRouter } from 'react-router-dom';
import { axeViolations } from '../../test/axe';
import { ErrorSummary } from './ErrorSummary';

describe('ErrorSummary', () => {
  it('says which question a link is when two would read the same, and links each to its page', async () => {
    const screen = await render(
      <MemoryRouter initialEntries={['/final-steps']}>
        <main>
          <h1>Final Steps</h1>
          <ErrorSummary
            errors={{
              first_name: ['Legal First Name'],
              conviction_comment: ['Please explain.'],
              suspended_comment: ['Please explain.'],
            }}
          />
        </main>
      </MemoryRouter>,
    );
    const convicted = screen.getByRole('link', { name: 'Please explain. (Have you ever been convicted of a misdemeanor, felony or other crime?)' });
    const suspended = screen.getByRole('link', { name: 'Please explain. (Have you ever been suspended or expelled from a school?)' });
    await expect.element(convicted).toHaveAttribute('href', '/final-steps#conviction_comment');
    await expect.element(suspended).toHaveAttribute('href', '/final-steps#suspended_comment');
    // A link that reads differently from every other keeps its plain message.
    await expect.element(screen.getByRole('link', { name: 'Legal First Name', exact: true })).toHaveAttribute('href', '/about#first_name');
    expect(await axeViolations()).toEqual([]);
  });
});
