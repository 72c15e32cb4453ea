import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './lib/queryClient';
import { App } from './app/App';
import { preloadFormCode } from './app/routes';
import { sendErrorReport } from './app/ErrorScreen';
import { authPaths } from './lib/paths';
import { isLoggedIn } from './lib/identity';
import { profileQuery } from './features/application/api/profile';
import { addAnotherQuery } from './features/application/api/addAnother';
import { checkPartnerConfig, partnerConfig } from '../domain/config';
import 'virtual:theme.css';
import './ui/styles.css';
import './app/layout.css';

checkPartnerConfig(partnerConfig, import.meta.env.DEV);
// In development only (a production build drops the branch, and the catalogue with it from this chunk).
if (import.meta.env.DEV) void import('./devChecks').then(({ checkCatalogue }) => checkCatalogue());

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

const root = document.getElementById('root')!;
const app = <App queryClient={queryClient} router={(routes) => <BrowserRouter>{routes}</BrowserRouter>} />;
// A screen rendered ahead (scripts/prerender.ts) is hydrated when this visit would render exactly
// it: its own path, nobody signed in (the screen would say so), nothing handed over from a screen
// before (a reload keeps the history entry's state). Otherwise the app draws the page itself.
const prerendered = root.dataset.prerendered;
if (prerendered === window.location.pathname && !isLoggedIn() && (window.history.state as { usr?: unknown } | null)?.usr == null) {
  // A screen that did not match is drawn anew by React: logged on the server, not an error shown.
  hydrateRoot(root, app, { onRecoverableError: (error) => sendErrorReport(error, window.location.pathname) });
} else {
  // A first render clears what the container held (the screen drawn ahead) before it commits.
  createRoot(root).render(app);
}
