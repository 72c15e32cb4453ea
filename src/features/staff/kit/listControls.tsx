import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../ui/Button';

/**
 * A list's filters kept in the address (so back, forward and a shared link keep them): the
 * current parameters, and `change` to set or clear some of them, which goes back to page 1
 * unless it sets the page itself (and forgets the saved view opened, unless it only turns the page).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const change = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    if (!('page' in next)) merged.delete('page');
    // A saved view opened (`view`) is what the list was; a filter changed makes it another list.
    if (Object.keys(next).some((key) => key !== 'page' && key !== 'view')) merged.delete('view');
    setParams(merged);
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  return { params, change, page };
}

/** Previous and next page, when there is more than one. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="staff-pager">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </Button>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </Button>
    </nav>
  );
}

/** A set of ticked rows with one row ticked or unticked. */
export function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
