import { StrictMode, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { ACCOUNT_CHANGED_MESSAGE, SESSION_INVALID_MESSAGE } from '../../domain/messages';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './routes';
import { authPaths, COMPLETION_PATH } from '../lib/paths';
import { keepCarry } from '../lib/navState';
import { leavingUnsaved, leftApplication, setAccountChangedHandler, setSessionEndedHandler, shownApplication } from '../lib/sessionEnd';
import { onOtherTabs } from '../lib/tabSync';
import { idleTooLong, INACTIVITY_LOGOUT_MESSAGE } from '../ui/inactivity';
import { useToast } from '../ui/Toast';
import { leftDrawnPage, releaseHeld } from '../lib/prehydrate';

/** The spec's message for a session that ended: the inactivity one when the timer ended it. */
const sessionEndMessage = (byInactivity: boolean) => (byInactivity ? INACTIVITY_LOGOUT_MESSAGE : SESSION_INVALID_MESSAGE);

/**
 * spec/platform.md §8: on a 401 the app clears its cache and goes to /login with the message; what
 * was typed and not saved goes with it, for the same account only.
 */
function SessionEndedNavigation() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    setSessionEndedHandler((unsaved) => {
      queryClient.clear();
      leftApplication();
      keepCarry(unsaved);
      // Ended by the inactivity timer, however it was noticed (a sleep, a frozen tab): its message.
      void navigate(authPaths.login, { state: { error: sessionEndMessage(idleTooLong()), ...(unsaved ? { carry: unsaved } : {}) } });
    });
  }, [navigate, queryClient]);
  return null;
}

const NOTICE_KEY = 'portal.noticeAfterReload';

/** Opens this tab again for whoever is signed in now: nothing of the page it showed goes along. */
function reloadForCurrentAccount(notice: string | null, path = window.location.pathname) {
  try {
    if (notice) sessionStorage.setItem(NOTICE_KEY, notice);
  } catch {
    // storage disabled: the page opens without the notice
  }
  window.location.replace(path);
}

/**
 * Tabs keep in step (issue 28): a sign-out, a sign-in as someone else or a submit in one tab
 * reaches every tab of the browser; a write from a page of another account reloads it.
 */
function TabsInStep() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  useEffect(() => {
    let notice: string | null;
    try {
      notice = sessionStorage.getItem(NOTICE_KEY);
      sessionStorage.removeItem(NOTICE_KEY);
    } catch {
      notice = null;
    }
    if (notice) showToast({ severity: 'error', label: 'Error', message: notice });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the app starts
  useEffect(() => {
    // Answers typed just before another account signed in are kept in the tab for their own
    // account, and the page says so (issue 48).
    const forAnotherAccount = (notice: string | null) => {
      const { keep, note } = leavingUnsaved('another-account');
      keepCarry(keep);
      reloadForCurrentAccount([notice, note].filter(Boolean).join(' ') || null);
    };
    setAccountChangedHandler(() => forAnotherAccount(ACCOUNT_CHANGED_MESSAGE));
    return onOtherTabs((message) => {
      const bound = shownApplication();
      if (message.type === 'signed-out' && bound) {
        const { note } = leavingUnsaved('signed-out');
        leftApplication();
        queryClient.clear();
        void navigate(authPaths.login, { state: { error: [sessionEndMessage(message.reason === 'inactivity'), note].filter(Boolean).join(' ') } });
      } else if (message.type === 'signed-in' && bound && bound.username !== message.username) {
        leftApplication();
        forAnotherAccount(null);
      } else if (message.type === 'submitted' && bound?.applicationId === message.applicationId) {
        reloadForCurrentAccount(null, COMPLETION_PATH);
      }
    });
  }, [navigate, queryClient]);
  return null;
}

/** A form page the server drew, left before its form ran (src/lib/prehydrate.ts). */
function StartedOnLeaving() {
  const { pathname } = useLocation();
  const [opened] = useState(pathname);
  useEffect(() => {
    if (pathname !== opened) leftDrawnPage();
  }, [pathname, opened]);
  return null;
}

/**
 * The whole app under a router: the browser's (src/main.tsx) or a static one (src/prerender.tsx,
 * which renders the sign-in screens at build time). One tree for both, so that the browser hydrates
 * exactly what was rendered ahead (the ids React derives from the tree's shape included).
 */
export function App({ queryClient, router }: { queryClient: QueryClient; router: (routes: ReactNode) => ReactNode }) {
  // The first commit (a parent's effect runs after its children's): presses held before it go on.
  useEffect(releaseHeld, []);
  return (
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        {router(
          <>
            <SessionEndedNavigation />
            <TabsInStep />
            <StartedOnLeaving />
            <AppRoutes />
          </>,
        )}
      </AppProviders>
    </StrictMode>
  );
}
