import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { scoreMeasureLabel, scoreMeasureOf } from '../../../../domain/scores';
import { Button } from '../../../ui/Button';
import { reviewFormQuery } from '../review/api/review';

/** What the list can be ranked and filtered by: the composite, the number of reviews, each scale's mean, each recommendation's count. */
function useScoreOptions() {
  const form = useQuery(reviewFormQuery);
  const measures = ['composite', 'reviews', ...(form.data?.scales ?? []).map((scale) => `mean:${scale.name}`), ...(form.data?.recommendations ?? []).map((name) => `recommended:${name}`)];
  return measures.map((value) => ({ value, label: scoreMeasureLabel(scoreMeasureOf(value)!) }));
}

/** A bound as typed, for the address: '' when left empty. */
const boundText = (value: number | undefined) => (value === undefined ? '' : String(value));

/**
 * The score the list is ranked and filtered by (issue 51 §1), with its range: applied together, so a
 * half-typed bound does not read the list at each keystroke.
 */
export function ScoreFilter({ score, min, max, onApply }: { score: string; min?: number; max?: number; onApply: (next: { score?: string; score_min?: string; score_max?: string }) => void }) {
  const options = useScoreOptions();
  const [chosen, setChosen] = useState(score);
  const [atLeast, setAtLeast] = useState(boundText(min));
  const [atMost, setAtMost] = useState(boundText(max));
  const [fault, setFault] = useState<string | null>(null);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const bounds = [atLeast, atMost].map((text) => text.trim().replace('−', '-'));
    if (bounds.some((text) => text !== '' && !Number.isFinite(Number(text)))) return setFault('Enter each bound as a number, for example 8 or 3.5, or leave it empty.');
    setFault(null);
    onApply({ score: chosen === 'composite' ? undefined : chosen, score_min: bounds[0] || undefined, score_max: bounds[1] || undefined });
  };
  return (
    // One line beside the order and the count, labels inline: the list keeps its 15 rows at 1366 × 900.
    <form className="staff-score-filter" aria-label="Rank and filter by a score" onSubmit={apply} noValidate>
      <label htmlFor="staff-score">
        Score{' '}
        <select id="staff-score" className="input input--outlined" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {(
        [
          ['staff-score-min', 'at least', atLeast, setAtLeast],
          ['staff-score-max', 'at most', atMost, setAtMost],
        ] as const
      ).map(([id, label, value, set]) => (
        <label key={id} htmlFor={id}>
          {label}{' '}
          <input
            id={id}
            className="input input--outlined"
            inputMode="decimal"
            size={5}
            value={value}
            maxLength={12}
            aria-invalid={fault ? true : undefined}
            aria-describedby={fault ? 'staff-score-error' : undefined}
            onChange={(event) => set(event.target.value)}
          />
        </label>
      ))}
      <Button type="submit" variant="secondary">
        Apply
      </Button>
      {fault && (
        <p id="staff-score-error" className="field__error">
          <span className="visually-hidden">Error: </span>
          {fault}
        </p>
      )}
    </form>
  );
}
