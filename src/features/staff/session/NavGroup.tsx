import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * A group of the console's menu behind one button (issue 51 §4: the administrator's items on one
 * row at 1366 px): a disclosure, opened and closed by a click, a tap, Enter or Space; Escape closes
 * it and gives the focus back to its button; a page chosen, or a click elsewhere, closes it.
 */
export function NavGroup({ label, paths, children }: { label: string; paths: readonly string[]; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const location = useLocation();
  const root = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const here = paths.some((path) => location.pathname === path);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  return (
    <li
      ref={root}
      className="staff-nav__group"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button ref={button} type="button" className={here ? 'active' : undefined} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {label}
        <span aria-hidden="true"> ▾</span>
      </button>
      {/* A page chosen from the group closes it. */}
      <ul id={id} hidden={!open} onClick={(event) => (event.target as HTMLElement).closest('a') && setOpen(false)}>
        {children}
      </ul>
    </li>
  );
}
