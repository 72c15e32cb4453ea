import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAW_LIMITS, drawBudget, drawReducer, eventLoopWatch, initialDrawState, type DrawEvent, type DrawLimits, type DrawState } from './drawBudget';

const limits: DrawLimits = { perSecond: 4, inFlight: 2, sessionPerSecond: 1, sessionBurst: 2, lagLimitMs: 250, busyAbove: 0.9, overRatePauseMs: 250 };

type Step = [event: 'ask', session: string, atMs: number, lagMs?: number, utilisation?: number] | [event: 'done', session: string];
/** Runs the steps from a quiet start at 0 ms and gives each ask's answer. */
function answers(steps: Step[], using: DrawLimits = limits): (DrawState['answer'] | '-')[] {
  let state = initialDrawState(using, 0);
  return steps.map((step) => {
    const event: DrawEvent = step[0] === 'ask' ? { type: 'ask', session: step[1], at: step[2], lagMs: step[3] ?? 0, utilisation: step[4] ?? 0 } : { type: 'done', session: step[1] };
    state = drawReducer(state, event, using);
    return step[0] === 'ask' ? state.answer : '-';
  });
}

describe('the budget of drawn pages (issue 29, item 1)', () => {
  it.each<[string, Step[], (DrawState['answer'] | '-')[]]>([
    ['a quiet applicant is drawn', [['ask', 'a', 10]], ['draw']],
    ['one page at a time for a session (two tabs opened together)', [['ask', 'a', 10], ['ask', 'a', 11], ['done', 'a'], ['ask', 'a', 12]], ['draw', 'session busy', '-', 'draw']],
    [
      'a session past its burst waits for its rate (1 a second)',
      [['ask', 'a', 0], ['done', 'a'], ['ask', 'a', 1], ['done', 'a'], ['ask', 'a', 2], ['ask', 'a', 2002], ['done', 'a']],
      ['draw', '-', 'draw', '-', 'session over rate', 'draw', '-'],
    ],
    [
      'a session that keeps asking past its rate runs into debt, down to a burst, and draws again once quiet',
      [['ask', 'a', 0], ['done', 'a'], ['ask', 'a', 1], ['done', 'a'], ['ask', 'a', 2], ['ask', 'a', 3], ['ask', 'a', 4], ['ask', 'a', 1100], ['ask', 'a', 2200], ['ask', 'a', 5300], ['done', 'a']],
      ['draw', '-', 'draw', '-', 'session over rate', 'session over rate', 'session over rate', 'session over rate', 'session over rate', 'draw', '-'],
    ],
    [
      'one hammering session leaves the others drawn',
      [['ask', 'a', 0], ['done', 'a'], ['ask', 'a', 1], ['done', 'a'], ['ask', 'a', 2], ['ask', 'a', 3], ['ask', 'b', 4], ['done', 'b'], ['ask', 'c', 5]],
      ['draw', '-', 'draw', '-', 'session over rate', 'session over rate', 'draw', '-', 'draw'],
    ],
    ['at most `inFlight` draws at once in the process', [['ask', 'a', 0], ['ask', 'b', 1], ['ask', 'c', 2], ['done', 'a'], ['ask', 'c', 3]], ['draw', 'draw', 'busy', '-', 'draw']],
    [
      'at most `perSecond` draws a second in the process, whoever asks',
      [['ask', 'a', 0], ['done', 'a'], ['ask', 'b', 1], ['done', 'b'], ['ask', 'c', 2], ['done', 'c'], ['ask', 'd', 3], ['done', 'd'], ['ask', 'e', 4], ['ask', 'e', 260], ['done', 'e']],
      ['draw', '-', 'draw', '-', 'draw', '-', 'draw', '-', 'over rate', 'draw', '-'],
    ],
    ['none while the event loop lags past its limit', [['ask', 'a', 0, 251], ['ask', 'a', 1, 250]], ['lagging', 'draw']],
    ['none while the event loop works all the time (cheap requests, no long hold-up)', [['ask', 'a', 0, 5, 0.95], ['ask', 'a', 1, 5, 0.9]], ['loop busy', 'draw']],
    ['a refusal costs the session nothing', [['ask', 'a', 0, 900], ['ask', 'a', 1, 900], ['ask', 'a', 2, 900], ['ask', 'a', 3], ['done', 'a'], ['ask', 'a', 4]], ['lagging', 'lagging', 'lagging', 'draw', '-', 'draw']],
    ['a clock that goes back refills nothing', [['ask', 'a', 5000], ['done', 'a'], ['ask', 'a', 5001], ['done', 'a'], ['ask', 'a', 0]], ['draw', '-', 'draw', '-', 'session over rate']],
  ])('%s', (_name, steps, expected) => {
    expect(answers(steps)).toEqual(expected);
  });

  it('with no lag limit, a held-up or busy loop still draws', () => {
    expect(answers([['ask', 'a', 0, 10_000, 1]], { ...limits, lagLimitMs: 0 })).toEqual(['draw']);
  });

  it('forgets a session once its bucket is full again, and keeps one that is drawing', () => {
    let state = initialDrawState(limits, 0);
    state = drawReducer(state, { type: 'ask', session: 'a', at: 0, lagMs: 0 }, limits);
    state = drawReducer(state, { type: 'ask', session: 'b', at: 1, lagMs: 0 }, limits);
    state = drawReducer(state, { type: 'done', session: 'b' }, limits);
    // 4 s later b's bucket (2 at 1 a second) is full again even from the deepest debt (−2): only a, still drawing, and c are kept.
    state = drawReducer(state, { type: 'ask', session: 'c', at: 4_001, lagMs: 0 }, limits);
    expect([...state.sessions.keys()].sort()).toEqual(['a', 'c']);
  });

  it('answers a permit that ends its draw once, however often it is called; a session past its rate waits for its built page', () => {
    let now = 0;
    const budget = drawBudget({ ...DEFAULT_DRAW_LIMITS, inFlight: 1, sessionBurst: 1 }, () => ({ lagMs: 0, utilisation: 0 }), () => now);
    const permit = budget.ask('a');
    if (!('done' in permit)) throw new Error('a quiet budget refused');
    expect(budget.ask('b')).toEqual({ builtAfterMs: 0 }); // busy: another applicant is not kept waiting
    permit.done();
    permit.done();
    now = 1;
    const next = budget.ask('b');
    expect(next).toHaveProperty('done');
    expect(budget.ask('c')).toEqual({ builtAfterMs: 0 }); // b's draw holds the one place: the second `done` gave back nothing
    expect(budget.ask('a')).toEqual({ builtAfterMs: DEFAULT_DRAW_LIMITS.overRatePauseMs }); // a again within its second
  });

  it("measures the event loop's longest hold-up, and how much of the last second it worked", async () => {
    const loop = eventLoopWatch();
    try {
      // The monitor's first sample only starts its count: held up before it, the loop shows nothing.
      while (loop.now().lagMs === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const busyFrom = performance.now();
      // Held up 300 ms, as a long synchronous task would, and busy until the next window closes.
      for (const until = performance.now() + 300; performance.now() < until; );
      await new Promise((resolve) => setTimeout(resolve, 20)); // the monitor's next sample
      expect(loop.now().lagMs).toBeGreaterThanOrEqual(250);
      while (loop.now().utilisation === 0 && performance.now() - busyFrom < 5_000) {
        for (const until = performance.now() + 50; performance.now() < until; );
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(loop.now().utilisation).toBeGreaterThan(0.5);
    } finally {
      loop.stop();
    }
  });
});
