import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { runBeforeAutoLogout } from '../../lib/beforeLogout';
import { keepAlive } from './api/keepAlive';
import { useSignOut } from './useSignOut';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { isLoggedIn } from '../../lib/identity';
import { KEEPALIVE_THROTTLE_MS } from '../../../domain/config';
import {
  countdownAnnouncement,
  INACTIVITY_LOGOUT_MESSAGE,
  inactivityPhase,
  inactivityTiming,
  LAST_ACTIVITY_KEY,
} from './inactivity';

const activityEvents = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

function readSharedActivity(): number | null {
  try {
    const value = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function writeSharedActivity(at: number) {
  try {
    localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // storage unavailable: this tab keeps its own timer
  }
}

/**
 * Signs a logged-in user out after 15 minutes without activity (spec/platform.md §4), with the
 * 'Still working?' dialog 60 s before. Wraps the form and the auth pages; does nothing when not
 * logged in. Activity is shared through localStorage, so every tab follows the same timer.
 */
export function InactivityGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const signOut = useSignOut();
  const loggedIn = isLoggedIn();
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
    await runBeforeAutoLogout();
    // Signed out whatever the logout call answers: the timer has run out.
    await signOut(INACTIVITY_LOGOUT_MESSAGE, { ignoreFailure: true });
    expiring.current = false;
  }, [signOut]);

  // Activity in the page keeps the server session alive too, at most once a minute: the server
  // waits that long and more (SESSION_GRACE_MS) before it ends a session the page shows as active.
  const lastKeepAlive = useRef(0);
  const markActive = useCallback((at = Date.now()) => {
    lastActivity.current = at;
    writeSharedActivity(at);
    if (at - lastKeepAlive.current >= KEEPALIVE_THROTTLE_MS) {
      lastKeepAlive.current = at;
      void keepAlive().catch(() => {}); // a 401 is the session end's to handle
    }
  }, []);

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
    const shared = readSharedActivity();
    // A page opened after the timeout (e.g. a laptop that slept) logs out; otherwise start fresh.
    // A sign-in in this page is fresh activity, whatever an earlier session left in storage.
    if (atPageLoad && shared !== null && inactivityPhase(Date.now() - shared).kind === 'expired') {
      void expire();
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
        void expire();
        return;
      }
      if (now - lastActivity.current > 1000) markActive(now);
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== LAST_ACTIVITY_KEY || !event.newValue) return;
      lastActivity.current = Number(event.newValue);
      if (inactivityPhase(Date.now() - lastActivity.current).kind === 'active') setSecondsLeft(null);
    };
    const tick = () => {
      const shared = readSharedActivity();
      if (shared !== null && shared > lastActivity.current) lastActivity.current = shared;
      const phase = inactivityPhase(Date.now() - lastActivity.current);
      if (phase.kind === 'expired') void expire();
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
  }, [loggedIn, expire, markActive, location.key]);

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
