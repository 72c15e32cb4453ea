import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

interface TabsProps {
  /** What the tab list is about, for screen readers. */
  label: string;
  tabs: ReadonlyArray<{ id: string; label: string }>;
  selected: string;
  /** A tab was chosen (click, Enter or Space); the owner decides whether it switches. */
  onSelect: (id: string) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}

const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * The ARIA tabs pattern with manual activation: arrow keys, Home and End move focus between the
 * tabs; Enter, Space or a click chooses one. Only the selected tab is in the tab order.
 */
export function Tabs({ label, tabs, selected, onSelect, children }: TabsProps) {
  const baseId = useId();
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onKeyDown(event: KeyboardEvent, index: number) {
    let target: number | null = null;
    if (event.key in moves) target = (index + moves[event.key]! + tabs.length) % tabs.length;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = tabs.length - 1;
    if (target === null) return;
    event.preventDefault();
    tabRefs.current[tabs[target]!.id]?.focus();
  }

  return (
    <>
      <div role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              tabRefs.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab.id === selected ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${selected}`} className="tabs__panel">
        {children}
      </div>
    </>
  );
}
