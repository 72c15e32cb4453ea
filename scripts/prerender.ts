/**
 * After `vite build`: the sign-in screens rendered ahead into the client folder (src/prerender.tsx),
 * each a copy of the built index.html with the screen's markup in #root, its title and the script
 * that holds presses until the app has started. The server sends these copies for their paths
 * (server/http/clientPage.ts reads prerendered/pages.json). Before them, the server's build of the
 * signed-in form pages (buildServerRender).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, createServer, minify } from 'vite';
import { SERVER_RENDER_DIR } from '../server/http/signedInPage';

/**
 * After `vite build`: the server's own build of src/serverRender.tsx, which draws a signed-in form
 * page per request (server/http/signedInPage.ts loads it), into the client folder, where the
 * server never serves it. Its packages stay in node_modules; nothing is compressed or mapped.
 */
export async function buildServerRender(clientDir = path.resolve('dist')): Promise<void> {
  await build({
    configFile: false,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: { ssr: 'src/serverRender.tsx', outDir: path.join(clientDir, SERVER_RENDER_DIR), emptyOutDir: true, sourcemap: false },
  });
}

/** What src/prerender.tsx exports (written out: the client's sources are not in the tools' type check). */
interface PrerenderModule {
  prerenderedPaths: readonly string[];
  renderScreen: (pathname: string) => { markup: string; titleHtml: string };
  holdUntilStarted: (win: Window) => void;
}

export async function prerender(clientDir = path.resolve('dist')): Promise<string[]> {
  // The app's modules through Vite (its aliases, JSX and `import.meta.env`), in production mode as
  // the browser gets them; nothing listens.
  const vite = await createServer({ mode: 'production', logLevel: 'warn', appType: 'custom', server: { middlewareMode: true, hmr: false, watch: null }, optimizeDeps: { noDiscovery: true } });
  try {
    const screens = (await vite.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
    const index = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
    if (!index.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root to render into');
    // The function's own text, minified: it is on /login's first load.
    const holdScript = await minify('hold-until-started.js', `(${screens.holdUntilStarted.toString()})(window);`, {});
    if (holdScript.errors.length > 0) throw new Error(`minifying the holding script: ${holdScript.errors.map((error) => error.message).join('; ')}`);
    mkdirSync(path.join(clientDir, 'prerendered'), { recursive: true });
    const pages: Record<string, string> = {};
    for (const pathname of screens.prerenderedPaths) {
      const { markup, titleHtml } = screens.renderScreen(pathname);
      const file = `${pathname.slice(1)}.html`;
      // Replaced by functions: a `$` in the markup is text, not a replacement pattern.
      const html = index
        .replace(/<title>[^<]*<\/title>/, () => `<title>${titleHtml}</title>`)
        // In the page, first in the head: it runs as it is read, before the styles it would wait
        // for. As a file of its own it cost a round trip before the body was read (issue 33: a
        // signed-in /about usable 1.5× its page without scripts under slow 4G). The server's
        // Content-Security-Policy allows it by its hash (server/http/clientPage.ts).
        .replace(/<\/title>\n?/, (end) => `${end}    <script data-hold>${holdScript.code.trim()}</script>\n`)
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${pathname}">${markup}</div>`);
      writeFileSync(path.join(clientDir, 'prerendered', file), html);
      pages[pathname] = file;
    }
    writeFileSync(path.join(clientDir, 'prerendered', 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
    return Object.keys(pages);
  } finally {
    await vite.close();
  }
}

// `npm run build` runs it after `vite build`.
if (process.argv[1]?.endsWith('prerender.ts')) {
  await buildServerRender();
  const paths = await prerender();
  console.log(`prerendered: ${paths.join(', ')}`);
}
