import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { axeViolations } from '../../test/axe';
import { ConfirmationGate } from './ConfirmationGate';

describe('ConfirmationGate', () => {
  it('a button gate shows its prompt, then the after-content once pressed', async () => {
    const screen = await render(
      <main>
        <h1>Gate</h1>
        <ConfirmationGate gate={{ kind: 'button', prompt: 'Anything else?', buttonLabel: 'Add more' }} initiallyOpen={false}>
          <p>After content</p>
        </ConfirmationGate>
      </main>,
    );
    await expect.element(screen.getByText('Anything else?')).toBeVisible();
    expect(screen.getByText('After content').query()).toBeNull();
    expect(await axeViolations()).toEqual([]);
    await screen.getByRole('button', { name: 'Add more' }).click();
    await expect.element(screen.getByText('After content')).toBeVisible();
  });

  it('a button gate starts open when its content already holds answers', async () => {
    const screen = await render(
      <ConfirmationGate gate={{ kind: 'button', prompt: 'Anything else?', buttonLabel: 'Add more' }} initiallyOpen>
        <p>After content</p>
      </ConfirmationGate>,
    );
    await expect.element(screen.getByText('After content')).toBeVisible();
  });

  it('a checkbox gate shows the after-content while checked', async () => {
    const screen = await render(
      <main>
        <h1>Gate</h1>
        <ConfirmationGate gate={{ kind: 'checkbox', label: 'I have read the statements' }} initiallyOpen={false}>
          <p>After content</p>
        </ConfirmationGate>
      </main>,
    );
    const box = screen.getByRole('checkbox', { name: 'I have read the statements' });
    expect(screen.getByText('After content').query()).toBeNull();
    await box.click();
    await expect.element(screen.getByText('After content')).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await box.click();
    expect(screen.getByText('After content').query()).toBeNull();
  });
});
