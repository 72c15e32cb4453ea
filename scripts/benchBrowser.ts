/**
 * The browser figures of `npm run bench` (issue 14), each beside a floor built and measured in the
 * same run: the portal's production build served by the real server (embedded database), the floor
 * apps of bench/floors built by Vite from the same package versions and served pre-compressed by a
 * bare Fastify. Chromium is the system one, throttled through CDP as Lighthouse's mobile preset
 * applies it (slow 4G: 562.5 ms round trip, 1.47 Mbit/s down; the CPU 4× slower). Bounded: a few
 * page loads per figure, on 127.0.0.1 only.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { build } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { chromiumArgs, chromiumExecutablePath } from '../chromium';
import { FloorForm, floorFields } from '../bench/floors/form/FloorForm';
import { account, ServerProcess } from '../server/testing/serverProcess';
import { inTurn, median, type BenchResult } from './benchServer';
import { buildServerRender, prerender } from './prerender';

type Cookie = { name: string; value: string; url: string };

const ROUNDS = 3;
const KEYSTROKES = 20;
const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: zlib.Z_BEST_COMPRESSION }).length / 1000;

async function buildFloor(name: 'login' | 'form', outDir: string) {
  await build({
    root: path.resolve('bench/floors', name),
    configFile: false,
    logLevel: 'warn',
    plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 })],
    build: { outDir, emptyOutDir: true },
  });
}

/** A bare Fastify serving a built folder as the portal serves its own: pre-compressed, any path the page. */
async function serveFolder(root: string) {
  const app = Fastify();
  await app.register(fastifyStatic, { root, preCompressed: true, wildcard: false });
  app.setNotFoundHandler((_request, reply) => reply.type('text/html').sendFile('index.html'));
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
}

async function throttled(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return cdp;
}

/** The scripts a page loads on its first visit: files (for their gzip size) and bytes on the wire. */
async function firstLoadScripts(browser: Browser, url: string, folder: string, options: { cookies?: Cookie[]; shown?: string } = {}) {
  const context = await browser.newContext();
  if (options.cookies) await context.addCookies(options.cookies);
  const page = await context.newPage();
  const scripts: { file: string; wire: Promise<number> }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push({ file: path.join(folder, new URL(response.url()).pathname), wire: response.request().sizes().then((sizes) => sizes.responseBodySize) });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // A signed-in form page: its engine's chunks have loaded once a question shows.
  if (options.shown) await page.locator(options.shown).first().waitFor();
  const wire = (await Promise.all(scripts.map((s) => s.wire))).reduce((a, b) => a + b, 0);
  const gzip = scripts.reduce((sum, s) => sum + gzipKb(s.file), 0);
  await context.close();
  return { gzip, wire, count: scripts.length };
}

/** Largest Contentful Paint of a cold load under the mobile throttling, in ms (one sample). */
async function lcp(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await throttled(page);
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  const time = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  await context.close();
  return time;
}

/** ms from navigation until `field` shows `value` and can be typed in, under the throttling (one sample). */
async function usable(browser: Browser, url: string, field: string, value: string, cookie?: Cookie[]) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  if (cookie) await context.addCookies(cookie);
  const page = await context.newPage();
  await throttled(page);
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  const handle = await page.waitForFunction(
    ({ field, value }) => {
      const input = document.querySelector<HTMLInputElement>(`[name="${field}"], #${field}`);
      const ready = input && input.value === value && !input.disabled && !document.querySelector('[aria-busy="true"]');
      return ready ? { ms: performance.now(), inputs: document.querySelectorAll('input, select, textarea').length } : false;
    },
    { field, value },
    { polling: 'raf', timeout: 120_000 },
  );
  const seen = (await handle.jsonValue()) as { ms: number; inputs: number };
  await context.close();
  return seen;
}

/** Main-thread script time per keystroke typed into `field`, with the CPU 4× slower (one sample). */
async function scriptPerKeystroke(browser: Browser, url: string, field: string, cookie?: Cookie[]) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  if (cookie) await context.addCookies(cookie);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  const input = page.locator(`[name="${field}"], #${field}`).first();
  await input.waitFor();
  await input.fill('');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const scriptSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ScriptDuration')!.value;
  const idle = () => page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 })));
  await idle();
  const before = await scriptSeconds();
  const typed = 'abcdefghijklmnopqrstuvwxyz'.slice(0, KEYSTROKES);
  await input.pressSequentially(typed);
  await page.waitForFunction(({ field, typed }) => document.querySelector<HTMLInputElement>(`[name="${field}"], #${field}`)?.value === typed, { field, typed });
  await idle();
  const perKey = ((await scriptSeconds()) - before) * 1000 / KEYSTROKES;
  await context.close();
  return perKey;
}

const result = (name: string, value: number, unit: string, floor: number | null, budget: string, holds: (value: number, ratio: number | null) => boolean): BenchResult => {
  const ratio = floor ? value / floor : null;
  return { name, value: Math.round(value * 10) / 10, unit, floor: floor === null ? null : Math.round(floor * 10) / 10, ratio, budget, holds: holds(value, ratio) };
};

