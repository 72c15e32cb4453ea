import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * How many signed-in pages one process draws (issue 29, item 1). A draw asks the API three times
 * and renders the form: 10–18 ms of the one thread every request shares (docs/deploy.md). One
 * applicant reloading /about over ten connections took that thread from everyone else's saves. A
 * page over budget is sent as built (the browser draws it, as it did before drawing on the server),
 * so nothing is refused and nothing is lost: only the head start.
 */
export interface DrawLimits {
  /** Draws a second in the process (a bucket: that many at once after a quiet second). */
  perSecond: number;
  /** Draws under way at once in the process (a draw awaits its three calls). */
  inFlight: number;
  /** Draws a second for one session, after its first `sessionBurst`; each ask past it sets the session back one more. */
  sessionPerSecond: number;
  sessionBurst: number;
  /** Over this delay of the event loop (ms) no page is drawn; 0: the loop is never checked. */
  lagLimitMs: number;
  /** Over this share of the last second the loop spent working (0–1), no page is drawn. */
  busyAbove: number;
  /**
   * How long a session past its own rate waits for its built page (ms): one applicant reloading
   * over many connections gets a page a connection every so often, not the whole event loop.
   */
  overRatePauseMs: number;
}

export const DEFAULT_DRAW_LIMITS: DrawLimits = { perSecond: 20, inFlight: 4, sessionPerSecond: 0.2, sessionBurst: 2, lagLimitMs: 250, busyAbove: 0.9, overRatePauseMs: 250 };

interface Bucket {
  tokens: number;
  /** When `tokens` was counted (ms, monotonic). */
  at: number;
}

interface SessionDraws extends Bucket {
  inFlight: number;
}

export interface DrawState {
  total: Bucket;
  inFlight: number;
  /** Sessions that drew within the last few seconds; the others are forgotten (their bucket is full again). */
  sessions: ReadonlyMap<string, SessionDraws>;
  /** The answer to the last `ask`: draw, or why the built page goes instead. */
  answer: 'draw' | 'lagging' | 'loop busy' | 'busy' | 'over rate' | 'session busy' | 'session over rate' | null;
}

/** An ask carries what the event loop was doing: its longest delay (ms) and the share of time it worked (0–1). */
export type DrawEvent = { type: 'ask'; session: string; at: number; lagMs: number; utilisation?: number } | { type: 'done'; session: string };

export const initialDrawState = (limits: DrawLimits, at: number): DrawState => ({ total: { tokens: limits.perSecond, at }, inFlight: 0, sessions: new Map(), answer: null });

/** The bucket refilled up to `at` (a clock that went back refills nothing). */
const refilled = (bucket: Bucket, at: number, perSecond: number, burst: number): Bucket => ({
  tokens: Math.min(burst, bucket.tokens + (Math.max(0, at - bucket.at) * perSecond) / 1000),
  at: Math.max(bucket.at, at),
});

/** Whether to draw the page a session asks for, and the budget after it. */
export function drawReducer(state: DrawState, event: DrawEvent, limits: DrawLimits): DrawState {
  if (event.type === 'done') {
    const sessions = new Map(state.sessions);
    const mine = sessions.get(event.session);
    if (mine) sessions.set(event.session, { ...mine, inFlight: Math.max(0, mine.inFlight - 1) });
    return { ...state, inFlight: Math.max(0, state.inFlight - 1), sessions, answer: null };
  }
  const { at } = event;
  const refuse = (answer: DrawState['answer']): DrawState => ({ ...state, answer });
  if (limits.lagLimitMs > 0 && event.lagMs > limits.lagLimitMs) return refuse('lagging');
  if (limits.lagLimitMs > 0 && (event.utilisation ?? 0) > limits.busyAbove) return refuse('loop busy');
  const known = state.sessions.get(event.session);
  const mine = known ? { ...refilled(known, at, limits.sessionPerSecond, limits.sessionBurst), inFlight: known.inFlight } : { tokens: limits.sessionBurst, at, inFlight: 0 };
  if (mine.inFlight > 0) return refuse('session busy');
  if (mine.tokens < 1) {
    // Asking on regardless runs the session into debt (down to a burst's worth): one that keeps
    // reloading draws nothing more until it has been quiet for a while.
    const sessions = new Map(state.sessions).set(event.session, { ...mine, tokens: Math.max(-limits.sessionBurst, mine.tokens - 1) });
    return { ...state, sessions, answer: 'session over rate' };
  }
  if (state.inFlight >= limits.inFlight) return refuse('busy');
  const total = refilled(state.total, at, limits.perSecond, limits.perSecond);
  if (total.tokens < 1) return refuse('over rate');

  const sessions = new Map<string, SessionDraws>();
  // A session whose bucket would be full again (from the deepest debt) and that draws nothing now is forgotten.
  const fullAfterMs = (limits.sessionBurst / limits.sessionPerSecond) * 1000;
  for (const [key, draws] of state.sessions) if (draws.inFlight > 0 || at - draws.at < fullAfterMs * 2) sessions.set(key, draws);
  sessions.set(event.session, { tokens: mine.tokens - 1, at: mine.at, inFlight: 1 });
  return { total: { tokens: total.tokens - 1, at: total.at }, inFlight: state.inFlight + 1, sessions, answer: 'draw' };
}

/**
 * The event loop over the last second or so: its longest hold-up (ms), and the share of the time it
 * spent working. Cheap requests that keep it always working hold nothing up for long, and still
 * leave no room for a draw.
 */
export function eventLoopWatch(): { now: () => { lagMs: number; utilisation: number }; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let previousMaxMs = 0;
  let windowStart = performance.eventLoopUtilization();
  let previousUtilisation = 0;
  const timer = setInterval(() => {
    previousMaxMs = histogram.max / 1e6;
    histogram.reset();
    previousUtilisation = performance.eventLoopUtilization(windowStart).utilization;
    windowStart = performance.eventLoopUtilization();
  }, 1_000);
  timer.unref();
  return {
    now: () => ({
      lagMs: Math.max(previousMaxMs, histogram.count > 0 ? histogram.max / 1e6 : 0),
      utilisation: previousUtilisation,
    }),
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/**
 * The budget of one process: `ask` answers `done`, to call when the draw is over, or how long to
 * wait before sending the page as built.
 */
export function drawBudget(limits: DrawLimits, loop: () => { lagMs: number; utilisation: number }, now: () => number = () => performance.now()) {
  let state = initialDrawState(limits, now());
  return {
    ask(session: string): { done: () => void } | { builtAfterMs: number } {
      state = drawReducer(state, { type: 'ask', session, at: now(), ...loop() }, limits);
      if (state.answer !== 'draw') return { builtAfterMs: state.answer === 'session over rate' ? limits.overRatePauseMs : 0 };
      let over = false;
      return {
        done: () => {
          if (over) return;
          over = true;
          state = drawReducer(state, { type: 'done', session }, limits);
        },
      };
    },
  };
}
