import { useState } from 'react';
import type { components } from '../../../generated/api';
import { ServerError } from '../../lib/api/errors';
import { Button } from '../../ui/Button';
import { describedBy, Field, invalid } from '../../ui/Field';
import { useMarkChecklistItem } from './api/reading';
import { whenText } from './paths';

type Checklist = components['schemas']['Checklist'];
type ChecklistItem = Checklist['items'][number];

const STATUS_TEXT: Record<ChecklistItem['status'], string> = { awaiting: 'Awaiting', received: 'Received', waived: 'Waived' };

function ItemMarks({ applicationId, item }: { applicationId: string; item: ChecklistItem }) {
  const mark = useMarkChecklistItem(applicationId);
  const [waiving, setWaiving] = useState(false);
  const [reason, setReason] = useState('');
  const errors = mark.error instanceof ServerError ? mark.error.fieldErrors?.reason : undefined;
  const id = `waive-${item.key}`;
  if (item.status !== 'awaiting') {
    // A form document converted is the applicant's: nothing for staff to take back.
    if (item.by === 'the applicant') return null;
    return (
      <Button variant="text" loading={mark.isPending} onClick={() => mark.mutate({ key: item.key, status: 'awaiting' })} aria-label={`Mark ${item.label} awaiting again`}>
        Awaiting again
      </Button>
    );
  }
  return (
    <>
      <Button variant="secondary" loading={mark.isPending} onClick={() => mark.mutate({ key: item.key, status: 'received' })} aria-label={`Mark ${item.label} received`}>
        Received
      </Button>{' '}
      {!waiving ? (
        <Button variant="text" onClick={() => setWaiving(true)} aria-label={`Waive ${item.label}`}>
          Waive
        </Button>
      ) : (
        <form
          className="staff-checklist__waive"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            mark.mutate({ key: item.key, status: 'waived', reason }, { onSuccess: () => setWaiving(false) });
          }}
        >
          <Field id={id} label={`Why ${item.label} is waived`} errors={errors}>
            <input id={id} className="input input--outlined" value={reason} maxLength={1000} onChange={(event) => setReason(event.target.value)} aria-invalid={invalid(errors)} aria-describedby={describedBy({ id, errors })} />
          </Field>
          <Button type="submit" variant="secondary" loading={mark.isPending}>
            Waive it
          </Button>
        </form>
      )}
      {mark.isError && !errors && <span role="alert"> {mark.error.message}</span>}
    </>
  );
}

/** What a submitted application still needs (issue 31): each item awaiting, received or waived, and staff's marks. */
export function ChecklistPanel({ applicationId, checklist }: { applicationId: string; checklist: Checklist }) {
  return (
    <section aria-labelledby="checklist-title" className="staff-notes">
      <h2 id="checklist-title">Checklist</h2>
      <p role="status">{checklist.complete ? 'Complete: nothing is awaited.' : `${checklist.items.filter((item) => item.status === 'awaiting').length} of ${checklist.items.length} still awaited.`}</p>
      <ul className="staff-checklist">
        {checklist.items.map((item) => (
          <li key={item.key}>
            <strong>{item.label}</strong>: {STATUS_TEXT[item.status]}
            {item.by && ` (${item.by}${item.at ? `, ${whenText(item.at)}` : ''}${item.reason ? `: ${item.reason}` : ''})`}{' '}
            <ItemMarks applicationId={applicationId} item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}
