/**
 * A reader's run through a list: the files in the order the list showed them when the reader
 * began, kept while the list itself changes under them (a review submitted takes a file out of
 * "My queue"; a move takes it out of a bin). Next and previous walk the run, so J goes to the file
 * that followed, every time, and K back to files the list no longer holds (issue 51).
 */
export interface ReadingRun {
  /** The list's address without its page: the run of one list only. */
  list: string;
  /** The files in the order they were shown. */
  ids: string[];
  /** Where `ids[0]` stood in the list (1 for its first row). */
  first: number;
  /** How many the list held when the run began. */
  total: number;
}

/** The list's address a run belongs to: its filters and order, not its page or the row to come back to. */
export function runListOf(list: URLSearchParams): string {
  const key = new URLSearchParams(list);
  key.delete('page');
  key.delete('at');
  key.sort();
  return key.toString();
}

/** A run begun on one page of the list (`page` from 1, `pageSize` rows a page). */
export function runFromPage(list: string, ids: readonly string[], page: number, pageSize: number, total: number): ReadingRun {
  return { list, ids: [...ids], first: (page - 1) * pageSize + 1, total };
}

/** `id`'s place in the run: its neighbours and its position as the list was, or null when it is not in it. */
export function placeInRun(run: ReadingRun, id: string): { previous: string | null; next: string | null; position: number; atStart: boolean; atEnd: boolean } | null {
  const index = run.ids.indexOf(id);
  if (index < 0) return null;
  return {
    previous: run.ids[index - 1] ?? null,
    next: run.ids[index + 1] ?? null,
    position: run.first + index,
    atStart: index === 0,
    atEnd: index === run.ids.length - 1,
  };
}

/**
 * The run with the files of a page read after it began added at its end: those it does not hold
 * yet, in the list's order. (A list a review shrank has moved the files that followed up a page, so
 * the first new one is the file after the run's last, as the list was; a list that did not change
 * gives the next page's.)
 */
export function extendRun(run: ReadingRun, ids: readonly string[]): ReadingRun {
  const held = new Set(run.ids);
  const added = ids.filter((id) => !held.has(id));
  return added.length ? { ...run, ids: [...run.ids, ...added], total: Math.max(run.total, run.first - 1 + run.ids.length + added.length) } : run;
}

/** The run with the files of an earlier page added before it: those it does not hold yet, the run's first place moved back. */
export function extendRunBack(run: ReadingRun, ids: readonly string[]): ReadingRun {
  const held = new Set(run.ids);
  const added = ids.filter((id) => !held.has(id));
  return added.length ? { ...run, ids: [...added, ...run.ids], first: Math.max(1, run.first - added.length) } : run;
}

/** The page of the list (as it was) that a place in it falls on. */
export const pageOfPlace = (place: number, pageSize: number) => Math.max(1, Math.ceil(place / pageSize));