export async function browserBench(): Promise<BenchResult[]> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const floorLogin = path.join(work, 'floor-login');
  const floorForm = path.join(work, 'floor-form');
  const staticForm = path.join(work, 'static-form');
  await build({ logLevel: 'warn' });
  await buildServerRender();
  await prerender();
  await buildFloor('login', floorLogin);
  await buildFloor('form', floorForm);

  // Saved answers for the About page's text inputs; the static floor shows the same values.
  const textFields = floorFields.filter((field) => field.type === 'text' && !field.format && !field.lookup).slice(0, 12);
  const saved = Object.fromEntries(textFields.map((field, i) => [field.key, `Saved ${i}`]));
  const probe = textFields[0]!.key;
  const html = readFileSync(path.join(floorForm, 'index.html'), 'utf8').replace(/<script[^>]*><\/script>/, '');
  const staticMarkup = renderToStaticMarkup(createElement(FloorForm, { initial: saved }));
  mkdirSync(staticForm, { recursive: true });
  writeFileSync(path.join(staticForm, 'index.html'), html.replace('<div id="root"></div>', `<div id="root">${staticMarkup}</div>`));

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-data-'));
  const portal = new ServerProcess({ DATA_DIR: dataDir }, path.resolve('dist'));
  const floors = await Promise.all([serveFolder(floorLogin), serveFolder(floorForm), serveFolder(staticForm)]);
  const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
  try {
    await portal.start();
    const cookieHeader = await account(portal, 'bench-browser@example.com');
    const put = await portal.call('PUT', '/api/answer', cookieHeader, saved);
    if (!put.ok) throw new Error(`saving the bench answers answered ${put.status}`);
    const cookies = cookieHeader.split('; ').map((pair) => {
      const [name, ...rest] = pair.split('=');
      return { name: name!, value: rest.join('='), url: portal.url };
    });
    const [loginFloor, formFloor, staticFloor] = floors.map((floor) => floor.url);

    const login = await firstLoadScripts(browser, `${portal.url}/login`, path.resolve('dist'));
    const loginFloorJs = await firstLoadScripts(browser, `${loginFloor}/login`, floorLogin);
    // The About page signed in: the form engine's chunks load too.
    const aboutSignedIn = (await firstLoadScripts(browser, `${portal.url}/about`, path.resolve('dist'), { cookies, shown: `[name="${probe}"]` })).gzip;

    // Each figure's samples taken in turn with its floor's: measured one block after the other, a
    // busy spell during one block moved a ratio by half. The figures one after another: typing
    // into /about (the keystrokes) saves over the answer the usable figure waits for.
    let inputsShown = 0;
    const lcps = await inTurn({ portal: () => lcp(browser, `${portal.url}/login`), floor: () => lcp(browser, `${loginFloor}/login`) }, ROUNDS);
    const usables = await inTurn(
      {
        portal: async () => {
          const shown = await usable(browser, `${portal.url}/about`, probe, saved[probe]!, cookies);
          inputsShown = shown.inputs;
          return shown.ms;
        },
        floor: async () => (await usable(browser, `${staticFloor}/about`, probe, saved[probe]!)).ms,
      },
      ROUNDS,
    );
    const keystrokes = await inTurn(
      { portal: () => scriptPerKeystroke(browser, `${portal.url}/about`, probe, cookies), floor: () => scriptPerKeystroke(browser, `${formFloor}/about`, probe) },
      ROUNDS,
    );

    return [
      result('/login first-load JS, gzip', login.gzip, 'kB', loginFloorJs.gzip, '≤ 110 kB', (v) => v <= 110),
      result('/login JS bytes on the wire', login.wire / 1000, 'kB', loginFloorJs.wire / 1000, 'reported (pre-compressed)', () => true),
      result('signed-in /about JS, gzip', aboutSignedIn, 'kB', null, '≤ 170 kB', (v) => v <= 170),
      result('/login LCP, mobile throttling', median(lcps.portal), 'ms', median(lcps.floor), '≤ 1.2× the floor app', (_v, r) => r !== null && r <= 1.2),
      result(`signed-in /about usable (${inputsShown} inputs shown), mobile throttling`, median(usables.portal), 'ms', median(usables.floor), '≤ 1.3× the static form', (_v, r) => r !== null && r <= 1.3),
      result('script per keystroke on /about, CPU 4× slower', median(keystrokes.portal), 'ms', median(keystrokes.floor), '≤ 1.5× the form without the engine', (_v, r) => r !== null && r <= 1.5),
    ];
  } finally {
    await browser.close();
    for (const floor of floors) await floor.close();
    await portal.stop();
    rmSync(work, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: `node --import tsx scripts/benchBrowser.ts` (the browser figures only).
if (process.argv[1]?.endsWith('benchBrowser.ts')) {
  for (const r of await browserBench()) console.log(`${r.name} | ${r.value} ${r.unit} | ${r.floor ?? '—'} | ${r.ratio?.toFixed(2) ?? '—'} | ${r.budget} | ${r.holds ? 'yes' : 'NO'}`);
}
