import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudentAnswers } from '../../lib/navState';
import { createAnswersStore } from './answersStore';
import { useAutosave } from './useAutosave';

/** The hook over a store, recording each save's answers; `saved` is what the server holds as far as the page knows. */
function autosaving() {
  const answers = createAnswersStore({});
  const saved = { current: {} as StudentAnswers };
  const saves: StudentAnswers[] = [];
  const save = async (changes: StudentAnswers) => {
    saves.push(changes);
    saved.current = { ...saved.current, ...changes };
  };
  renderHook(() => useAutosave({ answers, saved, enabled: true, save }));
  return { answers, saves };
}

describe('autosave waits for typing to stop', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('saves 1.5 s after the last key, once, with every key typed', async () => {
    const { answers, saves } = autosaving();
    answers.set({ first_name: 'A' });
    await vi.advanceTimersByTimeAsync(1000);
    answers.set({ first_name: 'An' });
    await vi.advanceTimersByTimeAsync(1000);
    answers.set({ first_name: 'Ann' });
    await vi.advanceTimersByTimeAsync(1499);
    expect(saves).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves).toEqual([{ first_name: 'Ann' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(saves).toHaveLength(1);
  });

  it('saves again after a later change', async () => {
    const { answers, saves } = autosaving();
    answers.set({ first_name: 'Ann' });
    await vi.advanceTimersByTimeAsync(1500);
    answers.set({ last_name: 'Lee' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(saves).toEqual([{ first_name: 'Ann' }, { last_name: 'Lee' }]);
  });
});
