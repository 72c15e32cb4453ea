import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pages } from '../../domain/catalogue/pages';

/** The client's lazy modules a form page opens with (src/app/routes.tsx: formRootCode, formPageCode). */
const FORM_PAGE_MODULES = ['src/app/FormOrPrintRoot.tsx', 'src/features/application/FormPage.tsx'];

/** One chunk of Vite's build manifest (dist/.vite/manifest.json), as far as the page needs it. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Every chunk `keys` load, with the chunks they import, transitively. */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...keys];
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/**
 * The `<link>`s that let a page's first load fetch its code at once (a form page's: the form's
 * chunks and styles), which the entry would ask for only once it has run (on a slow phone network a
 * round trip of over half a second). Chunks the entry loads anyway are left out.
 *
 * Not the signed-in calls (`/api/profile`): a preload of a session that has ended meets the 401 that
 * clears the sign-in cookies before the app starts, and the app would then open as a visitor's
 * instead of saying the session ended (spec/platform.md §8; e2e/accounts.spec.ts caught it).
 */
function pageLinks(manifest: Manifest, modules: string[]): string {
  const entry = closure(
    manifest,
    Object.keys(manifest).filter((key) => manifest[key]!.isEntry),
  );
  const chunks = [...closure(manifest, modules)].filter((key) => !entry.has(key)).map((key) => manifest[key]!);
  const links = [
    ...chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk.file}">`),
    ...chunks.flatMap((chunk) => chunk.css ?? []).map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
  return links.join('');
}

const formPaths = new Set(['/', ...pages.map((page) => page.path)]);

/** The sign-in screens rendered ahead by the build (scripts/prerender.ts), by their exact path. */
function prerenderedPages(clientDir: string): Map<string, string> {
  const listFile = path.join(clientDir, 'prerendered', 'pages.json');
  if (!existsSync(listFile)) return new Map();
  const list = JSON.parse(readFileSync(listFile, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(list).map(([pathname, file]) => [pathname, readFileSync(path.join(clientDir, 'prerendered', path.basename(file)), 'utf8')]));
}

/** The holding script, as the build put it in the sign-in screens: in the page (src/lib/prehydrate.ts, scripts/prerender.ts). */
const HOLD_SCRIPT = /<script data-hold>([\s\S]*?)<\/script>/;

/**
 * The Content-Security-Policy sources that allow the build's holding script, by its hash: the one
 * script in a page, and no other, runs without a file of its own. None without a build.
 */
export function inlineScriptSources(clientDir: string): string[] {
  const scripts = new Set([...prerenderedPages(clientDir).values()].map((page) => HOLD_SCRIPT.exec(page)?.[1]).filter((text) => text !== undefined));
  return [...scripts].map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
}

/**
 * The client's index.html for a path: a sign-in screen rendered ahead is sent as it was rendered
 * (only for its exact spelling: `/LOGIN` is the app's to redirect); a form page's copy announces
 * what the page will need; any other path gets the file as built. Read once; without a build
 * manifest, the file as built. `formPage` is a form page's copy, with the holding script when the
 * build wrote one, for a page the server draws into (server/http/signedInPage.ts).
 */
export function clientPages(clientDir: string) {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const prerendered = prerenderedPages(clientDir);
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  const formPage = manifest ? html.replace('</head>', () => `${pageLinks(manifest, FORM_PAGE_MODULES)}</head>`) : html;
  const holdScript = [...prerendered.values()].map((page) => HOLD_SCRIPT.exec(page)?.[0]).find(Boolean);
  return {
    pageFor: (pathname: string): string => prerendered.get(pathname) ?? (formPaths.has(pathname.toLowerCase().replace(/(.)\/+$/, '$1')) ? formPage : html),
    formPage: holdScript ? formPage.replace(/<\/title>\n?/, (end) => `${end}    ${holdScript}\n`) : formPage,
  };
}
