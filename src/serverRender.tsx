/**
 * A signed-in form page drawn on the server for each request (server/http/signedInPage.ts loads the
 * build of this module, dist/.ssr/serverRender.js): a phone on a slow network sees its saved answers
 * when the page arrives, and the app's code, when it has come, hydrates the same tree (src/main.tsx)
 * with the same data, which the page carries (`pageDataId`).
 */
import { prerender } from 'react-dom/static';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from './app/App';
import { createQueryClient } from './lib/queryClient';
import { renderWithCookies } from './lib/identity';
import { seedSignedInData, type SignedInData } from './app/signedInData';

export type { SignedInData } from './app/signedInData';

function tree(url: string, data: SignedInData | null) {
  const queryClient = createQueryClient();
  if (data) seedSignedInData(queryClient, data);
  return <App queryClient={queryClient} router={(routes) => <StaticRouter location={url}>{routes}</StaticRouter>} />;
}

/**
 * Loads the form's lazy modules once, before the first request: a render then never suspends
 * (a page drawn with a piece left out would make the browser draw that piece itself). A visitor's
 * form page opens both the form's root and its page.
 */
export async function prepare(): Promise<void> {
  await prerender(tree('/about', null));
}

/** The page's markup for `url` (path and query), drawn as the browser with these cookies and this data will. */
export function renderSignedIn(url: string, cookies: string, data: SignedInData): string {
  return renderWithCookies(cookies, () => renderToString(tree(url, data)));
}
