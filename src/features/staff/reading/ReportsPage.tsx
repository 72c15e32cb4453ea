import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import type { components, operations } from '../../../../generated/api';
import { entryTermOptions } from '../../../../domain/catalogue/lists';
import { usePageTitle } from '../../../lib/usePageTitle';
import { $api } from '../../../lib/api/client';
import { Button } from '../../../ui/Button';
import { DataTable } from '../../../ui/DataTable';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';

type ReportField = components['schemas']['ReportField'];
type Group = components['schemas']['Report']['groups'][number];
type ReportQuery = operations['getReport']['parameters']['query'];

const FIELDS: { value: ReportField; label: string }[] = [
  { value: 'term', label: 'Entry term' },
  { value: 'major', label: 'Intended major' },
  { value: 'place', label: 'State, or country' },
  { value: 'school', label: 'High school' },
  { value: 'bin', label: 'Bin' },
  { value: 'status', label: 'Status' },
  { value: 'decision', label: 'Decision' },
  { value: 'reply', label: 'Reply' },
  { value: 'checklist', label: 'Checklist' },
  { value: 'recommendation', label: 'Recommendation' },
];
const fieldLabel = (field: ReportField) => FIELDS.find((each) => each.value === field)!.label;
const isField = (value: string | null): value is ReportField => FIELDS.some((field) => field.value === value);

/** The list's filter a group's value opens (server/reader/reports.test.ts checks each opens exactly its count). */
function listFilterOf(field: ReportField, value: string): Record<string, string> {
  switch (field) {
    case 'term':
      return { entry_term: value };
    case 'recommendation':
      return { score: `recommended:${value}`, score_min: '1' };
    default:
      return { [field]: value };
  }
}

/** The filters a report keeps from its address, as the list reads them. */
const FILTER_KEYS = ['status', 'entry_term', 'bin', 'checklist'] as const;

