import type { Carry } from './navState';

type UnsavedAnswers = () => Carry | null;
type SessionEndedHandler = (unsaved: Carry | null) => void;

let unsavedAnswers: UnsavedAnswers | null = null;
let onSessionEnded: SessionEndedHandler | null = null;
let ended = false;
/** A session end seen before the app registered its handler (a call made while it starts). */
let undelivered = false;

/** The app's answer to a session the server no longer knows: clear the cache, go to /login (spec/platform.md §8). */
export function setSessionEndedHandler(handler: SessionEndedHandler): void {
  onSessionEnded = handler;
  if (undelivered) {
    undelivered = false;
    handler(unsavedAnswers?.() ?? null);
  }
}

/** The application registers what it holds unsaved, so a session end carries it to the sign-in. */
export function registerUnsavedAnswers(provider: UnsavedAnswers): () => void {
  unsavedAnswers = provider;
  return () => {
    if (unsavedAnswers === provider) unsavedAnswers = null;
  };
}

/**
 * Any call of the signed-in API answered 401: runs the handler once for the calls in flight when
 * the session ended, until the next sign-in.
 */
export function sessionEnded(): void {
  if (ended) return;
  ended = true;
  if (onSessionEnded) onSessionEnded(unsavedAnswers?.() ?? null);
  else undelivered = true;
}

/** A sign-in succeeded: a later 401 is a new session end. */
export function sessionStarted(): void {
  ended = false;
}
