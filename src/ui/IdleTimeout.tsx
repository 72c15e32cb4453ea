import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { KEEPALIVE_THROTTLE_MS } from '../../domain/config';
import { Button } from './Button';
import { Modal } from './Modal';
import { countdownAnnouncement, inactivityPhase, inactivityTiming, readSharedActivity } from './inactivity';

const activityEvents = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

function writeSharedActivity(key: string, at: number) {
  try {
    localStorage.setItem(key, String(at));
  } catch {
    // storage unavailable: this tab keeps its own timer
  }
}

export interface IdleTimeoutProps {
  /** Whether someone is signed in: the timer runs only then. */
  loggedIn: boolean;
  /** Where the tabs of this browser share the time of the last activity. */
  activityKey: string;
  /** Tells the server the person is still there (at most once a minute). */
  keepAlive: () => Promise<unknown>;
  /** Signs out, whatever the server answers: the time has run out. */
  signOut: () => Promise<void>;
  /**
   * When the account's session was last used by any tab, as the server has it (ms since the
   * epoch; null: it has ended). Asked before signing out: inactivity is the account's, across tabs.
   */
  lastActiveOnServer?: () => Promise<number | null>;
  /** Changes with each navigation, so the listeners follow the page. */
  pageKey?: string;
  children: ReactNode;
}

/**
 * Signs a signed-in person out after 15 minutes without activity (spec/platform.md §4), with the
 * 'Still working?' dialog 60 s before; does nothing when nobody is signed in. Activity is shared
 * through localStorage, so every tab follows the same timer. The applicant's pages and the staff
 * console each wrap themselves in one, with their own calls.
 */
export function IdleTimeout({ loggedIn, activityKey, keepAlive, signOut, lastActiveOnServer, pageKey, children }: IdleTimeoutProps) {
  const lastActivity = useRef(Date.now());
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const expiring = useRef(false);
  // Read by the activity listener: while the warning shows, only 'Stay' counts as activity.
  const secondsLeftRef = useRef(secondsLeft);
  secondsLeftRef.current = secondsLeft;

  const expire = useCallback(async () => {
    if (expiring.current) return;
    expiring.current = true;
    setSecondsLeft(null);
    await signOut();
    expiring.current = false;
  }, [signOut]);

  /**
   * Signs out only once the account has been idle as it stands (issue 48): a phone's tab that
   * wakes after 15 minutes reads the shared activity before the other tabs' news has reached it,
   * so it reads the shared activity again and asks the server when any tab last used the session.
   * A server that cannot be reached (offline) leaves the tab's own reading to decide.
   */
  const checking = useRef(false);
  const expireIfIdle = useCallback(async () => {
    if (expiring.current || checking.current) return;
    checking.current = true;
    try {
      const shared = readSharedActivity(activityKey);
      if (shared !== null && shared > lastActivity.current) lastActivity.current = shared;
      if (inactivityPhase(Date.now() - lastActivity.current).kind !== 'expired') return;
      const onServer = lastActiveOnServer ? await lastActiveOnServer().catch(() => undefined) : undefined;
      if (typeof onServer === 'number' && inactivityPhase(Date.now() - onServer).kind !== 'expired') {
        lastActivity.current = Math.max(lastActivity.current, onServer);
        setSecondsLeft(null);
        return;
      }
      void expire();
    } finally {
      checking.current = false;
    }
  }, [activityKey, expire, lastActiveOnServer]);

  // Activity in the page keeps the server session alive too, at most once a minute: the server
  // waits that long and more (SESSION_GRACE_MS) before it ends a session the page shows as active.
  const lastKeepAlive = useRef(0);
  const markActive = useCallback((at = Date.now()) => {
    lastActivity.current = at;
    writeSharedActivity(activityKey, at);
    if (at - lastKeepAlive.current >= KEEPALIVE_THROTTLE_MS) {
      lastKeepAlive.current = at;
      void keepAlive().catch(() => {}); // a 401 is the session end's to handle
    }
  }, [activityKey, keepAlive]);

  const stay = useCallback(() => {
    lastKeepAlive.current = 0; // 'Stay' always reaches the server
    markActive();
    setSecondsLeft(null);
    setAnnouncement('');
  }, [markActive]);

  const pageLoad = useRef(true);
  useEffect(() => {
    const atPageLoad = pageLoad.current;
    pageLoad.current = false;
    if (!loggedIn) return;
    const shared = readSharedActivity(activityKey);
    // A page opened after the timeout (e.g. a laptop that slept) logs out; otherwise start fresh.
    // A sign-in in this page is fresh activity, whatever an earlier session left in storage.
    if (atPageLoad && shared !== null && inactivityPhase(Date.now() - shared).kind === 'expired') {
      void expireIfIdle();
      return;
    }
    lastKeepAlive.current = Date.now(); // the page's own calls (the profile) just touched the session
    markActive();
  }, [loggedIn]); // eslint-disable-line react-hooks/exhaustive-deps -- only when the sign-in state changes, not on every new expire

  useEffect(() => {
    if (!loggedIn) return;
    const onActivity = () => {
      if (expiring.current || secondsLeftRef.current !== null) return; // during the warning only 'Stay' counts
      const now = Date.now();
      if (inactivityPhase(now - lastActivity.current).kind === 'expired') {
        void expireIfIdle();
        return;
      }
      if (now - lastActivity.current > 1000) markActive(now);
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== activityKey || !event.newValue) return;
      lastActivity.current = Number(event.newValue);
      if (inactivityPhase(Date.now() - lastActivity.current).kind === 'active') setSecondsLeft(null);
    };
    const tick = () => {
      const shared = readSharedActivity(activityKey);
      if (shared !== null && shared > lastActivity.current) lastActivity.current = shared;
      const phase = inactivityPhase(Date.now() - lastActivity.current);
      if (phase.kind === 'expired') void expireIfIdle();
      else if (phase.kind === 'warning') {
        setSecondsLeft(phase.secondsLeft);
        const said = countdownAnnouncement(phase.secondsLeft);
        if (said) setAnnouncement(said);
      } else setSecondsLeft(null);
    };
    for (const name of activityEvents) window.addEventListener(name, onActivity, { passive: true, capture: true });
    window.addEventListener('storage', onStorage);
    const timer = setInterval(tick, inactivityTiming.tickMs);
    return () => {
      for (const name of activityEvents) window.removeEventListener(name, onActivity, { capture: true });
      window.removeEventListener('storage', onStorage);
      clearInterval(timer);
    };
  }, [loggedIn, expireIfIdle, markActive, activityKey, pageKey]);

  const open = loggedIn && secondsLeft !== null;
  return (
    <>
      {children}
      <Modal
        open={open}
        onClose={stay}
        header="Still working?"
        size="s"
        footer={
          <>
            <Button onClick={stay}>Stay signed in</Button>
            <Button variant="secondary" onClick={() => void expire()}>
              Log out
            </Button>
          </>
        }
      >
        <p>
          For your security, you will be signed out in{' '}
          <strong aria-hidden="true">
            {secondsLeft} {secondsLeft === 1 ? 'second' : 'seconds'}
          </strong>
          <span className="visually-hidden">one minute</span>. Your answers are saved first.
        </p>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </Modal>
    </>
  );
}
