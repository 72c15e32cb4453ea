import { useQuery } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { entryTermOptions } from '../../../../domain/catalogue/lists';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { APPLICATION_PAGE_SIZE as PAGE_SIZE, applicationCountsQuery, applicationListQuery, applicationsQuery } from './api/applications';
import { applicationPath, whenText } from '../paths';
import { Pager, toggled, useListParams } from '../kit/listControls';
import { DecideSelection } from '../decisions/DecideSelection';
import { WorkflowSelection } from '../review/WorkflowSelection';
import { binsQuery } from '../review/api/review';
import { checklistRulesQuery } from '../materials/api/checklist';
import { useStaffMe } from '../session/SignedInConsole';
import { staffRoleCovers } from '../../../../domain/staff';

const STATUSES = [
  { value: 'started', label: 'Started' },
  { value: 'validating', label: 'Validating' },
  { value: 'submitted', label: 'Submitted' },
] as const;
/** The checklist filters (issue 31): complete, still awaiting something, or awaiting one item of the rules in force. */
const materialsOptions = (items: readonly { key: string; label: string }[]) => [
  { value: 'complete', label: 'Complete' },
  { value: 'incomplete', label: 'Still awaiting something' },
  ...items.map((item) => ({ value: `missing:${item.key}`, label: `Missing: ${item.label}` })),
];
const statusLabel = (status: string) => STATUSES.find((s) => s.value === status)?.label ?? status;

/** The applications, a page at a time: filters and search live in the address, so back and forward keep them. */
export function ApplicationsList() {
  const { params, change } = useListParams();
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
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const tick = (id: string) =>
    setTicked((current) => toggled(current, id));
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

  const data = list.data;
  const selectedIds = data ? data.items.filter((item) => ticked.has(item.id)).map((item) => item.id) : [];
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <>
      <h1>{title}</h1>
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
            <label htmlFor="staff-sort">
              Sort by submitted date{' '}
              <select id="staff-sort" className="input input--outlined" value={query.sort === 'submitted_asc' ? 'submitted_asc' : ''} onChange={(event) => change({ sort: event.target.value || undefined })}>
                <option value="">Newest first</option>
                <option value="submitted_asc">Oldest first</option>
              </select>
            </label>
          </div>
          {data.items.length > 0 && (
            <div className="staff-table-wrap" tabIndex={0} role="region" aria-label="Applications table">
              <table className="staff-table">
                <thead>
                  <tr>
                    {decider && <th scope="col">Select</th>}
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Status</th>
                    <th scope="col" aria-sort={query.sort === 'submitted_asc' ? 'ascending' : 'descending'}>Submitted</th>
                    <th scope="col">Entry term</th>
                    <th scope="col">Intended major</th>
                    <th scope="col">High school</th>
                    <th scope="col">Bin</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((item) => (
                    <tr key={item.id}>
                      {decider && (
                        <td>
                          {item.status === 'submitted' && (
                            <input type="checkbox" className="staff-check" checked={ticked.has(item.id)} onChange={() => tick(item.id)} aria-label={`Select ${item.name}`} />
                          )}
                        </td>
                      )}
                      <th scope="row">
                        <Link to={applicationPath(item.id, params)} ref={item.id === returnedTo ? focusReturned : undefined}>
                          {item.name}
                        </Link>
                      </th>
                      <td>{item.email}</td>
                      <td>{statusLabel(item.status)}</td>
                      <td>{whenText(item.submitted_at)}</td>
                      <td>{item.entry_term ?? '—'}</td>
                      <td>{item.intended_major ?? '—'}</td>
                      <td>{item.high_school ?? '—'}</td>
                      <td>{item.bin ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {decider && data.items.some((item) => item.status === 'submitted') && (
            <>
              <DecideSelection selected={selectedIds} onDone={() => setTicked(new Set())} />
              <WorkflowSelection selected={selectedIds} onDone={() => setTicked(new Set())} />
            </>
          )}
          <Pager page={data.page} pages={pages} onPage={(next) => change({ page: String(next) })} />
        </>
      )}
    </>
  );
}
