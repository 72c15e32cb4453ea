import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { userEvent } from 'vitest/browser';
import { axeViolations } from '../test/axe';
import { TextInput, type TextInputType, type TextInputVariant } from './TextInput';

function Controlled(props: { type?: TextInputType; variant?: TextInputVariant; errors?: string[]; hint?: string; maxLength?: number }) {
  const [value, setValue] = useState('');
  return (
    <main>
      <h1>Input</h1>
      <TextInput id="first_name" label="Legal First Name" value={value} onChange={setValue} {...props} />
    </main>
  );
}

describe('TextInput', () => {
  it('has a visible label tied to the control and a default maximum of 45 characters', async () => {
    const screen = await render(<Controlled />);
    const input = screen.getByLabelText('Legal First Name');
    await expect.element(input).toHaveAttribute('maxlength', '45');
    await userEvent.type(input, 'x'.repeat(50));
    await expect.element(input).toHaveValue('x'.repeat(45));
  });

  it('ties hint and error to the control and marks it invalid', async () => {
    const screen = await render(
      <Controlled hint="As on your passport." errors={['Legal First Name', 'Legal First Name']} />,
    );
    const input = screen.getByLabelText('Legal First Name');
    await expect.element(input).toHaveAttribute('aria-invalid', 'true');
    await expect.element(input).toHaveAttribute('aria-describedby', 'first_name-hint first_name-error');
    await expect.element(input).toHaveAccessibleDescription('As on your passport. Error: Legal First Name');
    // Duplicate messages are shown once.
    expect(document.querySelectorAll('#first_name-error > span')).toHaveLength(1);
  });

  it('a textarea counts characters against 1500 by default', async () => {
    const screen = await render(<Controlled type="textarea" />);
    await userEvent.type(screen.getByLabelText('Legal First Name'), 'Hello');
    await expect.element(screen.getByText('Character count: 5 / 1500')).toBeVisible();
  });

  it('a password can be shown and hidden', async () => {
    const screen = await render(<Controlled type="password" />);
    const input = screen.getByLabelText('Legal First Name');
    await expect.element(input).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    await toggle.click();
    await expect.element(input).toHaveAttribute('type', 'text');
    await expect.element(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('a date input is a native date control', async () => {
    const screen = await render(<Controlled type="date" />);
    await expect.element(screen.getByLabelText('Legal First Name')).toHaveAttribute('type', 'date');
  });

  const cases = (['underlined', 'outlined'] as const).flatMap((variant) =>
    (['text', 'textarea', 'date', 'password'] as const).map((type) => [variant, type] as const),
  );
  it.each(cases)('%s %s has no axe violations, with and without an error', async (variant, type) => {
    const plain = await render(<Controlled variant={variant} type={type} hint="A hint." />);
    expect(await axeViolations()).toEqual([]);
    await plain.unmount();
    await render(<Controlled variant={variant} type={type} errors={['Required.']} />);
    expect(await axeViolations()).toEqual([]);
  });
});
