import { DataTable } from '../../../ui/DataTable';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { entryTermOptions } from '../../../../domain/catalogue/lists';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { APPLICATION_PAGE_SIZE as PAGE_SIZE, applicationCountsQuery, applicationListQuery, applicationsQuery } from './api/applications';
import { applicationPath, whenText } from '../paths';
import { Pager, useListParams } from '../kit/listControls';
import { forgetReadingRun } from './useListNeighbours';
import { DecideSelection } from '../decisions/DecideSelection';
import { WorkflowSelection } from '../review/WorkflowSelection';
import { binsQuery } from '../review/api/review';
import { checklistRulesQuery } from '../materials/api/checklist';
import { useStaffMe } from '../session/SignedInConsole';
import { staffRoleCovers } from '../../../../domain/staff';
import { scoreMeasureLabel, scoreMeasureOf, scoreText, type ScoreMeasure } from '../../../../domain/scores';
import type { components } from '../../../../generated/api';
import { ScoreFilter } from './ScoreFilter';
import { ListColumnsChooser, useListColumns } from './ListColumns';
import { SavedViews } from './SavedViews';

const STATUSES = [
  { value: 'started', label: 'Started' },
  // The applicant's "validating" is their check of what is missing: the office reads it so (issue 51 §4).
  { value: 'validating', label: 'Checked for missing answers' },
  { value: 'submitted', label: 'Submitted' },
] as const;
/** The checklist filters (issue 31): complete, still awaiting something, or awaiting one item of the rules in force. */
const materialsOptions = (items: readonly { key: string; label: string }[]) => [
  { value: 'complete', label: 'Complete' },
  { value: 'incomplete', label: 'Still awaiting something' },
  ...items.map((item) => ({ value: `missing:${item.key}`, label: `Missing: ${item.label}` })),
];
const statusLabel = (status: string) => STATUSES.find((s) => s.value === status)?.label ?? status;

type Item = components['schemas']['ApplicationSummary'];
/** A report's groups the list is narrowed to, named as the report names them. */
const REPORT_FILTER_NAMES = { major: 'intended major', place: 'state or country', school: 'high school', decision: 'decision', reply: 'reply' } as const;
const REPORT_VALUE_NAMES: Record<string, string> = { admit: 'Admit', deny: 'Deny', waitlist: 'Waitlist', defer: 'Defer', none: 'none yet', accept: 'Accepted', decline: 'Declined' };
type ScoreSummary = components['schemas']['ScoreSummary'];
/** A score the member may not see: a blind bin's file they have not reviewed (short: the columns keep to one line, 15 rows at 1366 × 900). */
const HIDDEN = 'Hidden';
/** The chosen scale's mean, or the chosen recommendation's count. */
function measureText(scores: ScoreSummary, measure: ScoreMeasure): string {
  if (measure.kind === 'mean') {
    const mean = scores.means.find((each) => each.scale === measure.name);
    return mean ? scoreText(mean.mean) : '—';
  }
  return String(scores.recommendations.find((each) => measure.kind === 'recommended' && each.recommendation === measure.name)?.count ?? 0);
}

