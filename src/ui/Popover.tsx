import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { TitleBar } from './TitleBar';

interface PopoverProps {
  /** The text of the button that opens it, and of its title. */
  title: string;
  children: ReactNode;
}

/**
 * A disclosure panel under its button (the account popover of spec/platform.md §2): titled, with a
 * close button. Opening moves focus into it; Escape or Close shuts it and returns focus to the button, a press
 * outside shuts it too.
 */
export function Popover({ title, children }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  // Open, it also closes on a press outside it (focus stays where the press put it) and on Escape
  // wherever focus is.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <div ref={root} className="account">
      <button ref={toggle} type="button" className="account__toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((value) => !value)}>
        {title}
      </button>
      <div
        ref={panel}
        id={panelId}
        role="dialog"
        aria-labelledby={titleId}
        tabIndex={-1}
        hidden={!open}
        className="account__panel"
      >
        <TitleBar id={titleId} title={title} block="account" onClose={close} />
        {children}
      </div>
    </div>
  );
}
