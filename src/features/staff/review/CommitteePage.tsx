import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { components } from '../../../../generated/api';
import { DECISION_NAMES } from '../../../../domain/decisions';
import { scoreText } from '../../../../domain/scores';
import { usePageTitle } from '../../../lib/usePageTitle';
import { Button } from '../../../ui/Button';
import { DataTable } from '../../../ui/DataTable';
import { Field } from '../../../ui/Field';
import { Loading } from '../../../ui/Loading';
import { Select } from '../../../ui/Select';
import { DecideSelection } from '../decisions/DecideSelection';
import { applicationPath } from '../paths';
import { binsQuery, committeeQuery } from './api/review';

type CommitteeItem = components['schemas']['CommitteeItem'];
type Direction = 'ascending' | 'descending';
/** What the table is ordered by: the composite (the server's order), the name, or a scale's mean. */
type Order = { key: string; direction: Direction };

const meanOf = (item: CommitteeItem, scale: string) => item.scores.means.find((mean) => mean.scale === scale)?.mean ?? null;

/** The rows in the order chosen; those without a value last either way, as the list orders. */
function ordered(items: readonly CommitteeItem[], order: Order): CommitteeItem[] {
  const valueOf = (item: CommitteeItem): number | string | null => (order.key === 'name' ? item.name : order.key === 'composite' ? item.scores.composite : meanOf(item, order.key.slice('mean:'.length)));
  const sign = order.direction === 'ascending' ? 1 : -1;
  return [...items].sort((a, b) => {
    const [x, y] = [valueOf(a), valueOf(b)];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (typeof x === 'string' ? x.localeCompare(String(y)) : x - Number(y));
  });
}

const decisionText = (decision: CommitteeItem['decision']) => (decision ? `${DECISION_NAMES[decision.decision]}${decision.released ? ', released' : ' (provisional)'}` : '—');

/** Each review side by side in its row: who, each rating, what they recommend, what they wrote. */
function Reviews({ item }: { item: CommitteeItem }) {
  if (!item.reviews.length) return <>No reviews yet.</>;
  return (
    <ul className="staff-committee__reviews">
      {item.reviews.map((review) => (
        <li key={review.reviewer_email}>
          <span className="staff-notes__meta">{review.reviewer_email}</span>: {review.ratings.map((rating) => `${rating.scale} ${rating.label}`).join(', ')}. <strong>{review.recommendation}</strong>
          {review.comment && <q className="staff-committee__comment">{review.comment}</q>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The committee (issue 51 §1): a bin or the applications ticked in the list, ranked by composite,
 * every reviewer's ratings, recommendation and comment side by side; sortable, printable, and
 * decided in place (the rows ticked, as in the list).
 */
export function CommitteePage() {
  usePageTitle('Committee');
  const [params, setParams] = useSearchParams();
  const bins = useQuery(binsQuery);
  const bin = /^\d+$/.test(params.get('bin') ?? '') ? Number(params.get('bin')) : undefined;
  const ids = params.get('ids') ?? undefined;
  const chosen = bin !== undefined || ids !== undefined;
  const view = useQuery({ ...committeeQuery(ids ? { ids } : { bin }), enabled: chosen });
  const [order, setOrder] = useState<Order>({ key: 'composite', direction: 'descending' });
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const sortBy = (key: string) => ({
    direction: order.key === key ? order.direction : ('none' as const),
    onSort: () => setOrder({ key, direction: order.key === key && order.direction === 'descending' ? 'ascending' : 'descending' }),
  });
  const data = view.data;
  const rows = data ? ordered(data.items, order) : [];
  return (
    <>
      <h1>Committee</h1>
      <div className="staff-filters staff-committee__controls">
        <Field id="committee-bin" label="Bin">
          <Select
            id="committee-bin"
            value={bin !== undefined ? String(bin) : ''}
            options={[...(bins.data?.bins ?? []).map((b) => ({ value: String(b.id), label: `${b.name} (${b.count.toLocaleString('en-US')})` })), { value: '0', label: 'No bin' }]}
            onChange={(value) => setParams(value ? { bin: value } : {})}
          />
        </Field>
        {data && data.items.length > 0 && (
          <Button variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
        )}
      </div>
      {ids && !view.isPending && <p>The applications ticked in the list.</p>}
      {!chosen && <p>Choose a bin, or tick applications in the list and choose “Read them as the committee”.</p>}
      {chosen && view.isPending && <Loading label="Loading the applications" />}
      {view.isError && <p role="alert">{view.error?.message}</p>}
      {data && (
        <>
          <p role="status">
            {data.total === 0
              ? 'No applications here.'
              : data.shown < data.total
                ? `The first ${data.shown.toLocaleString('en-US')} of ${data.total.toLocaleString('en-US')} applications by composite score.`
                : `${data.total.toLocaleString('en-US')} application${data.total === 1 ? '' : 's'}.`}
          </p>
          {rows.length > 0 && (
            <DataTable
              label="Committee table"
              rows={rows}
              rowKey={(item) => item.id}
              selection={{ selected: ticked, onChange: setTicked, label: (item) => `Select ${item.name}`, selectable: (item) => item.status === 'submitted' }}
              columns={[
                { key: 'name', header: 'Name', rowHeader: true, cell: (item) => <Link to={applicationPath(item.id)}>{item.name}</Link>, sort: sortBy('name') },
                { key: 'composite', header: 'Composite', cell: (item) => (item.scores.composite === null ? '—' : scoreText(item.scores.composite)), sort: sortBy('composite') },
                ...data.scales.map((scale) => ({
                  key: `mean:${scale}`,
                  header: scale,
                  cell: (item: CommitteeItem) => {
                    const mean = meanOf(item, scale);
                    return mean === null ? '—' : scoreText(mean);
                  },
                  sort: sortBy(`mean:${scale}`),
                })),
                { key: 'reviews', header: 'Reviews', cell: (item) => <Reviews item={item} /> },
                { key: 'decision', header: 'Decision', cell: (item) => decisionText(item.decision) },
              ]}
            />
          )}
          {rows.some((item) => item.status === 'submitted') && <DecideSelection selected={rows.filter((item) => ticked.has(item.id)).map((item) => item.id)} onDone={() => setTicked(new Set())} />}
        </>
      )}
    </>
  );
}
