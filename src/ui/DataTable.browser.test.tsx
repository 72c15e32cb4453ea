import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { userEvent } from 'vitest/browser';
import { expectNoViolationsAtBothWidths } from '../test/axe';
import { tap } from '../test/hands';
import { DataTable } from './DataTable';

interface Applicant {
  id: string;
  name: string;
  status: 'started' | 'submitted';
  submitted: string;
}

const applicants: Applicant[] = [
  { id: 'a', name: 'Jordan Rivera', status: 'submitted', submitted: 'Nov 2' },
  { id: 'b', name: 'Mei Wang', status: 'submitted', submitted: 'Nov 3' },
  { id: 'c', name: 'Ana Souza', status: 'started', submitted: '—' },
];

/** The list as the console shows it: sorted by the submitted date, boxes for the submitted ones. */
function List() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [oldestFirst, setOldestFirst] = useState(false);
  const rows = oldestFirst ? applicants : [...applicants].reverse();
  return (
    <main>
      <h1>Applications</h1>
      <DataTable
        label="Applications table"
        caption="Applications"
        rows={rows}
        rowKey={(row) => row.id}
        selection={{ selected, onChange: setSelected, label: (row) => `Select ${row.name}`, selectable: (row) => row.status === 'submitted' }}
        columns={[
          { key: 'name', header: 'Name', rowHeader: true, cell: (row) => row.name },
          { key: 'submitted', header: 'Submitted', cell: (row) => row.submitted, sort: { direction: oldestFirst ? 'ascending' : 'descending', onSort: () => setOldestFirst((was) => !was) } },
          { key: 'actions', header: 'Actions', hideHeader: true, cell: (row) => <button type="button">{`Open ${row.name}`}</button> },
        ]}
      />
      <p role="status">{`${selected.size} selected`}</p>
    </main>
  );
}

const firstRowName = () => document.querySelector('tbody th')?.textContent;

describe('DataTable', () => {
  it('names its region and its table, heads each row, and says a hidden header only to a screen reader', async () => {
    const screen = await render(<List />);
    await expect.element(screen.getByRole('region', { name: 'Applications table' })).toHaveAttribute('tabindex', '0');
    await expect.element(screen.getByRole('table', { name: 'Applications' })).toBeVisible();
    await expect.element(screen.getByRole('rowheader', { name: 'Mei Wang' })).toBeVisible();
    await expect.element(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Actions' }).element().textContent).toBe('Actions');
    expect((screen.getByRole('columnheader', { name: 'Actions' }).element().firstElementChild as HTMLElement).className).toBe('visually-hidden');
    await expectNoViolationsAtBothWidths();
  });

  it('sorts by a header pressed by pointer, by keyboard and by touch, saying the order in aria-sort', async () => {
    const screen = await render(<List />);
    const header = screen.getByRole('columnheader', { name: /Submitted/ });
    await expect.element(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstRowName()).toBe('Ana Souza');
    await screen.getByRole('button', { name: 'Submitted: sort ascending' }).click();
    await expect.element(header).toHaveAttribute('aria-sort', 'ascending');
    expect(firstRowName()).toBe('Jordan Rivera');
    (screen.getByRole('button', { name: 'Submitted: sort descending' }).element() as HTMLElement).focus();
    await userEvent.keyboard('{Enter}');
    await expect.element(header).toHaveAttribute('aria-sort', 'descending');
    await tap(screen.getByRole('button', { name: 'Submitted: sort ascending' }));
    await expect.element(header).toHaveAttribute('aria-sort', 'ascending');
  });

  it('ticks rows one by one and all shown at once, by each hand; a row that cannot be chosen has no box', async () => {
    const screen = await render(<List />);
    expect(screen.getByRole('checkbox', { name: 'Select Ana Souza' }).query()).toBeNull();
    const all = screen.getByRole('checkbox', { name: 'Select all 2 shown' });
    // A pointer ticks one: the box for all is then neither ticked nor empty.
    await screen.getByRole('checkbox', { name: 'Select Mei Wang' }).click();
    await expect.element(screen.getByRole('status')).toHaveTextContent('1 selected');
    expect((all.element() as HTMLInputElement).indeterminate).toBe(true);
    // The keyboard ticks every row shown.
    (all.element() as HTMLElement).focus();
    await userEvent.keyboard(' ');
    await expect.element(screen.getByRole('status')).toHaveTextContent('2 selected');
    await expect.element(all).toBeChecked();
    expect((all.element() as HTMLInputElement).indeterminate).toBe(false);
    // A finger unticks them all.
    await tap(all);
    await expect.element(screen.getByRole('status')).toHaveTextContent('0 selected');
    await expect.element(screen.getByRole('checkbox', { name: 'Select Jordan Rivera' })).not.toBeChecked();
  });
});
