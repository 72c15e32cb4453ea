import type { ReactNode } from 'react';

/** One column: its header, what each row shows in it, and how it sorts (when it does). */
interface Column<Row> {
  key: string;
  header: string;
  /** A header only a screen reader needs (a column of buttons): said, not shown. */
  hideHeader?: boolean;
  cell: (row: Row) => ReactNode;
  /** The cell that names the row (a `th` with `scope="row"`): a screen reader says it with each cell of the row. */
  rowHeader?: boolean;
  /** A column the screen sorts by: where it stands, and what pressing its header does (the caller sorts, often the server). */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

/** Rows a person ticks for an action on several at once (move, assign, decide). */
interface Selection<Row> {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** Each box's label, naming its row ("Select Jordan Rivera", "Release the decision on Jordan Rivera"). */
  label: (row: Row) => string;
  /** Rows that can be ticked (a row that cannot shows no box); all when not given. */
  selectable?: (row: Row) => boolean;
}

interface DataTableProps<Row> {
  /** The scrolling region's name. */
  label: string;
  /** The table's own name, said and not shown (a screen reader's list of tables). */
  caption?: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly Column<Row>[];
  selection?: Selection<Row>;
}

const NEXT_SORT_SAYS = { ascending: 'descending', descending: 'ascending', none: 'ascending' } as const;

/**
 * The console's table: a named region that scrolls sideways on a phone and can be scrolled by
 * the keyboard, headers that say how the rows are sorted (and sort when pressed), a row header
 * per row, and, for a selection, a box per row and one that ticks every row shown.
 */
export function DataTable<Row>({ label, caption, rows, rowKey, columns, selection }: DataTableProps<Row>) {
  const tickable = selection ? rows.filter((row) => selection.selectable?.(row) ?? true) : [];
  const ticked = selection ? tickable.filter((row) => selection.selected.has(rowKey(row))).length : 0;
  // `indeterminate` is a property, not an attribute: set on the element as it is drawn (no effect).
  const some = ticked > 0 && ticked < tickable.length;
  const markSome = (input: HTMLInputElement | null) => {
    if (input) input.indeterminate = some;
  };

  const toggle = (key: string) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selection.onChange(next);
  };
  const toggleAll = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    const keys = tickable.map(rowKey);
    if (ticked === tickable.length) keys.forEach((key) => next.delete(key));
    else keys.forEach((key) => next.add(key));
    selection.onChange(next);
  };

  return (
    <div className="data-table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="data-table">
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {selection && (
              <th scope="col">
                <input
                  ref={markSome}
                  type="checkbox"
                  className="data-table__check"
                  checked={tickable.length > 0 && ticked === tickable.length}
                  disabled={tickable.length === 0}
                  onChange={toggleAll}
                  aria-label={`Select all ${tickable.length} shown`}
                />
              </th>
            )}
            {columns.map((column) => (
              <th key={column.key} scope="col" aria-sort={column.sort?.direction}>
                {column.sort ? (
                  <button type="button" className="data-table__sort" onClick={column.sort.onSort} aria-label={`${column.header}: sort ${NEXT_SORT_SAYS[column.sort.direction]}`}>
                    {column.header}
                    <span aria-hidden="true">{column.sort.direction === 'ascending' ? ' ▲' : column.sort.direction === 'descending' ? ' ▼' : ''}</span>
                  </button>
                ) : column.hideHeader ? (
                  <span className="visually-hidden">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            return (
              <tr key={key}>
                {selection && (
                  <td>
                    {(selection.selectable?.(row) ?? true) && (
                      <input type="checkbox" className="data-table__check" checked={selection.selected.has(key)} onChange={() => toggle(key)} aria-label={selection.label(row)} />
                    )}
                  </td>
                )}
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th key={column.key} scope="row">
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.key}>{column.cell(row)}</td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
