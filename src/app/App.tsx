import { StrictMode, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from '../../domain/messages';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './routes';
import { authPaths } from '../lib/paths';
import { keepCarry } from '../lib/navState';
import { setSessionEndedHandler } from '../lib/sessionEnd';
import { leftDrawnPage, releaseHeld } from '../lib/prehydrate';

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
      keepCarry(unsaved);
      void navigate(authPaths.login, { state: { error: SESSION_INVALID_MESSAGE, ...(unsaved ? { carry: unsaved } : {}) } });
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
            <StartedOnLeaving />
            <AppRoutes />
          </>,
        )}
      </AppProviders>
    </StrictMode>
  );
}
