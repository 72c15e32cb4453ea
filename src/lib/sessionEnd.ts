import { UNSAVED_KEPT_MESSAGE, UNSAVED_SIGNED_OUT_MESSAGE } from '../../domain/messages';
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
 * What a tab keeps and says as it stops showing its account with answers unsaved (issue 48):
 * another account signed in (here or in another tab): they are kept in the tab, for their own
 * account (a sign-in again carries them), and it says so; a sign-out in another tab: nothing of
 * the account stays in the browser, and it says what was not saved.
 */
export function leavingUnsaved(reason: 'another-account' | 'signed-out'): { keep: Carry | null; note: string | null } {
  const unsaved = unsavedAnswers?.() ?? null;
  if (!unsaved) return { keep: null, note: null };
  return reason === 'another-account' ? { keep: unsaved, note: UNSAVED_KEPT_MESSAGE } : { keep: null, note: UNSAVED_SIGNED_OUT_MESSAGE };
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

/**
 * The application this tab's pages were loaded for (the profile's id and username): sent with
 * every write, so a tab left open on one account never writes into the next one (issue 28). It is
 * kept after the tab leaves the application (a sign-out, a session end): a write still on its way
 * then (a save as the page closes) is refused too. Only the next profile binds anew.
 */
let bound: { applicationId: string; username: string } | null = null;
/** Whether the tab shows that application now. */
let showing = false;
let onAccountChanged: (() => void) | null = null;

export function bindApplication(application: { applicationId: string; username: string } | null): void {
  bound = application;
  showing = application !== null;
}
export const boundApplication = () => bound;
/** The application the tab shows now: null once it has gone to /login. */
export const shownApplication = () => (showing ? bound : null);
/** The tab left the application (to /login); its writes keep naming it. */
export function leftApplication(): void {
  showing = false;
}

/** The app's answer to a write refused because another account signed in since the page loaded. */
export function setAccountChangedHandler(handler: () => void): void {
  onAccountChanged = handler;
}

/** A write was refused with ACCOUNT_CHANGED: once, as for a session end. */
export function accountChanged(): void {
  if (!showing) return;
  showing = false;
  onAccountChanged?.();
}
