import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { userEvent } from 'vitest/browser';
import { axeViolations } from '../test/axe';
import { Checkbox } from './Checkbox';
import { DateInput } from './DateInput';
import { describedBy, Field, invalid } from './Field';
import { Popover } from './Popover';
import { RadioGroup } from './RadioGroup';
import { Select } from './Select';
import { Tabs } from './Tabs';
import { TextArea } from './TextArea';

const options = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];
const page = (children: ReactNode) => (
  <main>
    <h1>Controls</h1>
    {children}
  </main>
);
const text = { id: 'q', hint: 'A hint.' };

/** Every form control of ui/, drawn with the same label, hint and errors. */
const controls: Array<[name: string, draw: (errors?: string[]) => ReactNode]> = [
  [
    'text input in a Field',
    (errors) => (
      <Field {...text} label="Question" errors={errors}>
        <input id="q" className="input input--outlined" aria-invalid={invalid(errors)} aria-describedby={describedBy({ ...text, errors })} />
      </Field>
    ),
  ],
  [
    'Select',
    (errors) => (
      <Field {...text} label="Question" errors={errors}>
        <Select id="q" value="" options={options} onChange={() => {}} invalid={invalid(errors)} describedBy={describedBy({ ...text, errors })} />
      </Field>
    ),
  ],
  [
    'TextArea',
    (errors) => (
      <Field {...text} label="Question" errors={errors}>
        <TextArea id="q" value="" maxLength={100} onCommit={() => {}} invalid={invalid(errors)} describedBy={describedBy({ ...text, errors })} />
      </Field>
    ),
  ],
  [
    'DateInput',
    (errors) => (
      <Field {...text} label="Question" errors={errors}>
        <DateInput id="q" value="" onCommit={() => {}} invalid={invalid(errors)} describedBy={describedBy({ ...text, errors })} />
      </Field>
    ),
  ],
  ['RadioGroup', (errors) => <RadioGroup {...text} legend="Question" errors={errors} value={undefined} options={options} onChange={() => {}} />],
  ['Checkbox', (errors) => <Checkbox {...text} label="Question" errors={errors} checked={false} onChange={() => {}} />],
];

describe.each(controls)('%s', (_name, draw) => {
  it('is named by its label and described by its hint, without an axe violation', async () => {
    await render(page(draw()));
    const control = document.querySelector<HTMLElement>('#q-input, input#q, select#q, textarea#q')!;
    expect(control.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById('q-hint')?.textContent).toBe('A hint.');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows each error once, starting with a hidden "Error:", marks the control invalid, without an axe violation', async () => {
    await render(page(draw(['Say yes or no.', 'Say yes or no.'])));
    const control = document.querySelector<HTMLElement>('#q-input, input#q, select#q, textarea#q')!;
    expect(control.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelectorAll('#q-error > span')).toHaveLength(1);
    expect(document.getElementById('q-error')?.textContent).toBe('Error: Say yes or no.');
    const describedIds = (document.getElementById('q')!.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedIds).toEqual(expect.arrayContaining(['q-hint', 'q-error']));
    expect(await axeViolations()).toEqual([]);
  });
});

describe('Field around a plain control', () => {
  // A console form puts its own <input> in a Field: the Field ties its hint and errors to it, so a
  // refused field is said to be invalid, and why, as the ui's own controls are (issue 50).
  it('marks the control invalid and described by its hint and errors, and leaves what the control says itself', async () => {
    const screen = await render(
      page(
        <>
          <Field id="plain" label="Why" hint="Kept with the change." errors={['Say why.']}>
            <input id="plain" className="input input--outlined" />
          </Field>
          <Field id="own" label="Own" errors={['Wrong.']}>
            <input id="own" className="input input--outlined" aria-describedby="elsewhere" />
          </Field>
          <p id="elsewhere">Described elsewhere.</p>
        </>,
      ),
    );
    const plain = screen.getByLabelText('Why');
    await expect.element(plain).toHaveAttribute('aria-invalid', 'true');
    await expect.element(plain).toHaveAccessibleDescription('Kept with the change. Error: Say why.');
    await expect.element(screen.getByLabelText('Own')).toHaveAccessibleDescription('Described elsewhere.');
    expect(await axeViolations()).toEqual([]);
  });
});

describe('control behaviour', () => {
  it('Select reports the label of the chosen value, and none for the empty "--"', async () => {
    const onChange = vi.fn();
    const screen = await render(page(<Field id="q" label="Question"><Select id="q" value="" options={options} onChange={onChange} /></Field>));
    await userEvent.selectOptions(screen.getByLabelText('Question'), 'N');
    expect(onChange).toHaveBeenLastCalledWith('N', 'No');
    expect(screen.getByRole('option', { name: '--' }).element()).toBeTruthy();
  });

  it('TextArea keeps a draft, counts it, and commits on blur', async () => {
    const onCommit = vi.fn();
    const screen = await render(page(<><Field id="q" label="Question"><TextArea id="q" value="" maxLength={100} onCommit={onCommit} /></Field><button type="button">elsewhere</button></>));
    await userEvent.type(screen.getByLabelText('Question'), 'Hello');
    await expect.element(screen.getByText('Character count: 5 / 100')).toBeVisible();
    expect(onCommit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(onCommit).toHaveBeenCalledWith('Hello');
  });

  it('DateInput commits a real date only, and clears a committed one for anything else', async () => {
    function Harness() {
      const [value, setValue] = useState('');
      return page(
        <>
          <Field id="q" label="Question"><DateInput id="q" value={value} onCommit={setValue} /></Field>
          <output data-testid="committed">{value}</output>
        </>,
      );
    }
    const screen = await render(<Harness />);
    await userEvent.fill(screen.getByLabelText('Question'), '2008-04-17');
    await expect.element(screen.getByTestId('committed')).toHaveTextContent('2008-04-17');
    await userEvent.clear(screen.getByLabelText('Question'));
    await expect.element(screen.getByTestId('committed')).toHaveTextContent('');
  });

  it('Tabs: arrow keys move focus, a click chooses, only the chosen tab is in the tab order', async () => {
    function Harness() {
      const [selected, setSelected] = useState('a');
      return page(
        <Tabs label="Ways to answer" tabs={[{ id: 'a', label: 'Upload' }, { id: 'b', label: 'Write' }]} selected={selected} onSelect={setSelected}>
          <p>Panel {selected}</p>
        </Tabs>,
      );
    }
    const screen = await render(<Harness />);
    const upload = screen.getByRole('tab', { name: 'Upload' });
    const write = screen.getByRole('tab', { name: 'Write' });
    await expect.element(upload).toHaveAttribute('aria-selected', 'true');
    await expect.element(write).toHaveAttribute('tabindex', '-1');
    (upload.element() as HTMLElement).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(write.element());
    await userEvent.click(write);
    await expect.element(screen.getByRole('tabpanel')).toHaveTextContent('Panel b');
    await expect.element(write).toHaveAttribute('aria-selected', 'true');
    expect(await axeViolations()).toEqual([]);
  });

  it('Popover opens with focus inside, and Escape shuts it and returns focus to its button', async () => {
    const screen = await render(page(<Popover title="Account"><p>Signed in</p></Popover>));
    const button = screen.getByRole('button', { name: 'Account' });
    await userEvent.click(button);
    await expect.element(screen.getByRole('dialog', { name: 'Account' })).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await expect.element(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(button.element());
  });
});
