import { AnswersConflictError } from '../answerConflicts';
import { answersReducer, initialAnswersState, planSave, type AnswersEvent, type AnswersState, type StudentAnswers } from './answersMachine';

/** How a PUT /api/answer ended, as the page reads it. */
export type PutOutcome =
  | { kind: 'saved'; revision: number | null; current: StudentAnswers }
  /** 409 ANSWERS_CHANGED: nothing was written. */
  | { kind: 'conflict'; conflicts: string[]; current: StudentAnswers; message: string }
  /** Anything else; `retry`: worth trying again later (offline, the server away), not a refusal. */
  | { kind: 'failed'; error: unknown; retry: boolean };

/** A clock the session waits on: the page's, or a test's. */
export interface SessionClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** The session's I/O: the page's (the API client, BroadcastChannel, window timers) or a test's. */
export interface AnswersPorts {
  put(body: StudentAnswers, options: { base: string; keepalive: boolean }): Promise<PutOutcome>;
  /** Another tab of this browser hears what this page wrote. */
  saved?(answers: StudentAnswers): void;
  clock: SessionClock;
}

/** How long after the last change autosave waits. */
export const AUTOSAVE_DELAY_MS = 1500;
/** After a failed save (offline, the server away for a moment): again, waiting longer each time. */
export const RETRY_DELAYS_MS = [5_000, 10_000, 20_000, 40_000, 60_000];

/** Changes that start autosave's wait again. */
const changesAnswers = new Set<AnswersEvent['type']>(['typed', 'drafted', 'loaded', 'conflictAnswered', 'draftsTakenUp']);

/**
 * The answers a component reads and changes: every answer (`get`), drawn again when the keys it
 * reads change (`subscribe` with keys), changed by the applicant (`set`).
 */
export interface AnswersStore {
  get(): StudentAnswers;
  /** The edits made since the page loaded, for the checks that ask whether anything was typed. */
  edits(): StudentAnswers;
  set(update: StudentAnswers): void;
  /** `keys`: told only when one of them changes (a group's answers); without, on every change. */
  subscribe(listener: () => void, keys?: ReadonlySet<string> | null): () => void;
}

export interface AnswersSession extends AnswersStore {
  state(): AnswersState;
  /** Reduces the event and tells the readers whose answers changed (and the watchers of the state). */
  dispatch(event: AnswersEvent): void;
  /** Reduces without telling anyone or starting anything: while the provider renders; `notify` follows once it has. */
  dispatchQuietly(event: AnswersEvent): void;
  /** Tells every reader, after a quiet dispatch. */
  notify(): void;
  /** Watches the whole state (the provider's conflicts and "Saved" line). */
  watch(listener: () => void): () => void;
  /**
   * Saves now, after any save on its way (each one's base is what the one before left): `changes`
   * or `all` (the buttons). Rejects with AnswersConflictError when answers changed on both sides
   * are to be asked about, and with the call's error when it failed.
   */
  save(kind: 'changes' | 'all'): Promise<void>;
  /** The page is hidden or closing: what is unsaved goes at once, as a keepalive call. */
  lastWords(): void;
  /** Autosave looks for unsaved answers (the page is up: carried answers go a moment later). */
  start(): void;
  /** Stops the timers (the page is gone). */
  dispose(): void;
}

/**
 * The answers' reducer with its I/O (issue 48): saves one at a time, autosave 1.5 s after the
 * last change (a text area's draft too), retried after a failure, a closing page's last words.
 * No React, no DOM: the provider gives it the page's ports, the model-based test a test's.
 */
