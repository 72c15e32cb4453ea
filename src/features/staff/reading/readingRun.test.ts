import { describe, expect, it } from 'vitest';
import { extendRun, extendRunBack, pageOfPlace, placeInRun, runFromPage, runListOf } from './readingRun';

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `a${from + i}`);

describe("a reader's run through a list (issue 51)", () => {
  it('belongs to the list by its filters and order, not its page or the row to come back to', () => {
    expect(runListOf(new URLSearchParams('queue=mine&page=3&at=x'))).toBe('queue=mine');
    expect(runListOf(new URLSearchParams('status=submitted&bin=2'))).toBe(runListOf(new URLSearchParams('bin=2&status=submitted&page=2')));
    expect(runListOf(new URLSearchParams('status=submitted'))).not.toBe(runListOf(new URLSearchParams('status=started')));
  });

  it.each([
    // [page, the file, previous, next, place, at the start, at the end]
    [1, 'a1', null, 'a2', 1, true, false],
    [1, 'a13', 'a12', 'a14', 13, false, false],
    [1, 'a25', 'a24', null, 25, false, true],
    [2, 'a26', null, 'a27', 26, true, false],
  ] as const)('on page %i, %s has %s before it and %s after it, at place %i', (page, id, previous, next, position, atStart, atEnd) => {
    const run = runFromPage('queue=mine', page === 1 ? ids(1, 25) : ids(26, 30), page, 25, 30);
    expect(placeInRun(run, id)).toEqual({ previous, next, position, atStart, atEnd });
  });

  it('does not place a file it does not hold', () => {
    expect(placeInRun(runFromPage('', ids(1, 25), 1, 25, 30), 'a26')).toBeNull();
  });

  it('goes on, past its end, to the first files of the list as it is now that it does not hold', () => {
    const run = runFromPage('queue=mine', ids(1, 25), 1, 25, 30);
    // Reviews took a24 and a25 out of the queue: its first page now ends with a26 and a27.
    const onward = extendRun(run, [...ids(1, 23), 'a26', 'a27']);
    expect(onward.ids).toEqual(ids(1, 27));
    expect(placeInRun(onward, 'a25')).toMatchObject({ next: 'a26', position: 25 });
    expect(placeInRun(onward, 'a26')).toMatchObject({ previous: 'a25', next: 'a27', position: 26 });
    // A list that did not change gives its next page.
    expect(extendRun(run, ids(26, 30)).ids).toEqual(ids(1, 30));
    // Nothing new: the same run.
    expect(extendRun(run, ids(1, 25))).toBe(run);
  });

  it('counts the files it came to beyond the list it began with', () => {
    const run = runFromPage('', ids(1, 25), 1, 25, 26);
    expect(extendRun(run, ['a26', 'a27', 'a28']).total).toBe(28);
    expect(extendRun(runFromPage('', ids(1, 25), 1, 25, 30), ['a26']).total).toBe(30);
  });

  it('goes back, before its start, to the files of the page before it that it does not hold', () => {
    const run = runFromPage('status=submitted', ids(26, 30), 2, 25, 30);
    const back = extendRunBack(run, ids(1, 25));
    expect(back.first).toBe(1);
    expect(placeInRun(back, 'a26')).toMatchObject({ previous: 'a25', position: 26 });
    expect(extendRunBack(run, ids(26, 30))).toBe(run);
  });

  it.each([
    [1, 1],
    [25, 1],
    [26, 2],
    [50, 2],
    [51, 3],
    [0, 1],
  ])('place %i is on page %i of 25 a page', (place, page) => {
    expect(pageOfPlace(place, 25)).toBe(page);
  });
});
