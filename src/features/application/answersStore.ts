import { useMemo, useSyncExternalStore } from 'react';
import { sameAnswersOn } from '../../../domain/rules/visibility';
import type { StudentAnswers } from '../../lib/navState';

/** The rule clearing what a change hides: the answers, and the keys changed (null: every key). */
type Clearing = (answers: StudentAnswers, changed: readonly string[] | null) => StudentAnswers;

/**
 * The answers as the applicant sees them, outside React's state (decision 0031): a key typed
 * renders the components that read the answers it changed (a field's group, by its
 * `answersReadBy`), not the provider and page around them. The answers are the base (saved, and
 * carried from before signing in) with the edits made since on top.
 */
export interface AnswersStore {
  get(): StudentAnswers;
  /** The edits made since the page loaded, for the checks that ask whether anything was typed. */
  edits(): StudentAnswers;
  /** Changes answers; the hidden answers it leaves are cleared in the same step, then readers are told once. */
  set(update: StudentAnswers): void;
  /**
   * A new base (the profile loaded or read again). Quiet: the provider sets it while it renders,
   * so the page drawn in the same pass reads it; `notify` then tells the readers that were not drawn.
   */
  setBaseQuietly(base: StudentAnswers): void;
  /** Tells every reader (after `setBaseQuietly`). */
  notify(): void;
  /**
   * The rule clearing what a change hides (spec/form.md §4), given the answers and the keys changed
   * (null: every key); null turns it off (before the profile has loaded, once submitted). Turning it
   * on checks every answer at once.
   */
  setClearing(clearing: Clearing | null): void;
  /** `keys`: told only when one of them changes (a group's answers); without, on every change. */
  subscribe(listener: () => void, keys?: ReadonlySet<string> | null): () => void;
}

export function createAnswersStore(base: StudentAnswers = {}): AnswersStore {
  let currentBase = base;
  let edits: StudentAnswers = {};
  let answers = base;
  let clearing: Clearing | null = null;
  const listeners = new Set<() => void>();
  // Readers of a few keys, by key: a keystroke tells the groups that read it, not every group.
  const byKey = new Map<string, Set<() => void>>();

  /** Applies `update` to the edits; the keys whose shown answer changed. */
  const apply = (update: StudentAnswers): string[] => {
    const changed = Object.keys(update).filter((key) => answers[key] !== update[key]);
    // An edit equal to what is shown is still kept: it is what the applicant chose over the base.
    edits = { ...edits, ...update };
    if (changed.length > 0) answers = { ...answers, ...update };
    return changed;
  };
  /** Clears what the change of `changed` (null: of anything) hides; the keys it cleared. */
  const settle = (changed: readonly string[] | null): string[] => {
    if (!clearing) return [];
    const clear = clearing(answers, changed);
    return Object.keys(clear).length > 0 ? apply(clear) : [];
  };
  /** Tells the readers of every answer, and those of `changed` (null: every reader). */
  const notify = (changed: readonly string[] | null) => {
    const told = new Set(listeners);
    const keys = changed ?? [...byKey.keys()];
    for (const key of keys) for (const reader of byKey.get(key) ?? []) told.add(reader);
    for (const listener of told) listener();
  };

  return {
    get: () => answers,
    edits: () => edits,
    set(update) {
      const changed = apply(update);
      if (changed.length === 0) return;
      notify([...changed, ...settle(changed)]);
    },
    setBaseQuietly(next) {
      if (next === currentBase) return;
      currentBase = next;
      answers = { ...next, ...edits };
      settle(null);
    },
    notify: () => notify(null),
    setClearing(next) {
      clearing = next;
      const before = answers;
      settle(null);
      if (answers !== before) notify(null);
    },
    subscribe(listener, keys) {
      if (!keys) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      }
      for (const key of keys) byKey.set(key, (byKey.get(key) ?? new Set()).add(listener));
      return () => {
        for (const key of keys) byKey.get(key)?.delete(listener);
      };
    },
  };
}

const NO_ANSWERS: StudentAnswers = {};

/** Every answer, drawn again on each change; `when` false: none, and nothing is drawn again by the answers. */
export function useAnswersFrom(store: AnswersStore, when = true): StudentAnswers {
  const read = () => (when ? store.get() : NO_ANSWERS);
  return useSyncExternalStore(store.subscribe, read, read);
}

/**
 * A reader of the answers that gives the same object until one of `keys` changes (null: any): the
 * whole answers as they were at the last change of those keys.
 */
export function readerOn(store: Pick<AnswersStore, 'get'>, keys: ReadonlySet<string> | null): () => StudentAnswers {
  let last: StudentAnswers | null = null;
  return () => {
    const now = store.get();
    if (last === null || !sameAnswersOn(keys, last, now)) last = now;
    return last;
  };
}

/** The answers, drawn again only when one of `keys` changes (null: any): what a component reading a few of them needs. */
export function useAnswersOnFrom(store: AnswersStore, keys: ReadonlySet<string> | null): StudentAnswers {
  const { read, subscribe } = useMemo(() => ({ read: readerOn(store, keys), subscribe: (listener: () => void) => store.subscribe(listener, keys) }), [store, keys]);
  return useSyncExternalStore(subscribe, read, read);
}
