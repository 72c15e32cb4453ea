// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it, vi } from 'vitest';
import { registerUnsavedAnswers, sessionEnded, sessionStarted, setSessionEndedHandler } from './sessionEnd';

describe('a session end', () => {
  it('seen while the app starts (before its handler is registered) is delivered on registration, once, with what was unsaved', () => {
    const unsaved = { owner: 'a@b.c', answers: { first_name: 'Jordan' }, base: {}, gen: 'g1' };
    registerUnsavedAnswers(() => unsaved);
    sessionEnded();
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    expect(handler).toHaveBeenCalledExactlyOnceWith(unsaved);
    // Registered again (the app re-registers as it navigates): nothing more.
    setSessionEndedHandler(handler);
    sessionEnded();
    expect(handler).toHaveBeenCalledTimes(1);
    // After the next sign-in a 401 is a new session end.
    sessionStarted();
    sessionEnded();
    expect(handler).toHaveBeenCalledTimes(2);
  });
});
