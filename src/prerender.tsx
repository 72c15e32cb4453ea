/**
 * The sign-in screens rendered ahead, at build time (scripts/prerender.ts loads this module through
 * Vite): a phone on a slow network sees the screen when the page arrives, and the app's code, when
 * it has come, hydrates the same tree (src/main.tsx) instead of drawing it again.
 */
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from './app/App';
import { authPaths } from './lib/paths';
import { createQueryClient } from './lib/queryClient';
import { partnerConfig } from '../domain/config';

export { holdUntilStarted } from './lib/prehydrate';

/**
 * The screens whose first render depends on nothing but the path: no query string, no account.
 * (Confirm and reset read the e-mail's link or the screen before; they are drawn in the browser.)
 */
export const prerenderedPaths: readonly string[] = [authPaths.login, authPaths.signup, authPaths.forgot];

/** Text as HTML, escaped by React as the rest of the page is (server/pdf/printPage.ts does the same). */
const asHtml = (text: string) => renderToStaticMarkup(<>{text}</>);

/**
 * One screen's markup, and as HTML the title the screen gives the page once it runs (usePageTitle:
 * "<its heading> | <the application>").
 */
export function renderScreen(pathname: string): { markup: string; titleHtml: string } {
  const markup = renderToString(<App queryClient={createQueryClient()} router={(routes) => <StaticRouter location={pathname}>{routes}</StaticRouter>} />);
  const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(markup)?.[1];
  if (!heading) throw new Error(`${pathname} rendered no heading`);
  return { markup, titleHtml: `${heading} | ${asHtml(partnerConfig.applicationTitle)}` };
}