/** A cell a spreadsheet would run as a formula is kept as text (as the office's spreadsheet exports do). */
const csvCell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Bars of each group's total, drawn with SVG's own attributes (the console's policy allows no inline style). */
function Chart({ totals, title }: { totals: { label: string; count: number }[]; title: string }) {
  const shown = totals.slice(0, 20);
  const max = Math.max(1, ...shown.map((total) => total.count));
  const ROW = 22;
  return (
    <figure className="staff-chart">
      <svg viewBox={`0 0 600 ${shown.length * ROW + 4}`} role="img" aria-label={`Bar chart: ${title}, the ${shown.length} largest groups. The table below has every figure.`}>
        {shown.map((total, index) => (
          <g key={total.label}>
            <text x={196} y={index * ROW + 15} textAnchor="end" className="staff-chart__label">
              {total.label.length > 30 ? `${total.label.slice(0, 29)}…` : total.label}
            </text>
            <rect x={200} y={index * ROW + 4} height={ROW - 8} width={Math.max(1, (total.count / max) * 340)} className="staff-chart__bar" />
            <text x={204 + (total.count / max) * 340} y={index * ROW + 15} className="staff-chart__label">
              {total.count.toLocaleString('en-US')}
            </text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

/**
 * Reports (issue 51 §1): applications counted by one field or two, with the list's filters, as a
 * table and a chart, downloadable as CSV; every figure opens the list of those applications.
 */
export function ReportsPage() {
  usePageTitle('Reports');
  const [params, setParams] = useSearchParams();
  const by: ReportField = isField(params.get('by')) ? (params.get('by') as ReportField) : 'term';
  const then = isField(params.get('then')) && params.get('then') !== by ? (params.get('then') as ReportField) : undefined;
  const filters = Object.fromEntries(FILTER_KEYS.flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : [])));
  const query: ReportQuery = {
    by,
    ...(then ? { then } : {}),
    ...(filters.status === 'started' || filters.status === 'validating' || filters.status === 'submitted' ? { status: filters.status } : {}),
    ...(filters.entry_term ? { entry_term: filters.entry_term } : {}),
    ...(/^\d+$/.test(filters.bin ?? '') ? { bin: Number(filters.bin) } : {}),
    ...(filters.checklist === 'complete' || filters.checklist === 'incomplete' ? { checklist: filters.checklist } : {}),
  };
  const report = useQuery($api.queryOptions('get', '/staff/api/reports', { params: { query } }, { retry: false, placeholderData: (previous) => previous }));
  const change = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged);
  };
  const listLink = (group: Group) => {
    if (group.by_value === null || (then && group.then_value === null)) return null;
    const search = new URLSearchParams({ ...filters, ...listFilterOf(by, group.by_value), ...(then && group.then_value !== null ? listFilterOf(then, group.then_value) : {}) });
    return `/staff?${search.toString()}`;
  };
  const data = report.data;
  const groups = data?.groups ?? [];
  // Two fields: a table of the first's groups by the second's.
  const rows = [...new Set(groups.map((group) => group.by))];
  const columns = then ? [...new Set(groups.map((group) => group.then ?? ''))] : [];
  const totals = rows.map((label) => ({ label, count: groups.filter((group) => group.by === label).reduce((sum, group) => sum + group.count, 0) }));
  const cell = (row: string, column?: string) => groups.find((group) => group.by === row && (column === undefined || group.then === column));
  const figure = (group: Group | undefined) => {
    if (!group) return '0';
    const to = listLink(group);
    const count = group.count.toLocaleString('en-US');
    return to ? <Link to={to}>{count}</Link> : count;
  };
  const download = () => {
    const header = then ? [fieldLabel(by), ...columns, 'Total'] : [fieldLabel(by), 'Applications'];
    const lines = rows.map((row) => (then ? [row, ...columns.map((column) => cell(row, column)?.count ?? 0), totals.find((total) => total.label === row)!.count] : [row, cell(row)!.count]));
    const text = [header, ...lines].map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    link.download = `report-${by}${then ? `-${then}` : ''}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const title = `Applications by ${fieldLabel(by).toLowerCase()}${then ? ` and ${fieldLabel(then).toLowerCase()}` : ''}`;
  return (
    <>
      <h1>Reports</h1>
      <div className="staff-filters">
        <Field id="report-by" label="Count by">
          <select id="report-by" className="input input--outlined" value={by} onChange={(event) => change({ by: event.target.value })}>
            {FIELDS.map((field) => (
              <option key={field.value} value={field.value}>
                {field.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="report-then" label="Then by">
          <Select id="report-then" value={then ?? ''} options={FIELDS.filter((field) => field.value !== by)} onChange={(value) => change({ then: value || undefined })} />
        </Field>
        <Field id="report-status" label="Status">
          <Select
            id="report-status"
            value={query.status ?? ''}
            options={[
              { value: 'started', label: 'Started' },
              { value: 'validating', label: 'Checked for missing answers' },
              { value: 'submitted', label: 'Submitted' },
            ]}
            onChange={(value) => change({ status: value || undefined })}
          />
        </Field>
        <Field id="report-term" label="Entry term">
          <Select id="report-term" value={query.entry_term ?? ''} options={entryTermOptions()} onChange={(value) => change({ entry_term: value || undefined })} />
        </Field>
      </div>
      {report.isPending && <Loading label="Counting the applications" />}
      {report.isError && <p role="alert">{report.error?.message}</p>}
      {data && (
        <section aria-labelledby="report-title">
          <h2 id="report-title">{title}</h2>
          <p role="status">
            {data.total.toLocaleString('en-US')} application{data.total === 1 ? '' : 's'}.
            {by === 'recommendation' || then === 'recommendation' ? ' An application counts once for each recommendation its reviews make.' : ''}
          </p>
          {rows.length > 0 && (
            <>
              <Chart totals={totals} title={title} />
              <p>
                <Button variant="secondary" onClick={download}>
                  Download as CSV
                </Button>
              </p>
              <DataTable
                label={title}
                rows={rows}
                rowKey={(row) => row}
                columns={[
                  { key: 'label', header: fieldLabel(by), rowHeader: true, cell: (row) => row },
                  ...(then
                    ? [
                        ...columns.map((column) => ({ key: `then:${column}`, header: column, cell: (row: string) => figure(cell(row, column)) })),
                        { key: 'total', header: 'Total', cell: (row: string) => totals.find((total) => total.label === row)!.count.toLocaleString('en-US') },
                      ]
                    : [{ key: 'count', header: 'Applications', cell: (row: string) => figure(cell(row)) }]),
                ]}
              />
            </>
          )}
        </section>
      )}
    </>
  );
}
