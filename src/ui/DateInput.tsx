import { useEffect, useState } from 'react';
import { parseIsoDate } from '../../domain/rules/formats';

interface DateInputProps {
  id: string;
  /** The committed date, yyyy-mm-dd, or ''. */
  value: string;
  onCommit: (value: string) => void;
  invalid?: true;
  describedBy?: string;
  autoComplete?: string;
}

/** A date input that commits only a valid date; anything else clears a previous value (spec/form.md §4). */
export function DateInput({ id, value, onCommit, invalid, describedBy, autoComplete }: DateInputProps) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <input
      id={id}
      name={id}
      className="input input--outlined"
      type="date"
      value={draft}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      autoComplete={autoComplete}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        if (parseIsoDate(next)) onCommit(next);
        else if (value !== '') onCommit('');
      }}
    />
  );
}
