import { useMemo, useSyncExternalStore } from 'react';
import { sameAnswersOn } from '../../../domain/rules/visibility';
import type { StudentAnswers } from '../../lib/navState';
import type { AnswersStore } from './answers/answersSession';

export type { AnswersStore };

const NO_ANSWERS: StudentAnswers = {};

/**
 * How components read the answers (decision 0031): outside React's state, so a key typed renders
 * the components that read the answers it changed (a field's group, by its `answersReadBy`), not
 * the provider and page around them. Every answer, drawn again on each change; `when` false: none,
 * and nothing is drawn again by the answers.
 */
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
