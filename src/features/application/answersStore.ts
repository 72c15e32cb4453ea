import { useMemo, useSyncExternalStore } from 'react';
import { sameAnswersOn } from '../../../domain/rules/visibility';
import type { StudentAnswers } from '../../lib/navState';

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
  notify(): void;
  /**
   * The rule clearing what a change hides (spec/form.md §4), given the answers and the keys changed
   * (null: every key); null turns it off (before the profile has loaded, once submitted). Turning it
   * on checks every answer at once.
   */
  setClearing(clearing: ((answers: StudentAnswers, changed: readonly string[] | null) => StudentAnswers) | null): void;
  subscribe(listener: () => void): () => void;
}

export function createAnswersStore(base: StudentAnswers = {}): AnswersStore {
  let currentBase = base;
  let edits: StudentAnswers = {};
  let answers = base;
  let clearing: ((answers: StudentAnswers, changed: readonly string[] | null) => StudentAnswers) | null = null;
  const listeners = new Set<() => void>();

  /** Applies `update` to the edits; the keys whose shown answer changed. */
  const apply = (update: StudentAnswers): string[] => {
    const changed = Object.keys(update).filter((key) => answers[key] !== update[key]);
    // An edit equal to what is shown is still kept: it is what the applicant chose over the base.
    edits = { ...edits, ...update };
    if (changed.length > 0) answers = { ...answers, ...update };
    return changed;
  };
  const settle = (changed: readonly string[] | null) => {
    if (!clearing) return;
    const clear = clearing(answers, changed);
    if (Object.keys(clear).length > 0) apply(clear);
  };
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  return {
    get: () => answers,
    edits: () => edits,
    set(update) {
      const changed = apply(update);
      if (changed.length === 0) return;
      settle(changed);
      notify();
    },
    setBaseQuietly(next) {
      if (next === currentBase) return;
      currentBase = next;
      answers = { ...next, ...edits };
      settle(null);
    },
    notify,
    setClearing(next) {
      clearing = next;
      const before = answers;
      settle(null);
      if (answers !== before) notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
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
  const read = useMemo(() => readerOn(store, keys), [store, keys]);
  return useSyncExternalStore(store.subscribe, read, read);
}
