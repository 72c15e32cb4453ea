// @vitest-environment node -- plain logic: no DOM needed, so no jsdom to set up for it
import { describe, expect, it, vi } from 'vitest';
import { leavingUnsaved, registerUnsavedAnswers, sessionEnded, sessionStarted, setSessionEndedHandler } from './sessionEnd';

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

describe('a tab that stops showing its account with answers unsaved (issue 48)', () => {
  const unsaved = { owner: 'a@b.c', answers: { first_name: 'Jordan' }, base: {}, gen: 'g1' };

  it('another account signed in: keeps them for their account, and says so', () => {
    const stop = registerUnsavedAnswers(() => unsaved);
    expect(leavingUnsaved('another-account')).toEqual({
      keep: unsaved,
      note: 'Your latest answers were not saved to your account. They are kept in this tab: sign in again here with your own account to save them.',
    });
    stop();
  });

  it('a sign-out in another tab: keeps nothing, and says what was not saved', () => {
    const stop = registerUnsavedAnswers(() => unsaved);
    expect(leavingUnsaved('signed-out')).toEqual({ keep: null, note: 'Your latest answers in this tab were not saved before you signed out.' });
    stop();
  });

  it('nothing unsaved: nothing kept, nothing said', () => {
    const stop = registerUnsavedAnswers(() => null);
    expect(leavingUnsaved('another-account')).toEqual({ keep: null, note: null });
    stop();
  });
});
