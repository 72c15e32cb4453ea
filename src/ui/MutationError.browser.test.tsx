import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { expectNoViolationsAtBothWidths } from '../test/axe';
import { MutationError } from './MutationError';

// A refused call's error as the client throws it (lib/api/errors.ts's ServerError is an Error with its message).
const refused = new Error('This application was decided by someone else meanwhile.');

describe('MutationError', () => {
  it('says a refusal once, in an alert, and nothing before a call fails', async () => {
    const screen = await render(
      <main>
        <h1>Decide</h1>
        <MutationError error={null} />
        <MutationError error={refused} />
      </main>,
    );
    await expect.element(screen.getByRole('alert')).toHaveTextContent('This application was decided by someone else meanwhile.');
    expect(document.querySelectorAll('[role="alert"]')).toHaveLength(1);
    await expectNoViolationsAtBothWidths();
  });

  it('leaves a refusal that names fields to the fields, and says one that names none', async () => {
    const screen = await render(
      <main>
        <h1>Decide</h1>
        <MutationError error={new Error('Please check the highlighted fields.')} fields={{ reason: ['Say why.'] }} />
        <MutationError error={refused} fields={{}} />
      </main>,
    );
    await expect.element(screen.getByRole('alert')).toHaveTextContent('This application was decided by someone else meanwhile.');
    expect(document.querySelectorAll('[role="alert"]')).toHaveLength(1);
  });
});
