import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './lib/queryClient';
import { App } from './app/App';
import { preloadFormCode } from './app/routes';
import { sendErrorReport } from './app/ErrorScreen';
import { authPaths } from './lib/paths';
import { isLoggedIn } from './lib/identity';
import { profileQuery } from './lib/api/profile';
import { addAnotherQuery } from './features/application/api/addAnother';
import { pageDataId, seedSignedInData, type SignedInData } from './app/signedInData';
import { readDrafts, validCarry } from './lib/navState';
import type { PrehydrateWindow } from './lib/prehydrate';
import { checkPartnerConfig, partnerConfig } from '../domain/config';
import 'virtual:theme.css';
import './ui/styles.css';
import './app/layout.css';

checkPartnerConfig(partnerConfig, import.meta.env.DEV);
// In development only (a production build drops the branch, and the catalogue with it from this chunk).
if (import.meta.env.DEV) void import('./devChecks').then(({ checkCatalogue }) => checkCatalogue());
// The mock's scenarios that shorten the idle clock or raise a script error (npm run dev:mock).
if (import.meta.env.DEV) void import('./devMock').then(({ applyMockScenario }) => applyMockScenario());

const queryClient = createQueryClient();

const root = document.getElementById('root')!;
// A signed-in form page the server drew (server/http/signedInPage.ts) carries the data it was drawn
// from: the cache starts with it, and nothing is fetched again.
const pageData = document.getElementById(pageDataId)?.textContent;
const drawnWith = pageData && isLoggedIn() ? (JSON.parse(pageData) as SignedInData) : null;
if (drawnWith) seedSignedInData(queryClient, drawnWith);

// A visit to a form page (or a path that leads to one): its code, and for a signed-in applicant its
// data, are fetched at once and side by side, not each when the one before has arrived.
const openedPath = window.location.pathname.toLowerCase().replace(/\/+$/, '');
if (!(Object.values(authPaths) as string[]).includes(openedPath) && openedPath !== '/staff' && !openedPath.startsWith('/staff/')) {
  preloadFormCode();
  if (isLoggedIn() && !drawnWith) {
    void queryClient.prefetchQuery(profileQuery);
    void queryClient.prefetchQuery(addAnotherQuery);
  }
}

const app = <App queryClient={queryClient} router={(routes) => <BrowserRouter>{routes}</BrowserRouter>} />;
// A page drawn ahead is hydrated when this visit would render exactly it; otherwise the app draws
// the page itself. Nothing handed over from a screen before (a reload keeps the history entry's
// state) in either case. A sign-in screen rendered by the build (scripts/prerender.ts): its own
// path, nobody signed in (the screen would say so). A form page the server drew for this account:
// its path, and no answers of this browser's to add (carried from a sign-in, drafts kept here),
// which the server could not see.
const handedOver = (window.history.state as { usr?: unknown } | null)?.usr != null;
const prerendered = root.dataset.prerendered === window.location.pathname && !isLoggedIn();
const drawnPage = drawnWith !== null && root.dataset.drawn === window.location.pathname;
const drawnForm = drawnPage && validCarry({}) === null && readDrafts(drawnWith.profile.username) === null;
// The form's code comes after the app's: its root takes in what was typed (also when it draws the
// page again), then the presses (src/lib/drawnForm.ts).
if (drawnPage) (window as PrehydrateWindow).portalDrawnForm = true;
if ((prerendered || drawnForm) && !handedOver) {
  // A screen that did not match is drawn anew by React: logged on the server, not an error shown.
  hydrateRoot(root, app, { onRecoverableError: (error) => sendErrorReport(error, window.location.pathname) });
} else {
  // A first render clears what the container held (the screen drawn ahead) before it commits.
  createRoot(root).render(app);
}
