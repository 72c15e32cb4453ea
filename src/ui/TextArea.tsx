import { useEffect, useRef, useState } from 'react';

interface TextAreaProps {
  id: string;
  /** The committed text. */
  value: string;
  onCommit: (value: string) => void;
  /** Every change of the text before it is committed (kept so a reload loses nothing). */
  onDraft?: (value: string) => void;
  maxLength: number;
  invalid?: true;
  /** The ids of the hint and errors; the character count is added. */
  describedBy?: string;
  autoComplete?: string;
}

/**
 * A text area that keeps a local draft and commits it on blur (spec/form.md §4), with the counter
 * 'Character count: n / limit' tied to it.
 */
export function TextArea({ id, value, onCommit, onDraft, maxLength, invalid, describedBy, autoComplete }: TextAreaProps) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  // Leaving the page (a step link, Back) removes the text area without a blur: commit then too.
  const pending = useRef({ draft, value, onCommit });
  pending.current = { draft, value, onCommit };
  useEffect(
    () => () => {
      const { draft: left, value: committed, onCommit: commit } = pending.current;
      if (left !== committed) commit(left);
    },
    [],
  );
  return (
    <>
      <textarea
        id={id}
        name={id}
        className="input input--outlined"
        value={draft}
        maxLength={maxLength}
        aria-invalid={invalid}
        aria-describedby={[describedBy, `${id}-count`].filter(Boolean).join(' ')}
        autoComplete={autoComplete}
        onChange={(event) => {
          setDraft(event.target.value);
          onDraft?.(event.target.value);
        }}
        onBlur={() => draft !== value && onCommit(draft)}
      />
      <span id={`${id}-count`} className="field__count">
        Character count: {draft.length} / {maxLength}
      </span>
    </>
  );
}