export function createAnswersSession(ports: AnswersPorts, initial: AnswersState = initialAnswersState): AnswersSession {
  let state = initial;
  const everyChange = new Set<() => void>();
  const byKey = new Map<string, Set<() => void>>();
  const watchers = new Set<() => void>();
  let quietlyChanged = false;

  /** Tells the readers of every answer, those of the keys that changed, and the watchers. */
  function tell(before: AnswersState) {
    if (before.shown !== state.shown) {
      const told = new Set(everyChange);
      for (const [key, readers] of byKey) if (before.shown[key] !== state.shown[key]) for (const reader of readers) told.add(reader);
      for (const reader of told) reader();
    }
    if (before !== state) for (const watcher of watchers) watcher();
  }

  function dispatch(event: AnswersEvent) {
    const before = state;
    state = answersReducer(state, event);
    tell(before);
    if (changesAnswers.has(event.type)) autosaveSoon();
  }

  // Autosave: a moment after the last change. A change only moves the time due: the timer, set
  // once, waits on until then.
  let due = 0;
  let timer: unknown = null;
  let failures = 0;
  let retryTimer: unknown = null;
  function autosaveSoon() {
    due = ports.clock.now() + AUTOSAVE_DELAY_MS;
    if (timer === null) timer = ports.clock.setTimeout(fire, AUTOSAVE_DELAY_MS);
  }
  function fire() {
    const wait = due - ports.clock.now();
    if (wait > 0) {
      timer = ports.clock.setTimeout(fire, wait);
      return;
    }
    timer = null;
    void autosave();
  }
  async function autosave() {
    if (retryTimer !== null) ports.clock.clearTimeout(retryTimer);
    retryTimer = null;
    try {
      await save('changes');
      failures = 0;
    } catch (error) {
      // Answers changed elsewhere: the dialog asks, and its answer saves. A refusal (the session
      // over, another account, submitted) is not tried again; the rest is, waiting longer each time.
      if (error instanceof AnswersConflictError || !(error instanceof Error) || !retryable.has(error)) return;
      const delay = RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)]!;
      retryTimer = ports.clock.setTimeout(() => void autosave(), delay);
    }
  }
  const retryable = new WeakSet<object>();

  let saveIds = 0;
  /** Sends one planned save and reduces its outcome; the outcome's error is thrown. */
  async function send(body: StudentAnswers, base: string, keepalive: boolean) {
    const id = ++saveIds;
    dispatch({ type: 'saveSent', id, body });
    const outcome = await ports.put(body, { base, keepalive });
    if (outcome.kind === 'saved') {
      dispatch({ type: 'saveAcknowledged', id, revision: outcome.revision, current: outcome.current });
      const written = Object.fromEntries(Object.entries(body).filter(([key]) => !(key in outcome.current)));
      ports.saved?.(written);
      return;
    }
    if (outcome.kind === 'conflict') {
      dispatch({ type: 'saveConflicted', id, conflicts: outcome.conflicts, current: outcome.current });
      // Nothing was written: what is not in question goes again a moment later.
      autosaveSoon();
      throw new AnswersConflictError(outcome.message);
    }
    dispatch({ type: 'saveFailed', id });
    const error = outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    if (outcome.retry) retryable.add(error);
    throw error;
  }

  let queue: Promise<unknown> = Promise.resolve();
  function save(kind: 'changes' | 'all'): Promise<void> {
    const run = async () => {
      const plan = planSave(state, kind);
      if (plan === 'asking') throw new AnswersConflictError();
      if (plan === 'nothing') return;
      await send(plan.body, plan.base, false);
    };
    const next = queue.then(run, run);
    queue = next.catch(() => {});
    return next;
  }

  return {
    state: () => state,
    get: () => state.shown,
    edits: () => state.edits,
    set: (update) => dispatch({ type: 'typed', update }),
    subscribe(listener, keys) {
      if (!keys) {
        everyChange.add(listener);
        return () => everyChange.delete(listener);
      }
      for (const key of keys) byKey.set(key, (byKey.get(key) ?? new Set()).add(listener));
      return () => {
        for (const key of keys) byKey.get(key)?.delete(listener);
      };
    },
    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    dispatch,
    dispatchQuietly(event) {
      // Pure, as a render must be: no timer starts here (a render React throws away would leave
      // one behind, saving from a session nobody shows); `start`, once the page is up, does.
      const before = state;
      state = answersReducer(state, event);
      if (state !== before) quietlyChanged = true;
    },
    notify() {
      if (!quietlyChanged) return;
      quietlyChanged = false;
      for (const reader of everyChange) reader();
      for (const readers of byKey.values()) for (const reader of readers) reader();
      for (const watcher of watchers) watcher();
    },
    save,
    lastWords() {
      // A save as the page closes goes at once: behind another, it would never leave. Its base
      // counts the saves on their way as landed or not (a second value), so whichever lands
      // first, neither overwrites the other's newer answer.
      const plan = planSave(state, 'lastWords');
      if (typeof plan === 'string') return;
      void send(plan.body, plan.base, true).catch(() => {});
    },
    start: autosaveSoon,
    dispose() {
      for (const pending of [timer, retryTimer]) if (pending !== null) ports.clock.clearTimeout(pending);
      timer = retryTimer = null;
    },
  };
}
