import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from './api/errors';
import { createQueryClient } from './api/queryClient';
import { AppProviders } from './app/AppProviders';
import { makeRoutes } from './app/routes';
import { authPaths } from './app/paths';
import { catalogue } from './catalogue';
import { assertCatalogue } from './catalogue/check';
import { dataModelKeys } from './catalogue/dataModel';
import { checkPartnerConfig, partnerConfig } from './config/partner';
import { applyTheme } from './ui/theme';
import './ui/styles.css';
import './app/layout.css';

checkPartnerConfig(partnerConfig, import.meta.env.DEV);
assertCatalogue(catalogue, dataModelKeys, import.meta.env.DEV);
applyTheme();

const router = createBrowserRouter(makeRoutes());

// spec/platform.md §8: on a 401 the app clears its cache and goes to /login with the message.
const queryClient = createQueryClient(() => {
  queryClient.clear();
  void router.navigate(authPaths.login, { state: { error: SESSION_INVALID_MESSAGE } });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
