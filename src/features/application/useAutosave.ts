import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { UnauthorizedError } from '../../lib/api/errors';
import { AnswersConflictError } from './answerConflicts';
import type { StudentAnswers } from '../../lib/navState';
import type { AnswersStore } from './answersStore';

const AUTOSAVE_DELAY_MS = 1500;
/** After a failed save (the server out for a moment, a dropped connection): try again, waiting longer each time. */
const RETRY_DELAYS_MS = [5_000, 10_000, 20_000, 40_000, 60_000];

/** The keys whose value differs between two answer maps; removed keys are sent as ''. */
export function changedAnswers(saved: StudentAnswers, current: StudentAnswers): StudentAnswers {
  const out: StudentAnswers = {};
  for (const [key, value] of Object.entries(current)) if (saved[key] !== value) out[key] = value;
  for (const key of Object.keys(saved)) if (!(key in current)) out[key] = '';
  return out;
}

export type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * Beyond the spec: while logged in, changed answers are saved a moment after typing stops and when
 * the page is hidden (a closed tab or a switched app), so nothing typed is lost.
 */
export function useAutosave(options: {
  /** The answers shown: each change starts the wait again. */
  answers: Pick<AnswersStore, 'get' | 'subscribe'>;
  /**
   * What the server holds as far as this page knows, kept by the page's saves (`save` moves it on):
   * answers beyond it (carried from before signing in, typed) are saved.
   */
  saved: RefObject<StudentAnswers>;
  enabled: boolean;
  save: (changes: StudentAnswers, keepalive: boolean) => Promise<unknown>;
  /** Typed but not committed yet (a text area's draft before blur): saved with the next flush too. */
  pending?: () => StudentAnswers;
}) {
  const { answers, enabled, save } = options;
  const pending = useRef(options.pending);
  pending.current = options.pending;
  const saved = options.saved;
  const [state, setState] = useState<AutosaveState>('idle');
  const retry = useRef<{ timer?: ReturnType<typeof setTimeout>; failures: number }>({ failures: 0 });
  useEffect(() => () => clearTimeout(retry.current.timer), []);

  const current = () => ({ ...answers.get(), ...pending.current?.() });

  async function flush(keepalive: boolean) {
    const snapshot = current();
    const changes = changedAnswers(saved.current, snapshot);
    if (Object.keys(changes).length === 0) return;
    setState('saving');
    clearTimeout(retry.current.timer);
    try {
      await save(changes, keepalive);
      retry.current.failures = 0;
      setState('saved');
    } catch (error) {
      // Answers changed elsewhere: the applicant chooses in the dialog, which saves again.
      if (error instanceof AnswersConflictError) return setState('idle');
      setState('failed');
      // A session that ended is handled by the sign-in screen (the answers are carried there).
      if (error instanceof UnauthorizedError) return;
      const delay = RETRY_DELAYS_MS[Math.min(retry.current.failures++, RETRY_DELAYS_MS.length - 1)];
      retry.current.timer = setTimeout(() => void flush(false), delay);
    }
  }

  // A moment after the last change; once as it is enabled too (answers carried in from before
  // signing in). A key only moves the time due: the timer, set once, waits on until then.
  useEffect(() => {
    if (!enabled) return;
    let due = Date.now() + AUTOSAVE_DELAY_MS;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const fire = () => {
      const wait = due - Date.now();
      timer = wait > 0 ? setTimeout(fire, wait) : null;
      if (timer === null) void flush(false);
    };
    timer = setTimeout(fire, AUTOSAVE_DELAY_MS);
    const unsubscribe = answers.subscribe(() => {
      due = Date.now() + AUTOSAVE_DELAY_MS;
      timer ??= setTimeout(fire, AUTOSAVE_DELAY_MS);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [answers, enabled]); // eslint-disable-line react-hooks/exhaustive-deps -- flush reads the latest answers from the store

  useEffect(() => {
    if (!enabled) return;
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void flush(true);
    };
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onHidden);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onHidden);
    };
  }, [enabled]); // eslint-disable-line react-hooks/exhaustive-deps -- flush reads the latest answers from the store

  /** What is typed and not saved yet, with what the server held for each of those keys. */
  const unsaved = useCallback(() => {
    const changes = changedAnswers(saved.current, current());
    const base = Object.fromEntries(Object.keys(changes).map((key) => [key, saved.current[key] ?? '']));
    return { answers: changes, base };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- reads the page's store and refs, which never change
  return { state, unsaved };
}
