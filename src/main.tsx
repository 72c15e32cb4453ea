import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from '../domain/messages';
import { createQueryClient } from './lib/queryClient';
import { AppProviders } from './app/AppProviders';
import { makeRoutes } from './app/routes';
import { authPaths } from './lib/paths';
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

const router = createBrowserRouter(makeRoutes());

const queryClient = createQueryClient();
// spec/platform.md §8: on a 401 the app clears its cache and goes to /login with the message; what
// was typed and not saved goes with it, for the same account only.
setSessionEndedHandler((unsaved) => {
  queryClient.clear();
  keepCarry(unsaved);
  void router.navigate(authPaths.login, { state: { error: SESSION_INVALID_MESSAGE, ...(unsaved ? { carry: unsaved } : {}) } });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
