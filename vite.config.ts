import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { playwright } from '@vitest/browser-playwright';
import { mockProxy, mockScenarioSwitch } from './mocks/vite-mock.ts';
import { chromiumArgs, chromiumExecutablePath } from './chromium.ts';
import { browserCommands } from './vitest.commands.ts';
import { themeCssVariables } from './src/ui/theme.ts';

/**
 * `virtual:theme.css`: the theme's colours (src/ui/theme.ts) as custom properties in the app's own
 * stylesheet, so every page, one drawn ahead included, is painted in them before any script runs.
 */
function themeStylesheet(): Plugin {
  const id = 'virtual:theme.css';
  const resolved = `\0${id}`;
  return {
    name: 'portal-theme',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (source) =>
      source === resolved
        ? `:root {\n${Object.entries(themeCssVariables())
            .map(([property, value]) => `  ${property}: ${value};`)
            .join('\n')}\n}\n`
        : undefined,
  };
}

// The dev server (VITE_PORT, 5173) proxies the calls to the real server (npm run dev: PORT, 3000)
// or to Prism (npm run dev:mock: MOCK_PORT, 4010; the mock's scenarios, mocks/scenarios.ts). The
// console's pages are the app's; its calls, under /staff/api and /staff/public, are proxied too.
const mock = process.env.VITE_MOCK === '1';
const apiTarget = mock ? `http://127.0.0.1:${process.env.MOCK_PORT ?? 4010}` : `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const apiPrefixes = ['/api', '/public', '/lookup', '/service', '/upload', '/dev/outbox', '/healthz', '/staff/api', '/staff/public'];

export default defineConfig({
  // Brotli and gzip copies of every text asset beside it, served as they are by the server
  // (@fastify/static preCompressed): nothing is compressed per request.
  plugins: [
    react(),
    themeStylesheet(),
    compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 }),
    ...(mock ? [mockScenarioSwitch(apiTarget)] : []),
  ],
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy: Object.fromEntries(
      apiPrefixes.map((prefix) => [
        prefix,
        {
          target: apiTarget,
          changeOrigin: true,
          ...(mock ? { configure: mockProxy } : {}),
        },
      ]),
    ),
  },
  // Hidden: the bundle names no map, and the server does not serve maps in production.
  // The manifest tells the server which chunks a form page needs, to announce them with the page (modulepreload).
  // No modulepreload polyfill (0.5 kB on /login's first load): every browser the portal supports
  // preloads modules itself (Chrome and Edge since 66, Firefox 115, Safari 17); an older one loads
  // the same chunks when the entry asks for them.
  build: { outDir: 'dist', sourcemap: 'hidden', manifest: true, modulePreload: { polyfill: false } },
  test: {
    // Vitest's default is one worker per core but one: on two cores a single file at a time, while
    // the server's suites mostly wait on a database, a browser or a process they started.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 3),
    projects: [
      {
        // What both halves run, and the document's page rule: plain functions, tested in Node.
        extends: true,
        test: { name: 'domain', environment: 'node', include: ['domain/**/*.test.ts', 'views/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/**/*.browser.test.{ts,tsx}', 'src/**/withServer/*.test.ts'],
          setupFiles: ['src/test/setup.ts'],
        },
      },
      {
        // Design-system components in real Chromium: native <dialog>, focus, and axe with colours.
        extends: true,
        test: {
          name: 'ui',
          include: ['src/**/*.browser.test.{ts,tsx}'],
          setupFiles: ['src/test/browser.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
              // A touch screen as well as a mouse: a test taps as a finger does (src/test/hands.ts).
              contextOptions: { hasTouch: true },
            }),
            instances: [{ browser: 'chromium' }],
            commands: browserCommands,
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          // With the model-based tests of client code that need the real server (src/**/withServer/).
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'mocks/**/*.test.ts', 'src/**/withServer/*.test.ts'],
          // Suites side by side, each on its own copy of one migrated database (server/testing/images.ts).
          globalSetup: ['server/testing/globalSetup.ts'],
          setupFiles: ['server/testing/clockPutBack.ts'],
          // The suites of one worker share its modules: the server's code is loaded, and PGlite's
          // WebAssembly compiled, once per worker instead of once per file (several seconds of CPU
          // each). Every suite makes its own app and database, and puts back what it moves (the clock).
          isolate: false,
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
