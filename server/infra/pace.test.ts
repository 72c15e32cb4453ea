import { describe, expect, it } from 'vitest';
import { Pacer } from './pace';

/** A pacer on a clock the test moves: each step "takes" its milliseconds; the pauses it asks for are kept. */
function paced(share: number, steps: number[]) {
  let now = 0;
  const pauses: number[] = [];
  const pacer = new Pacer(
    share,
    () => now,
    async (ms) => {
      pauses.push(ms);
      now += ms;
    },
  );
  return (async () => {
    for (const ms of steps) {
      now += ms;
      await pacer.breathe();
    }
    return pauses;
  })();
}

describe('Pacer: bulk work at its share of the machine (issue 49, item 15)', () => {
  it.each([
    { share: 0.5, steps: [30, 30], pauses: [30, 30], why: 'half: a pause as long as each slice' },
    { share: 0.25, steps: [40], pauses: [120], why: 'a quarter: three times the slice' },
    { share: 0.5, steps: [5, 5, 5, 5, 5], pauses: [20], why: 'short steps add up to a slice before a pause' },
    { share: 0.5, steps: [10], pauses: [], why: 'less than a slice: no pause' },
    { share: 1, steps: [100, 100], pauses: [], why: 'the whole machine: never a pause' },
  ])('$why', async ({ share, steps, pauses }) => {
    expect(await paced(share, steps)).toEqual(pauses);
  });

  it('a pause is not counted as work', async () => {
    // 30 ms of work, its 30 ms pause, then 10 ms: not yet a slice since the pause.
    expect(await paced(0.5, [30, 10])).toEqual([30]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a share of %s', (share) => {
    expect(() => new Pacer(share)).toThrow(RangeError);
  });
});
