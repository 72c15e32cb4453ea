import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pages } from '../../domain/catalogue/pages';
import { IDENTITY_COOKIE_PREFIX, partnerConfig } from '../../domain/config';
import type { components } from '../../generated/api';
import type { drawBudget } from './drawBudget';
import { startDrawWorker } from './drawWorker';

/** What a signed-in form page is drawn from: the three calls its first render reads (src/app/signedInData.ts). */
interface SignedInData {
  profile: components['schemas']['Profile'];
  addAnother: components['schemas']['AddAnotherState'];
  tabs: components['schemas']['TabState'];
}

/** Where `npm run build` writes the server's build of src/serverRender.tsx, inside the client folder (never served). */
export const SERVER_RENDER_DIR = '.ssr';

const formPagePaths = new Set<string>(pages.map((page) => page.path));
/** " | <the application>" after a page's heading in its title, as HTML (escaped once, not per page). */
const TITLE_SUFFIX = ` | ${partnerConfig.applicationTitle.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}`;
const calls = { profile: '/api/profile', addAnother: '/api/add-another', tabs: '/api/tabs' } as const;

/** JSON inside a `<script>`: no `<` can end the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * A signed-in applicant's form page drawn on the server with their answers (the same page the
 * browser would draw), so a phone on a slow network can read and type before the app's code
 * has come; the page carries the data it was drawn from, and the app hydrates it (src/main.tsx).
 *
 * The data is what the API answers this request's cookies, asked through the app itself (inject):
 * the same session check, the same answers. Anything else gets the page as built, and the browser
 * does what it always did: a session that has ended (its 401 then clears the cookies and says so),
 * a submitted application or a last page to go back to (both redirect), the print view's token,
 * a server build that is missing. Null when there is no server build.
 */
export async function signedInPages(app: FastifyInstance, clientDir: string, formPage: string, budget: DrawBudget, counted: (outcome: 'served' | 'refused') => void = () => {}) {
  const file = path.join(clientDir, SERVER_RENDER_DIR, 'serverRender.js');
  if (!existsSync(file)) return null;
  const renderer = await startDrawWorker(file, (line) => app.log.error(line));
  app.addHook('onClose', () => renderer.stop());

  return async (request: FastifyRequest): Promise<string | null> => {
    const [pathname = '', query = ''] = request.url.split('?');
    const cookie = request.headers.cookie ?? '';
    if (!formPagePaths.has(pathname) || new URLSearchParams(query).has('service_token')) return null;
    if (!cookie.split(';').some((part) => part.trim().startsWith(IDENTITY_COOKIE_PREFIX))) return null;

    // Within this process's budget, or the page goes as built (server/http/drawBudget.ts).
    const permit = budget.ask(sessionKeyOf(cookie));
    if ('builtAfterMs' in permit) {
      counted('refused');
      if (permit.builtAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, permit.builtAfterMs));
      return null;
    }
    try {
      const drawn = await draw(request.url, pathname, cookie);
      if (drawn !== null) counted('served');
      return drawn;
    } finally {
      permit.done();
    }
  };

  async function draw(url: string, pathname: string, cookie: string): Promise<string | null> {
    const answers = await Promise.all(Object.values(calls).map((call) => app.inject({ method: 'GET', url: call, headers: { cookie } })));
    if (answers.some((answer) => answer.statusCode !== 200)) return null;
    const [profile, addAnother, tabs] = answers.map((answer) => answer.json<unknown>());
    const data = { profile, addAnother, tabs } as SignedInData;
    if (data.profile.web_status.some((event) => event.web_status === 'submitted')) return null;
    if (data.profile.last_page && data.profile.last_page !== pathname) return null;

    const markup = await renderer.render(url, cookie, data);
    if (markup === null) return null;
    // The title the page gives itself once it runs (usePageTitle): "<its heading> | <the application>".
    const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(markup)?.[1];
    const title = (built: string) => (heading ? `<title>${heading}${TITLE_SUFFIX}</title>` : built);
    const root = `<div id="root" data-drawn="${pathname}">${markup}</div><script type="application/json" id="portal-page-data">${scriptJson(data)}</script>`;
    return formPage.replace(/<title>[^<]*<\/title>/, title).replace('<div id="root"></div>', () => root);
  }
}

type DrawBudget = ReturnType<typeof drawBudget>;

/** The session a request's cookies name (its token's cookie), to count its draws by. */
const sessionKeyOf = (cookie: string): string => /(?:^|;\s*)portal_session=([^;]*)/.exec(cookie)?.[1] ?? '';
