import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { playwright } from '@vitest/browser-playwright';
import { mockProxyCookies } from './mocks/vite-mock-cookies.ts';
import { chromiumArgs, chromiumExecutablePath } from './chromium.ts';
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

// The dev server proxies API calls to the real server (npm run dev) or to Prism (npm run dev:mock).
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';
const apiPrefixes = ['/api', '/public', '/lookup', '/service', '/upload', '/dev/outbox', '/healthz'];

export default defineConfig({
  // Brotli and gzip copies of every text asset beside it, served as they are by the server
  // (@fastify/static preCompressed): nothing is compressed per request.
  plugins: [react(), themeStylesheet(), compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 })],
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(
      apiPrefixes.map((prefix) => [
        prefix,
        {
          target: apiTarget,
          changeOrigin: true,
          ...(process.env.VITE_MOCK ? { configure: mockProxyCookies } : {}),
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
    projects: [
      {
        // What both halves run: plain functions, tested in Node.
        extends: true,
        test: { name: 'domain', environment: 'node', include: ['domain/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/**/*.browser.test.{ts,tsx}'],
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
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'mocks/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
    ],
  },
});
