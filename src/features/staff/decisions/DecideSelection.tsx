import { MutationError } from '../../../ui/MutationError';
import { useState } from 'react';
import { DECISION_NAMES, DECISIONS, type Decision } from '../../../../domain/decisions';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Select } from '../../../ui/Select';
import { useDecideMany } from './api/decisions';

const OPTIONS = DECISIONS.map((value) => ({ value, label: DECISION_NAMES[value] }));

/** A decider's bar under the list: one decision for the applications ticked, provisional until released. */
export function DecideSelection({ selected, onDone }: { selected: readonly string[]; onDone: () => void }) {
  const [decision, setDecision] = useState<Decision | ''>('');
  const decide = useDecideMany();
  const ready = selected.length > 0 && decision !== '';
  return (
    <div className="staff-release">
      <Field id="decide-selection" label={`Decision for the ${selected.length === 1 ? 'application' : `${selected.length} applications`} ticked`}>
        <div className="field__control">
          <Select id="decide-selection" value={decision} options={OPTIONS} onChange={(value) => setDecision(value as Decision | '')} />
          <Button
            variant="secondary"
            loading={decide.isPending}
            aria-disabled={!ready || undefined}
            onClick={() => ready && decide.mutate({ application_ids: [...selected], decision }, { onSuccess: onDone })}
          >
            Record (provisional)
          </Button>
        </div>
      </Field>
      <div role="status">
        {decide.data &&
          `${decide.data.decided === 1 ? '1 decision' : `${decide.data.decided} decisions`} recorded, provisional.${decide.data.skipped > 0 ? ` ${decide.data.skipped} skipped: not submitted, or released (change those one at a time, with a reason).` : ''}`}
      </div>
      <MutationError error={decide.error} />
    </div>
  );
}
