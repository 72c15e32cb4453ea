import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { APPLICATION_PAGE_SIZE, applicationListQuery, applicationsQuery } from './api/applications';
import { applicationPath } from '../paths';
import { extendRun, extendRunBack, pageOfPlace, placeInRun, runFromPage, runListOf, type ReadingRun } from './readingRun';

/** Where next / previous go from one application of a list: the address (the list's page moved when it crosses one), or null at an end. */
export interface Neighbours {
  previous: string | null;
  next: string | null;
  /** "3 of 120", once the list is known. */
  position: string | null;
  /** Whether the file after (before) is still being read: J (K) pressed meanwhile waits for it. */
  finding: { next: boolean; previous: boolean };
}

/** Where this tab keeps the reader's run (readingRun.ts): a reload goes on with it; the list forgets it. */
const RUN_KEY = 'portal.staffReadingRun';

function storedRun(list: string): ReadingRun | null {
  try {
    const run = JSON.parse(sessionStorage.getItem(RUN_KEY) ?? 'null') as ReadingRun | null;
    return run?.list === list && Array.isArray(run.ids) ? run : null;
  } catch {
    return null;
  }
}

/** Back at the list, the reader begins a new run with the next file they open, in the order they see now. */
export function forgetReadingRun() {
  sessionStorage.removeItem(RUN_KEY);
}

/**
 * The applications before and after `id` in the list it was opened from (`list`: the list's own
 * address), as the list was when the reader began (readingRun.ts): the run is begun from the page
 * the list showed (usually cached), and goes on past its ends with the list as it is now, read only
 * when `id` is at an end. Nothing without a list (an address typed or shared).
 */
export function useListNeighbours(id: string, list: URLSearchParams): Neighbours {
  const queryClient = useQueryClient();
  const opened = list.size > 0;
  const runList = runListOf(list);
  const query = applicationListQuery(list);
  const [run, setRun] = useState(() => storedRun(runList));
  const held = run?.list === runList && run.ids.includes(id) ? run : null;

  // Without a run holding `id`: begin one from the page of the list it was opened from.
  const page = useQuery({ ...applicationsQuery(query), enabled: opened && !held });
  const begun = !held && page.data && !page.isPlaceholderData && page.data.items.some((item) => item.id === id) ? runFromPage(runList, page.data.items.map((item) => item.id), query.page!, APPLICATION_PAGE_SIZE, page.data.total) : null;
  let current = held ?? begun;
  const place = current ? placeInRun(current, id) : null;

  // Past the run's end: the list as it is now, from the page the run began on, up to the first
  // files the run does not hold (bounded by the pages the run spans, and one more).
  const lastId = current?.ids.at(-1);
  const onward = useQuery({
    queryKey: ['staff', 'reading-run', 'onward', runList, lastId, current?.ids.length],
    enabled: opened && !!place?.atEnd,
    queryFn: async () => {
      const seen = new Set(current!.ids);
      const from = pageOfPlace(current!.first, APPLICATION_PAGE_SIZE);
      const spans = Math.ceil(current!.ids.length / APPLICATION_PAGE_SIZE) + 1;
      for (let number = from; number <= from + spans; number++) {
        const read = await queryClient.fetchQuery(applicationsQuery({ ...query, page: number }));
        const unseen = read.items.map((item) => item.id).filter((item) => !seen.has(item));
        if (unseen.length || number * APPLICATION_PAGE_SIZE >= read.total) return unseen;
      }
      return [];
    },
  });
  // Before the run's start: the page before it, as the list is now.
  const backPage = current ? pageOfPlace(current.first - 1, APPLICATION_PAGE_SIZE) : 1;
  const back = useQuery({ ...applicationsQuery({ ...query, page: backPage }), enabled: opened && !!place?.atStart && current!.first > 1 });
  if (current && place?.atEnd && onward.data?.length) current = extendRun(current, onward.data);
  if (current && place?.atStart && current.first > 1 && back.data && !back.isPlaceholderData) current = extendRunBack(current, back.data.items.map((item) => item.id));

  // The run in use becomes this view's (adjusting state while rendering, as React allows), and is
  // kept in the tab for a reload.
  if (current && current !== run) setRun(current);
  useEffect(() => {
    if (run) sessionStorage.setItem(RUN_KEY, JSON.stringify(run));
  }, [run]);

  const at = current ? placeInRun(current, id) : null;
  // Still reading where the run goes on: the first page, or the page past an end.
  const starting = opened && !current && page.isFetching;
  const finding = { next: starting || (opened && !!at && !at.next && onward.isFetching), previous: starting || (opened && !!at && !at.previous && back.isFetching) };
  if (!opened || !current || !at) return { previous: null, next: null, position: null, finding };
  const onPage = (place: number) => {
    const moved = new URLSearchParams(list);
    const number = pageOfPlace(place, APPLICATION_PAGE_SIZE);
    if (number > 1) moved.set('page', String(number));
    else moved.delete('page');
    return moved;
  };
  return {
    previous: at.previous ? applicationPath(at.previous, onPage(at.position - 1)) : null,
    next: at.next ? applicationPath(at.next, onPage(at.position + 1)) : null,
    position: `${at.position.toLocaleString('en-US')} of ${current.total.toLocaleString('en-US')}`,
    finding,
  };
}
