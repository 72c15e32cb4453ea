import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Checkbox } from '../../../ui/Checkbox';
import { listPath } from '../paths';
import { useListNeighbours } from './useListNeighbours';
import { REVIEW_FORM_ID } from '../review/ReviewPanel';

/** Where the reader's choice to use the single-key shortcuts is kept (WCAG 2.1.4: they can be turned off). */
const SHORTCUTS_KEY = 'portal.staffShortcuts';
/** The field "write" goes to: the note box until review forms come. */
/** What W focuses: the first answer of my review when there is one to write, else the note box. */
const writeTarget = () => document.querySelector<HTMLElement>(`#${REVIEW_FORM_ID} :is(input, textarea)`) ?? document.getElementById('note-text');

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Which of the reader's single keys a key press is, if any: never while typing or with a modifier held. */
export function readerShortcut(event: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'target'>): 'next' | 'previous' | 'write' | null {
  if (event.altKey || event.ctrlKey || event.metaKey || typingIn(event.target)) return null;
  return ({ j: 'next', k: 'previous', w: 'write' } as const)[event.key.toLowerCase() as 'j' | 'k' | 'w'] ?? null;
}

/**
 * The reader's way through a list: back to it (its filters, page and this row), previous and next
 * (J and K), and W to write my review (or a note once it is in); the shortcuts can be turned off, and the choice is kept.
 */
export function ReaderNav({ id, list }: { id: string; list: URLSearchParams }) {
  const { previous, next, position, finding } = useListNeighbours(id, list);
  const { next: findingNext, previous: findingPrevious } = finding;
  const navigate = useNavigate();
  const [shortcuts, setShortcuts] = useState(() => localStorage.getItem(SHORTCUTS_KEY) !== 'off');
  // J or K pressed while the file it goes to is still being read (the list's next page, on a slow
  // line or a busy machine): kept, and carried out once it is known, rather than lost.
  const [wanted, setWanted] = useState<'next' | 'previous' | null>(null);

  useEffect(() => {
    if (!shortcuts) return;
    const onKey = (event: KeyboardEvent) => {
      const action = readerShortcut(event);
      const to = action === 'next' ? next : action === 'previous' ? previous : null;
      if (to) navigate(to);
      else if ((action === 'next' && findingNext) || (action === 'previous' && findingPrevious)) setWanted(action);
      else if (action === 'write') writeTarget()?.focus();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shortcuts, next, previous, findingNext, findingPrevious, navigate]);

  // The file a waiting J / K goes to has been found (navigation: I/O); or there is none after all.
  useEffect(() => {
    if (!wanted) return;
    const to = wanted === 'next' ? next : previous;
    if (to) navigate(to);
    if (to || !(wanted === 'next' ? findingNext : findingPrevious)) setWanted(null);
  }, [wanted, next, previous, findingNext, findingPrevious, navigate]);

  const turn = (on: boolean) => {
    localStorage.setItem(SHORTCUTS_KEY, on ? 'on' : 'off');
    setShortcuts(on);
  };

  return (
    <nav aria-label="Applications" className="staff-reader-nav">
      <Link to={listPath(list, id)}>Back to the applications</Link>
      {position && <span>Application {position}</span>}
      {previous && (
        <Link to={previous} rel="prev" aria-keyshortcuts={shortcuts ? 'K' : undefined}>
          Previous application
        </Link>
      )}
      {next && (
        <Link to={next} rel="next" aria-keyshortcuts={shortcuts ? 'J' : undefined}>
          Next application
        </Link>
      )}
      <Checkbox id="reader-shortcuts" label="Keys: J next, K previous, W write my review" checked={shortcuts} onChange={turn} />
    </nav>
  );
}
