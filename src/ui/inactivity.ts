import { INACTIVITY_TIMEOUT_MS, INACTIVITY_WARNING_MS } from '../../domain/config';

/** One place for the inactivity timings; tests drive them with Playwright's clock. */
export const inactivityTiming = {
  timeoutMs: INACTIVITY_TIMEOUT_MS,
  warningMs: INACTIVITY_WARNING_MS,
  /** The countdown is announced to screen readers at most this often. */
  announceEveryMs: 20_000,
  tickMs: 1_000,
};

export const INACTIVITY_LOGOUT_MESSAGE = 'You have been automatically logged out due to inactivity.';

/** Shared by every tab of the browser, so a second tab follows the same timer. */
export const LAST_ACTIVITY_KEY = 'portal.lastActivity';

export type InactivityPhase = { kind: 'active' } | { kind: 'warning'; secondsLeft: number } | { kind: 'expired' };

/** Where the timer stands `idleMs` after the last activity. */
export function inactivityPhase(idleMs: number, timing = inactivityTiming): InactivityPhase {
  if (idleMs >= timing.timeoutMs) return { kind: 'expired' };
  if (idleMs >= timing.timeoutMs - timing.warningMs) return { kind: 'warning', secondsLeft: Math.ceil((timing.timeoutMs - idleMs) / 1000) };
  return { kind: 'active' };
}

/** The announcement for the live region: at the warning's start, then only every 20 s. */
export function countdownAnnouncement(secondsLeft: number, timing = inactivityTiming): string | null {
  const step = timing.announceEveryMs / 1000;
  const first = Math.ceil(timing.warningMs / 1000);
  if (secondsLeft === first || secondsLeft % step === 0) {
    return `You will be signed out in ${secondsLeft} seconds.`;
  }
  return null;
}

/** The last activity the tabs of this browser share, or null (none yet, or no storage). */
export function readSharedActivity(key: string): number | null {
  try {
    const value = Number(localStorage.getItem(key));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/**
 * Whether the shared timer had run out when a session was found ended: a laptop that slept, a
 * frozen tab, another tab's sign-out. Such an end shows the inactivity message (issue 28).
 */
export function idleTooLong(key = LAST_ACTIVITY_KEY, now = Date.now(), timing = inactivityTiming): boolean {
  const last = readSharedActivity(key);
  return last !== null && inactivityPhase(now - last, timing).kind === 'expired';
}
