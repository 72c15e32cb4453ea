import { MutationError } from '../../../ui/MutationError';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Field } from '../../../ui/Field';
import { Select } from '../../../ui/Select';
import { binsQuery, readersQuery, useAssignApplications, useMoveApplications } from './api/review';
import { toggled } from '../kit/listControls';
import { NO_BIN } from './WorkflowPanel';

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A decider's bar under the list: the applications ticked moved into a bin, or shared out among readers (round-robin by load, skipping conflicts). */
export function WorkflowSelection({ selected, onDone }: { selected: readonly string[]; onDone: () => void }) {
  const bins = useQuery(binsQuery);
  const readers = useQuery(readersQuery);
  const move = useMoveApplications();
  const assign = useAssignApplications();
  const [bin, setBin] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [secondReader, setSecondReader] = useState(false);
  const what = selected.length === 1 ? 'the application ticked' : `the ${selected.length} applications ticked`;
  const readerIds = (readers.data ?? []).filter((r) => chosen.has(r.id)).map((r) => r.id);

  return (
    <div className="staff-release">
      <Field id="move-selection" label={`Move ${what} to`}>
        <div className="field__control">
          <Select id="move-selection" value={bin} options={[...(bins.data?.bins ?? []).map((b) => ({ value: String(b.id), label: b.name })), { value: NO_BIN, label: 'No bin' }]} onChange={setBin} />
          <Button
            variant="secondary"
            loading={move.isPending}
            aria-disabled={!bin || selected.length === 0 || undefined}
            onClick={() => bin && selected.length > 0 && move.mutate({ application_ids: [...selected], bin_id: bin === NO_BIN ? null : Number(bin) }, { onSuccess: onDone })}
          >
            Move
          </Button>
        </div>
      </Field>
      <div role="status">{move.data && `${counted(move.data.moved, 'application', 'applications')} moved.`}</div>
      <MutationError error={move.error} />
      <fieldset className="field staff-readers">
        <legend className="field__label">Give {what} to</legend>
        <span className="field__hint">One reader, or several to share them out: each goes to the one with the fewest to read, never to one with a conflict of interest.</span>
        {(readers.data ?? []).map((reader) => (
          <Checkbox key={reader.id} id={`share-${reader.id}`} label={`${reader.email} (${reader.open} to read)`} checked={chosen.has(reader.id)} onChange={() => setChosen((current) => toggled(current, reader.id))} />
        ))}
        <Checkbox id="share-second-reader" label="Give it to a second reader too, when another reader holds it" checked={secondReader} onChange={setSecondReader} />
        <Button
          variant="secondary"
          loading={assign.isPending}
          aria-disabled={readerIds.length === 0 || selected.length === 0 || undefined}
          onClick={() => readerIds.length > 0 && selected.length > 0 && assign.mutate({ application_ids: [...selected], reader_ids: readerIds, second_reader: secondReader }, { onSuccess: onDone })}
        >
          Give
        </Button>
      </fieldset>
      <div role="status">
        {assign.data &&
          `${counted(assign.data.assigned.length, 'application', 'applications')} given.${assign.data.skipped.length > 0 ? ` ${counted(assign.data.skipped.length, 'was', 'were')} not given: ${assign.data.skipped[0]!.reason}` : ''}`}
      </div>
      <MutationError error={assign.error} />
    </div>
  );
}
