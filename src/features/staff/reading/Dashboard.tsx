import { DataTable } from '../../../ui/DataTable';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { pages } from '../../../../domain/catalogue/pages';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Loading } from '../../../ui/Loading';
import { dashboardQuery } from './api/applications';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 40, right: 8, top: 10, bottom: 24 };

const PAGE_NAMES: Record<string, string> = { none: 'No page recorded yet', ...Object.fromEntries(pages.map((page) => [page.path, page.title])) };

/**
 * Started and submitted per day as two lines in plain SVG (no charting library for two series),
 * with the same figures in a table for screen readers and for copying; and where unsubmitted
 * applications were last.
 */
export function Dashboard() {
  usePageTitle('Dashboard');
  const dashboard = useQuery(dashboardQuery);
  if (dashboard.isPending) return <Loading label="Loading the dashboard" />;
  if (dashboard.isError) return <p role="alert">{dashboard.error?.message}</p>;
  const { per_day, stopped_at, by_term, by_major, by_place, workload } = dashboard.data;
  const max = Math.max(1, ...per_day.flatMap((d) => [d.started, d.submitted]));
  const x = (i: number) => PAD.left + (i * (WIDTH - PAD.left - PAD.right)) / Math.max(1, per_day.length - 1);
  const y = (n: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - n / max);
  const line = (key: 'started' | 'submitted') => per_day.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(d[key]).toFixed(1)}`).join(' ');
  const totals = per_day.reduce((sum, d) => ({ started: sum.started + d.started, submitted: sum.submitted + d.submitted }), { started: 0, submitted: 0 });
  return (
    <>
      <h1>Dashboard</h1>
      <section aria-labelledby="per-day-title">
        <h2 id="per-day-title">Applications per day, last {per_day.length} days</h2>
        <p>
          {totals.started.toLocaleString('en-US')} started and {totals.submitted.toLocaleString('en-US')} submitted.
        </p>
        <figure className="staff-chart">
          <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Line chart: ${totals.started} started and ${totals.submitted} submitted over ${per_day.length} days. The table below has each day.`}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="staff-chart__axis" />
            <text x={PAD.left - 6} y={y(max) + 4} textAnchor="end" className="staff-chart__label">{max}</text>
            <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" className="staff-chart__label">0</text>
            <text x={PAD.left} y={HEIGHT - 6} className="staff-chart__label">{per_day[0]?.date}</text>
            <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="staff-chart__label">{per_day.at(-1)?.date}</text>
            <path d={line('started')} className="staff-chart__started" />
            <path d={line('submitted')} className="staff-chart__submitted" />
          </svg>
          <figcaption>
            <span className="staff-chart__key staff-chart__key--started">Started</span> <span className="staff-chart__key staff-chart__key--submitted">Submitted</span>
          </figcaption>
        </figure>
        <details>
          <summary>Each day as a table</summary>
          <DataTable
            label="Applications started and submitted per day"
            rows={per_day}
            rowKey={(d) => d.date}
            columns={[
              { key: 'day', header: 'Day', rowHeader: true, cell: (d) => d.date },
              { key: 'started', header: 'Started', cell: (d) => d.started },
              { key: 'submitted', header: 'Submitted', cell: (d) => d.submitted },
            ]}
          />
        </details>
      </section>
      <section aria-labelledby="stopped-title">
        <h2 id="stopped-title">Where applicants stop</h2>
        <p>Unsubmitted applications by the page they were last on.</p>
        {stopped_at.length === 0 ? (
          <p>Every application is submitted.</p>
        ) : (
          <DataTable
            label="Where applicants stop"
            rows={stopped_at}
            rowKey={(stop) => stop.page}
            columns={[
              { key: 'page', header: 'Page', rowHeader: true, cell: (stop) => PAGE_NAMES[stop.page] ?? stop.page },
              { key: 'count', header: 'Applications', cell: (stop) => stop.count.toLocaleString('en-US') },
            ]}
          />
        )}
      </section>
      <Workload lines={workload} />
      <Breakdown id="by-term" title="By entry term" rows={by_term} />
      <Breakdown id="by-major" title="By intended major" rows={by_major} />
      <Breakdown id="by-place" title="By state, or country outside the United States" rows={by_place} />
    </>
  );
}

/** Started (answered something, not submitted) and submitted applications by one answer. */
function Breakdown({ id, title, rows }: { id: string; title: string; rows: components['schemas']['DashboardBreakdown'] }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {rows.length === 0 ? (
        <p>No application yet.</p>
      ) : (
        <DataTable
          label={title}
          rows={rows}
          rowKey={(row) => row.label}
          columns={[
            { key: 'label', header: title.replace(/^By /, '').replace(/^./, (first) => first.toUpperCase()), rowHeader: true, cell: (row) => row.label },
            { key: 'started', header: 'Started', cell: (row) => row.started.toLocaleString('en-US') },
            { key: 'submitted', header: 'Submitted', cell: (row) => row.submitted.toLocaleString('en-US') },
          ]}
        />
      )}
    </section>
  );
}

/** "Nov 23": a day of the last fortnight, as a column's header. */
const dayHeader = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Each reader's reviews per day, and what they still hold (issue 51 §1): the last 7 days shown, the 14 counted. */
function Workload({ lines }: { lines: components['schemas']['StaffDashboard']['workload'] }) {
  const week = lines[0]?.days.slice(-7) ?? [];
  return (
    <section aria-labelledby="workload-title">
      <h2 id="workload-title">Readers’ work</h2>
      <p>Reviews signed each day, and in brackets the files still to read at its end (UTC).</p>
      {lines.length === 0 ? (
        <p>No reader has been given applications yet.</p>
      ) : (
        <DataTable
          label="Readers’ work"
          rows={lines}
          rowKey={(line) => line.email}
          columns={[
            { key: 'reader', header: 'Reader', rowHeader: true, cell: (line) => line.email },
            { key: 'open', header: 'To read now', cell: (line) => line.open.toLocaleString('en-US') },
            { key: 'reviewed', header: 'Reviewed, 14 days', cell: (line) => line.reviewed.toLocaleString('en-US') },
            ...week.map((day, index) => ({
              key: day.date,
              header: dayHeader(day.date),
              cell: (line: (typeof lines)[number]) => {
                const that = line.days.at(index - week.length)!;
                return `${that.reviewed} (${that.open})`;
              },
            })),
          ]}
        />
      )}
    </section>
  );
}
