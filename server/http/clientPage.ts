import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pages } from '../../domain/catalogue/pages';

/** The client's lazy modules a form page opens with (src/app/routes.tsx: formRootCode, formPageCode). */
const FORM_PAGE_MODULES = ['src/app/FormOrPrintRoot.tsx', 'src/features/application/FormPage.tsx'];
/** What a signed-in form page asks first (src/main.tsx prefetches both). */
const SIGNED_IN_FORM_CALLS = ['/api/profile', '/api/add-another'];

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
 * The `<link>`s that let a form page's first load fetch everything at once: the form's chunks and
 * styles (which the entry would ask for only once it has run) and, signed in, the first calls'
 * answers (which the app would ask for only once its script has run). On a slow phone network each
 * of those waits is a round trip of over half a second. Chunks the entry loads anyway are left out.
 */
function formPageLinks(manifest: Manifest, signedIn: boolean): string {
  const entry = closure(
    manifest,
    Object.keys(manifest).filter((key) => manifest[key]!.isEntry),
  );
  const form = [...closure(manifest, FORM_PAGE_MODULES)].filter((key) => !entry.has(key)).map((key) => manifest[key]!);
  const links = [
    ...form.map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk.file}">`),
    ...form.flatMap((chunk) => chunk.css ?? []).map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
    // `crossorigin` (same-origin credentials, CORS mode) is what the app's fetch asks with: the
    // browser hands the preloaded answer to that fetch instead of asking again.
    ...(signedIn ? SIGNED_IN_FORM_CALLS.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`) : []),
  ];
  return links.join('');
}

const formPaths = new Set(['/', ...pages.map((page) => page.path)]);

/**
 * The client's index.html for a path: a form page's copy announces what the page will need; any
 * other path gets the file as built. Read once; without a build manifest, the file as built.
 */
export function clientPages(clientDir: string) {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  const withLinks = (signedIn: boolean) => (manifest ? html.replace('</head>', `${formPageLinks(manifest, signedIn)}</head>`) : html);
  const visitor = withLinks(false);
  const signedIn = withLinks(true);
  return (pathname: string, hasSession: boolean): string => {
    const spelled = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
    if (!formPaths.has(spelled)) return html;
    return hasSession ? signedIn : visitor;
  };
}
