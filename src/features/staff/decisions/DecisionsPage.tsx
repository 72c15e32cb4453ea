import { DataTable } from '../../../ui/DataTable';
import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DECISION_NAMES } from '../../../../domain/decisions';
import { fieldErrorsOf } from '../../../lib/api/errors';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { decisionsQuery, useRecallDecisions, useReleaseDecisions, type DecisionStateFilter } from './api/decisions';
import { Pager, useListParams } from '../kit/listControls';
import { applicationPath, whenText } from '../paths';

const STATES: { value: DecisionStateFilter; label: string }[] = [
  { value: 'provisional', label: 'Provisional (not released)' },
  { value: 'scheduled', label: 'Scheduled for release' },
  { value: 'released', label: 'Released' },
];
const PAGE_SIZE = 50;
const REPLY_TEXT = { accept: 'Accepted', decline: 'Declined' } as const;

/** A `datetime-local` value (the decider's own time) as the instant it names. */
const instantOf = (local: string) => new Date(local).toISOString();

/**
 * The decisions a page at a time, by state (in the address, so back and forward keep it). On the
 * provisional ones a decider picks a selection and releases it now or at a set time; scheduled
 * ones can be called back before their time.
 */
export function DecisionsPage() {
  usePageTitle('Decisions');
  const { params, change, page } = useListParams();
  const state = (STATES.find((s) => s.value === params.get('state'))?.value ?? 'provisional') as DecisionStateFilter;
  const list = useQuery(decisionsQuery(state, page));
  const release = useReleaseDecisions();
  const recall = useRecallDecisions();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [releaseAt, setReleaseAt] = useState('');
  const errors = fieldErrorsOf(release.error);

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const selectable = state === 'released' ? [] : (data?.items ?? []);
  const chosen = selectable.filter((item) => selected.has(item.application_id)).map((item) => item.application_id);
  const send = (at?: string) =>
    release.mutate({ application_ids: chosen, ...(at ? { release_at: instantOf(at) } : {}) }, { onSuccess: () => setSelected(new Set()) });

  return (
    <>
      <h1>Decisions</h1>
      <div className="staff-filters">
        <Field id="decision-state" label="Show">
          <Select id="decision-state" value={state} options={STATES} onChange={(value) => change({ state: value || undefined })} />
        </Field>
      </div>
      {release.data && (
        <p role="status">
          {release.data.scheduled === 1 ? '1 decision' : `${release.data.scheduled.toLocaleString('en-US')} decisions`} will be released {whenText(release.data.release_at)}.
        </p>
      )}
      <MutationError error={release.error} fields={errors} />
      {recall.data && <p role="status">{recall.data.recalled === 1 ? '1 decision' : `${recall.data.recalled.toLocaleString('en-US')} decisions`} called back: provisional again.</p>}
      <MutationError error={recall.error} />
      {list.isPending && <Loading label="Loading decisions" />}
      {list.isError && <p role="alert">{list.error?.message}</p>}
      {data && (
        <>
          <p role="status" className="staff-total">
            {data.total === 0 ? 'No decisions here.' : `${data.total.toLocaleString('en-US')} decision${data.total === 1 ? '' : 's'}, page ${data.page} of ${pages}.`}
          </p>
          {data.items.length > 0 && (
            <DataTable
              label="Decisions table"
              rows={data.items}
              rowKey={(item) => item.application_id}
              selection={state === 'released' ? undefined : { selected, onChange: setSelected, label: (item) => `${state === 'provisional' ? 'Release' : 'Call back'} the decision on ${item.name}` }}
              columns={[
                { key: 'name', header: 'Name', rowHeader: true, cell: (item) => <Link to={applicationPath(item.application_id)}>{item.name}</Link> },
                { key: 'decision', header: 'Decision', cell: (item) => DECISION_NAMES[item.decision] },
                { key: 'decided', header: 'Decided', cell: (item) => whenText(item.decided_at) },
                state === 'provisional' ? { key: 'by', header: 'Decided by', cell: (item) => item.decided_by } : { key: 'released', header: 'Released', cell: (item) => whenText(item.release_at) },
                ...(state === 'released' ? [{ key: 'reply', header: 'Reply', cell: (item: (typeof data.items)[number]) => (item.reply ? REPLY_TEXT[item.reply] : '—') }] : []),
              ]}
            />
          )}
          {state === 'provisional' && data.items.length > 0 && (
            <div className="staff-release">
              <p>
                <Button loading={release.isPending} aria-disabled={chosen.length === 0 || undefined} onClick={() => chosen.length > 0 && send()}>
                  Release {chosen.length === 1 ? '1 decision' : `${chosen.length} decisions`} now
                </Button>
              </p>
              <Field id="release-at" label="Or release at" hint="Your local time. The applicants see their decisions from then on." errors={errors?.release_at}>
                <div className="field__control">
                  <input id="release-at" className="input input--outlined" type="datetime-local" value={releaseAt} onChange={(event) => setReleaseAt(event.target.value)} />
                  <Button variant="secondary" loading={release.isPending} aria-disabled={chosen.length === 0 || !releaseAt || undefined} onClick={() => chosen.length > 0 && releaseAt && send(releaseAt)}>
                    Schedule
                  </Button>
                </div>
              </Field>
            </div>
          )}
          {state === 'scheduled' && data.items.length > 0 && (
            <div className="staff-release">
              <p>
                <Button
                  variant="secondary"
                  loading={recall.isPending}
                  aria-disabled={chosen.length === 0 || undefined}
                  onClick={() => chosen.length > 0 && recall.mutate({ application_ids: chosen }, { onSuccess: () => setSelected(new Set()) })}
                >
                  Call back {chosen.length === 1 ? '1 decision' : `${chosen.length} decisions`}
                </Button>
              </p>
            </div>
          )}
          <Pager page={data.page} pages={pages} onPage={(next) => change({ page: String(next) })} />
        </>
      )}
    </>
  );
}
