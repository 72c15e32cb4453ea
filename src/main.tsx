import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SESSION_INVALID_MESSAGE } from '../domain/messages';
import { createQueryClient } from './lib/queryClient';
import { AppProviders } from './app/AppProviders';
import { makeRoutes } from './app/routes';
import { authPaths } from './lib/paths';
import { catalogue } from '../domain/catalogue';
import { assertCatalogue } from '../domain/catalogue/check';
import { dataModelKeys } from '../domain/catalogue/dataModel';
import { checkPartnerConfig, partnerConfig } from '../domain/config';
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
