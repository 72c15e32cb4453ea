import { useQuery } from '@tanstack/react-query';
import { APPLICATION_PAGE_SIZE, applicationListQuery, applicationsQuery } from './api/applications';
import { applicationPath } from '../paths';

/** Where next / previous go from one application of a list: the address (the list's page moved when it crosses one), or null at an end. */
export interface Neighbours {
  previous: string | null;
  next: string | null;
  /** "3 of 120", once the list is known. */
  position: string | null;
}

/**
 * The applications before and after `id` in the list it was opened from (`list`: the list's own
 * address), read with the list's own query: the page the list showed (usually cached), and the
 * page beyond it only when `id` is at its edge. Nothing without a list (an address typed or shared).
 */
export function useListNeighbours(id: string, list: URLSearchParams): Neighbours {
  const opened = list.size > 0;
  const query = applicationListQuery(list);
  const page = useQuery({ ...applicationsQuery(query), enabled: opened });
  const items = page.data?.items ?? [];
  const index = items.findIndex((item) => item.id === id);
  const pages = page.data ? Math.max(1, Math.ceil(page.data.total / APPLICATION_PAGE_SIZE)) : 1;
  const atStart = index === 0 && query.page! > 1;
  const atEnd = index >= 0 && index === items.length - 1 && query.page! < pages;
  const before = useQuery({ ...applicationsQuery({ ...query, page: query.page! - 1 }), enabled: opened && atStart });
  const after = useQuery({ ...applicationsQuery({ ...query, page: query.page! + 1 }), enabled: opened && atEnd });

  const onPage = (pageNumber: number) => {
    const moved = new URLSearchParams(list);
    if (pageNumber > 1) moved.set('page', String(pageNumber));
    else moved.delete('page');
    return moved;
  };
  if (!opened || index < 0) return { previous: null, next: null, position: null };
  const previousId = index > 0 ? items[index - 1]!.id : atStart ? before.data?.items.at(-1)?.id : undefined;
  const nextId = index < items.length - 1 ? items[index + 1]!.id : atEnd ? after.data?.items[0]?.id : undefined;
  return {
    previous: previousId ? applicationPath(previousId, index > 0 ? list : onPage(query.page! - 1)) : null,
    next: nextId ? applicationPath(nextId, index < items.length - 1 ? list : onPage(query.page! + 1)) : null,
    position: `${((query.page! - 1) * APPLICATION_PAGE_SIZE + index + 1).toLocaleString('en-US')} of ${page.data!.total.toLocaleString('en-US')}`,
  };
}
