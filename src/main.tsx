import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from '../domain/messages';
import { createQueryClient } from './lib/queryClient';
import { AppProviders } from './app/AppProviders';
import { AppRoutes, preloadFormCode } from './app/routes';
import { authPaths } from './lib/paths';
import { isLoggedIn } from './lib/identity';
import { profileQuery } from './features/application/api/profile';
import { addAnotherQuery } from './features/application/api/addAnother';
import { keepCarry } from './lib/navState';
import { setSessionEndedHandler } from './lib/sessionEnd';
import { checkPartnerConfig, partnerConfig } from '../domain/config';
import { applyTheme } from './ui/theme';
import './ui/styles.css';
import './app/layout.css';

checkPartnerConfig(partnerConfig, import.meta.env.DEV);
// In development only (a production build drops the branch, and the catalogue with it from this chunk).
if (import.meta.env.DEV) void import('./devChecks').then(({ checkCatalogue }) => checkCatalogue());
applyTheme();

const queryClient = createQueryClient();

// A visit to a form page (or a path that leads to one): its code, and for a signed-in applicant its
// data, are fetched at once and side by side, not each when the one before has arrived.
const openedPath = window.location.pathname.toLowerCase().replace(/\/+$/, '');
if (!(Object.values(authPaths) as string[]).includes(openedPath) && openedPath !== '/staff' && !openedPath.startsWith('/staff/')) {
  preloadFormCode();
  if (isLoggedIn()) {
    void queryClient.prefetchQuery(profileQuery);
    void queryClient.prefetchQuery(addAnotherQuery);
  }
}

/**
 * spec/platform.md §8: on a 401 the app clears its cache and goes to /login with the message; what
 * was typed and not saved goes with it, for the same account only.
 */
function SessionEndedNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    setSessionEndedHandler((unsaved) => {
      queryClient.clear();
      keepCarry(unsaved);
      void navigate(authPaths.login, { state: { error: SESSION_INVALID_MESSAGE, ...(unsaved ? { carry: unsaved } : {}) } });
    });
  }, [navigate]);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <SessionEndedNavigation />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
