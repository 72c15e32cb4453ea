import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { userEvent } from 'vitest/browser';
import { fieldByKey } from '../../../domain/catalogue';
import { axeViolations } from '../../test/axe';
import type { AnswerValue } from '../../../domain/rules/conditions';
import { ToastProvider } from '../../ui/Toast';
import { FormField } from './FormField';

/** One catalogue field with its answers kept like the form root keeps them. */
function Harness({ fieldKey, errors, loggedIn = true, initial = {} }: { fieldKey: string; errors?: string[]; loggedIn?: boolean; initial?: Record<string, AnswerValue> }) {
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>(initial);
  const field = fieldByKey.get(fieldKey)!;
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
      <main>
        <h1>Field</h1>
        <FormField field={field} value={answers[fieldKey]} errors={errors} loggedIn={loggedIn} onChange={(u) => setAnswers((a) => ({ ...a, ...u }))} />
        <output data-testid="answers">{JSON.stringify(answers)}</output>
        <button type="button">elsewhere</button>
      </main>
      </ToastProvider>
    </QueryClientProvider>
  );
}

const answersOf = () => JSON.parse(document.querySelector('[data-testid="answers"]')!.textContent!);

describe('FormField', () => {
  it('a text area keeps a draft and commits it on blur, with the character count', async () => {
    const screen = await render(<Harness fieldKey="additional_info_essay" />);
    const area = screen.getByLabelText('Additional information');
    await userEvent.type(area, 'Hello');
    await expect.element(screen.getByText('Character count: 5 / 7000')).toBeVisible();
    expect(answersOf()).toEqual({});
    await screen.getByRole('button', { name: 'elsewhere' }).click();
    expect(answersOf()).toEqual({ additional_info_essay: 'Hello' });
  });

  it("a parent's number from abroad is kept as it is (E.164), shown grouped once its country's plan is in, never squeezed into a US number (issue 28)", async () => {
    const screen = await render(<Harness fieldKey="counselor_phone" />);
    const input = screen.getByLabelText('Phone');
    await userEvent.type(input, '+91 98450 67890');
    expect(answersOf()).toEqual({ counselor_phone: '+919845067890' });
    await expect.element(input).toHaveValue('+91 98450 67890');
    await userEvent.clear(input);
    await userEvent.type(input, '3035550142');
    expect(answersOf()).toEqual({ counselor_phone: '(303) 555-0142' });
    expect(await axeViolations()).toEqual([]);
  });

  it('a select starts with -- and stores the label in the _desc companion', async () => {
    const screen = await render(<Harness fieldKey="country" />);
    const select = screen.getByLabelText('Country');
    expect((select.element() as HTMLSelectElement).options[0]!.text).toBe('--');
    await userEvent.selectOptions(select, 'CAN');
    expect(answersOf()).toEqual({ country: 'CAN', country_desc: 'Canada' });
  });

  it('a radio group stores the value and its label', async () => {
    const screen = await render(<Harness fieldKey="citizenship_type" />);
    await screen.getByRole('radio', { name: 'U.S. permanent resident' }).click();
    expect(answersOf()).toEqual({ citizenship_type: 'R', citizenship_type_desc: 'U.S. permanent resident' });
  });

  it('a phone input formats as (ddd) ddd-dddd while typing', async () => {
    const screen = await render(<Harness fieldKey="phone_home" />);
    await userEvent.type(screen.getByLabelText('Home Phone'), '3035550142');
    expect(answersOf()).toEqual({ phone_home: '(303) 555-0142' });
  });

  it('a date input commits a valid date and clears the answer when the date is removed', async () => {
    const screen = await render(<Harness fieldKey="birth_date" initial={{ birth_date: '2008-04-17' }} />);
    const input = screen.getByLabelText('Birth Date');
    await expect.element(input).toHaveValue('2008-04-17');
    await userEvent.fill(input, '2009-05-20');
    expect(answersOf()).toEqual({ birth_date: '2009-05-20' });
    await userEvent.clear(input);
    expect(answersOf()).toEqual({ birth_date: '' });
  });

  it('a 3-2-4 input formats as ddd-dd-dddd while typing', async () => {
    function Ssn() {
      const [value, setValue] = useState<AnswerValue>('');
      const field = { ...fieldByKey.get('alien_registration_number')!, type: 'ssn' as const, label: 'Number' };
      return <FormField field={field} value={value} loggedIn onChange={(u) => setValue(u.alien_registration_number as string)} />;
    }
    const screen = await render(<Ssn />);
    await userEvent.type(screen.getByLabelText('Number'), '123456789');
    await expect.element(screen.getByLabelText('Number')).toHaveValue('123-45-6789');
  });

  it('a text input is limited to 45 characters by default', async () => {
    const screen = await render(<Harness fieldKey="middle_name" />);
    await expect.element(screen.getByLabelText('Middle Name')).toHaveAttribute('maxlength', '45');
  });

  it('ties errors to the control with a hidden "Error:" and marks it invalid', async () => {
    const screen = await render(<Harness fieldKey="first_name" errors={['Legal First Name']} />);
    const input = screen.getByLabelText('Legal First Name');
    await expect.element(input).toHaveAttribute('aria-invalid', 'true');
    await expect.element(input).toHaveAccessibleDescription('Error: Legal First Name');
    expect(await axeViolations()).toEqual([]);
  });

  it.each(['first_name', 'country', 'citizenship_type', 'legal_agree', 'additional_info_essay', 'birth_date', 'phone_home'])(
    '%s has no axe violations',
    async (key) => {
      await render(<Harness fieldKey={key} />);
      expect(await axeViolations()).toEqual([]);
    },
  );
});
