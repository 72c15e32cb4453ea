import { useEffect, useId, useState, type ReactNode } from 'react';
import { Button } from '../../ui/Button';

export type GateDef = { kind: 'button'; prompt: string; buttonLabel: string } | { kind: 'checkbox'; label: string };

/**
 * A confirmation gate (spec/form.md §4): a button that toggles to the after-content, or a checkbox
 * whose checked state shows it. `initiallyOpen` opens it when its content already holds answers (or its tab was chosen).
 */
export function ConfirmationGate({ gate, initiallyOpen, children }: { gate: GateDef; initiallyOpen: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(initiallyOpen);
  // What opens it may arrive after the first render (the stored tab choice): it opens then.
  useEffect(() => {
    if (initiallyOpen) setOpen(true);
  }, [initiallyOpen]);
  const contentId = useId();
  if (gate.kind === 'checkbox') {
    return (
      <>
        <label className="choice">
          <input type="checkbox" checked={open} aria-controls={contentId} aria-expanded={open} onChange={(event) => setOpen(event.target.checked)} /> {gate.label}
        </label>
        <div id={contentId} hidden={!open}>
          {open && children}
        </div>
      </>
    );
  }
  return open ? (
    <div id={contentId}>{children}</div>
  ) : (
    <div className="gate">
      <p>{gate.prompt}</p>
      <Button variant="secondary" aria-controls={contentId} aria-expanded={false} onClick={() => setOpen(true)}>
        {gate.buttonLabel}
      </Button>
    </div>
  );
}