/** The applications, a page at a time: filters and search live in the address, so back and forward keep them. */
export function ApplicationsList() {
  const { params, change } = useListParams();
  const navigate = useNavigate();
  const location = useLocation();
  const query = applicationListQuery(params);
  const title = query.queue === 'mine' ? 'My queue' : 'Applications';
  usePageTitle(title);
  const bins = useQuery(binsQuery);
  const rules = useQuery(checklistRulesQuery);
  // Back from an application: its row's link takes the focus (and the screen scrolls to it), so the reader is where they were.
  const returnedTo = params.get('at');
  const focusReturned = useCallback((link: HTMLAnchorElement | null) => link?.focus(), []);
  const decider = staffRoleCovers(useStaffMe().role, 'decider');
  // Back at the list: the next file opened begins a new run, in the order shown now (readingRun.ts).
  useEffect(() => forgetReadingRun(), []);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [acted, setActed] = useState(false);
  const done = () => {
    setTicked(new Set());
    setActed(true);
  };
  const list = useQuery(applicationsQuery(query));
  const latest = useQuery(applicationCountsQuery(query));
  // Applications arrived (or moved on) since the page was read: the reader chooses when it changes under them.
  const shown = list.data?.counts;
  const arrived = shown && latest.data ? (['started', 'validating', 'submitted'] as const).reduce((sum, key) => sum + Math.max(0, latest.data[key] - shown[key]), 0) : 0;
  const [search, setSearch] = useState(query.q ?? '');

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ q: search.trim() || undefined });
  };

  const columns = useListColumns();
  const reportFilters = (['major', 'place', 'school', 'decision', 'reply'] as const).flatMap((key) => (query[key] ? [[key, query[key]!] as const] : []));
  const measure = scoreMeasureOf(query.score ?? 'composite') ?? { kind: 'composite' as const };
  const ranked = query.sort === 'score_desc' || query.sort === 'score_asc' || query.score_min !== undefined || query.score_max !== undefined;
  const measureLabel = scoreMeasureLabel(measure);
  const data = list.data;
  const selectedIds = data ? data.items.filter((item) => ticked.has(item.id)).map((item) => item.id) : [];
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <>
      {/* The saved views beside the heading, not among the filters: the list keeps its 15 rows at 1366 × 900. */}
      <div className="staff-list-head">
        <h1>{title}</h1>
        <SavedViews params={params} columns={columns} onOpen={(opened, view) => navigate({ search: view ? `?${opened}${opened ? '&' : ''}view=${view}` : opened ? `?${opened}` : '' })} />
      </div>
      {data && (
        <ul className="staff-counts" aria-label="Applications by status">
          {STATUSES.map((s) => (
            <li key={s.value}>
              <span className="staff-counts__number">{data.counts[s.value].toLocaleString('en-US')}</span> {s.label.toLowerCase()}
            </li>
          ))}
        </ul>
      )}
      <div className="staff-filters">
        <form role="search" aria-label="Applications" onSubmit={submitSearch} className="staff-filters__search">
          <Field id="staff-search" label="Name or e-mail">
            <div className="field__control">
              <input id="staff-search" className="input input--outlined" type="search" value={search} onChange={(event) => setSearch(event.target.value)} maxLength={200} />
              <Button type="submit">Search</Button>
            </div>
          </Field>
        </form>
        <Field id="staff-status" label="Status">
          <Select id="staff-status" value={query.status ?? ''} options={[...STATUSES]} onChange={(value) => change({ status: value || undefined })} />
        </Field>
        <Field id="staff-term" label="Entry term">
          <Select id="staff-term" value={query.entry_term ?? ''} options={entryTermOptions()} onChange={(value) => change({ entry_term: value || undefined })} />
        </Field>
        <Field id="staff-bin" label="Bin">
          <Select
            id="staff-bin"
            value={query.bin !== undefined ? String(query.bin) : ''}
            options={[...(bins.data?.bins ?? []).map((b) => ({ value: String(b.id), label: `${b.name} (${b.count.toLocaleString('en-US')})` })), { value: '0', label: 'No bin' }]}
            onChange={(value) => change({ bin: value || undefined })}
          />
        </Field>
        <Field id="staff-materials" label="Materials">
          <Select
            id="staff-materials"
            value={query.missing ? `missing:${query.missing}` : (query.checklist ?? '')}
            options={materialsOptions(rules.data?.rules ?? [])}
            onChange={(value) => change(value.startsWith('missing:') ? { checklist: undefined, missing: value.slice('missing:'.length) } : { checklist: value || undefined, missing: undefined })}
          />
        </Field>
      </div>
      {reportFilters.length > 0 && (
        <p className="staff-report-filters">
          Also narrowed to {reportFilters.map(([key, value]) => `${REPORT_FILTER_NAMES[key]}: ${REPORT_VALUE_NAMES[value] ?? value}`).join('; ')}.{' '}
          <Button variant="text" onClick={() => change(Object.fromEntries(reportFilters.map(([key]) => [key, undefined])))}>
            Show them all
          </Button>
        </p>
      )}
      {(location.state as { conflictDeclared?: boolean } | null)?.conflictDeclared && <p role="status">Conflict of interest declared: that application is no longer shown to you.</p>}
      {(location.state as { notice?: string } | null)?.notice && <p role="status">{(location.state as { notice: string }).notice}</p>}
      <div role="status" className="staff-arrived">
        {arrived > 0 && (
          <>
            {arrived === 1 ? '1 application arrived or moved on.' : `${arrived} applications arrived or moved on.`}{' '}
            <Button variant="secondary" onClick={() => void Promise.all([list.refetch(), latest.refetch()])}>
              Show the list as it is now
            </Button>
          </>
        )}
      </div>
      {list.isPending && <Loading label="Loading applications" />}
      {list.isError && <p role="alert">{list.error?.message}</p>}
      {data && (
        <>
          {/* The order beside the count, not among the filters: the filters stay on one row and the list starts higher. */}
          <div className="staff-total">
            <p role="status">{data.total === 0 ? 'No applications match.' : `${data.total.toLocaleString('en-US')} application${data.total === 1 ? '' : 's'}, page ${data.page} of ${pages}.`}</p>
            <ListColumnsChooser columns={columns} />
            <ScoreFilter key={`${query.score}|${query.score_min}|${query.score_max}`} score={query.score ?? 'composite'} min={query.score_min} max={query.score_max} onApply={change} />
            <label htmlFor="staff-sort">
              Sort by{' '}
              <select id="staff-sort" className="input input--outlined" value={query.sort === 'submitted_desc' ? '' : query.sort} onChange={(event) => change({ sort: event.target.value || undefined })}>
                <option value="">Newest submitted first</option>
                <option value="submitted_asc">Oldest submitted first</option>
                <option value="score_desc">Highest {measureLabel.toLowerCase()} first</option>
                <option value="score_asc">Lowest {measureLabel.toLowerCase()} first</option>
              </select>
            </label>
          </div>
          {data.items.length > 0 && (
            <DataTable
              label="Applications table"
              rows={data.items}
              rowKey={(item) => item.id}
              selection={decider ? { selected: ticked, onChange: setTicked, label: (item) => `Select ${item.name}`, selectable: (item) => item.status === 'submitted' } : undefined}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  rowHeader: true,
                  cell: (item: Item) => (
                    <Link to={applicationPath(item.id, params)} ref={item.id === returnedTo ? focusReturned : undefined}>
                      {item.name}
                    </Link>
                  ),
                },
                ...(
                  [
                    { key: 'email', header: 'E-mail', cell: (item: Item) => item.email },
                    { key: 'status', header: 'Status', cell: (item: Item) => statusLabel(item.status) },
                    {
                      key: 'submitted',
                      header: 'Submitted',
                      cell: (item: Item) => whenText(item.submitted_at),
                      sort: { direction: query.sort === 'submitted_asc' ? ('ascending' as const) : ('descending' as const), onSort: () => change({ sort: query.sort === 'submitted_asc' ? undefined : 'submitted_asc' }) },
                    },
                    { key: 'term', header: 'Entry term', cell: (item: Item) => item.entry_term ?? '—' },
                    { key: 'major', header: 'Intended major', cell: (item: Item) => item.intended_major ?? '—' },
                    { key: 'school', header: 'High school', cell: (item: Item) => item.high_school ?? '—' },
                    { key: 'bin', header: 'Bin', cell: (item: Item) => item.bin ?? '—' },
                    { key: 'reviews', header: 'Reviews', cell: (item: Item) => (item.scores ? String(item.scores.reviews) : HIDDEN) },
                  ] as const
                ).filter((column) => columns.shown(column.key)),
                // The score the list is ranked or filtered by shows whatever the columns chosen.
                ...(measure.kind === 'mean' || measure.kind === 'recommended' ? [{ key: 'measure', header: measureLabel, cell: (item: Item) => (item.scores ? measureText(item.scores, measure) : HIDDEN) }] : []),
                ...(columns.shown('composite') || (measure.kind === 'composite' && ranked)
                  ? [{ key: 'composite', header: 'Composite', cell: (item: Item) => (item.scores ? (item.scores.composite === null ? '—' : scoreText(item.scores.composite)) : HIDDEN) }]
                  : []),
              ]}
            />
          )}
          {/* Kept while rows are ticked and once used: the list read again after a move that empties it
              (a bin's last files) must not take the bar, and what it said, away (issue 51 §4). */}
          {decider && (ticked.size > 0 || acted || data.items.some((item) => item.status === 'submitted')) && (
            <>
              {selectedIds.length > 0 && (
                <p>
                  <Link className="button button--secondary" to={`/staff/committee?ids=${selectedIds.join(',')}`}>
                    Read them as the committee ({selectedIds.length})
                  </Link>
                </p>
              )}
              <DecideSelection selected={selectedIds} onDone={done} />
              <WorkflowSelection selected={selectedIds} onDone={done} />
            </>
          )}
          <Pager page={data.page} pages={pages} onPage={(next) => change({ page: String(next) })} />
        </>
      )}
    </>
  );
}
