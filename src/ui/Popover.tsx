import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { TitleBar } from './TitleBar';

interface PopoverProps {
  /** The text of the button that opens it, and of its title. */
  title: string;
  children: ReactNode;
}

/**
 * A disclosure panel under its button (the account popover of spec/platform.md §2): titled, with a
 * close button. Opening moves focus into it; Escape or Close shuts it and returns focus to the button.
 */
export function Popover({ title, children }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <div className="account">
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
        onKeyDown={(event) => {
          if (event.key === 'Escape') close();
        }}
      >
        <TitleBar id={titleId} title={title} block="account" onClose={close} />
        {children}
      </div>
    </div>
  );
}
