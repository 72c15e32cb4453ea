import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import type { Browser, BrowserContext, BrowserServer, Page } from 'playwright-core';
import { chromiumArgs } from '../../chromium';

/** How long one browser job (a DOCX print, the PDF copy) may take. */
const BROWSER_TIME_LIMIT_MS = 90_000;
/** How much memory one browser job's processes may hold together (proportional set size). */
const BROWSER_MEMORY_LIMIT_MB = 1_536;
const MEMORY_CHECK_EVERY_MS = 250;

/** A browser job stopped for taking longer, or holding more memory, than its limit. */
export class BrowserLimitError extends Error {
  override readonly name = 'BrowserLimitError';
  constructor(readonly limit: 'time' | 'memory') {
    super(`The browser job went over its ${limit} limit and was stopped.`);
  }
}

/** A browser kept by this process for its jobs, each job in a fresh context of its own. */
interface SharedBrowser {
  server: BrowserServer;
  browser: Browser;
  pid: number | undefined;
  jobs: number;
  idle?: NodeJS.Timeout;
  /** Killed for one job's limit: the other jobs on it did nothing wrong and are run again. */
  killed?: boolean;
  /** The next job's fresh context and page, opened after the job before (by whether it runs scripts). */
  spares: Map<boolean, Promise<FreshPage>>;
  /** Print pages between prints (see `printHtml`), and how many documents each has printed. */
  printPages: PrintPage[];
  /** The jobs under way, each with its memory limit and how to stop it: one look at the memory serves them all. */
  limits: Set<JobLimit>;
  /** The memory watch, while a job is under way. */
  watch?: NodeJS.Timeout;
  /** A look of the watch is reading /proc: the next waits for it. */
  looking?: boolean;
}

let driver: Promise<typeof import('playwright-core')> | undefined;

/** playwright-core, loaded once: by `readyToPrint` in a process that prints, else on the first job. */
const loadBrowserDriver = () => (driver ??= import('playwright-core'));

/** The browsers kept open between jobs, by path: those of a process that prints (`readyToPrint`). */
const kept = new Set<string>();

/** What `readyToPrint` prints: a page whose print starts the print page, the fonts and a print compositor. */
const READY_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ready</title></head><body><h1>Ready</h1><p>Ready to print.</p></body></html>';

/**
 * Readies a process that runs the print jobs (issue 33): loads the driver, launches the browser,
 * prints a page on a print page kept for the next print, and keeps the browser open between jobs
 * from then on. Left to the first job, loading the driver held the event loop 0.4 s, and on
 * deadline night the first copy took 2.8 s (the launch, then a new print page's first prints):
 * printing one at a time, every copy queued behind it waited as long. A browser launched for a
 * job in any other process (a test's app) is closed after IDLE_CLOSE_MS without one.
 */
export async function readyToPrint(executablePath: string): Promise<void> {
  kept.add(executablePath);
  await printHtml(executablePath, READY_PAGE, { tagged: true });
}

interface JobLimit {
  maxBytes: number;
  stop: (error: BrowserLimitError) => void;
}

interface PrintPage extends FreshPage {
  prints: number;
}

interface FreshPage {
  context: BrowserContext;
  page: Page;
}

/** After this long without a job the browser is closed (a worker between busy spells, a test process at its end). */
const IDLE_CLOSE_MS = 5_000;
const browsers = new Map<string, Promise<SharedBrowser>>();

/** This process's browser at `executablePath`, launched on first use and again after it was killed or closed. */
function sharedBrowser(executablePath: string): Promise<SharedBrowser> {
  let entry = browsers.get(executablePath);
  if (!entry) {
    entry = (async () => {
      const { chromium } = await loadBrowserDriver();
      const server = await chromium.launchServer({ executablePath, args: chromiumArgs, timeout: 30_000 });
      const browser = await chromium.connect(server.wsEndpoint());
      const pid = server.process().pid;
      if (pid !== undefined) await behindTheApplicants([pid, ...descendantsOf(pid)]);
      return { server, browser, pid, jobs: 0, spares: new Map(), printPages: [], limits: new Set<JobLimit>() };
    })();
    const launched = entry;
    browsers.set(executablePath, launched);
    launched.then(
      (shared) => shared.browser.on('disconnected', () => browsers.get(executablePath) === launched && browsers.delete(executablePath)),
      () => browsers.get(executablePath) === launched && browsers.delete(executablePath),
    );
  }
  return entry;
}

/** Ends this process's browsers (the app's and the worker's shutdown). */
export async function closeBrowsers(): Promise<void> {
  const open = [...browsers.values()];
  browsers.clear();
  kept.clear();
  await Promise.all(open.map(async (entry) => (await entry.catch(() => null))?.server.close().catch(() => {})));
}

/** The niceness of the browser's processes: the applicants' requests (nice 0) come first on a busy CPU. */
export const BROWSER_NICENESS = 10;

/**
 * Lowers the priority of every thread of the browser's processes (issue 33): on deadline night
 * printing took the cores from the saves (their p99 went to 287 ms). Nice is per thread on Linux,
 * and Chromium sets its own children's (a renderer at 5, a helper at 0 or below), so this runs at
 * the browser's launch and again at each look of a job's memory watch; it only ever lowers. Nothing
 * happens where a thread cannot be reniced (gone already, not allowed, not Linux).
 */
async function behindTheApplicants(pids: readonly number[]): Promise<void> {
  for (const pid of pids) {
    let threads: string[];
    try {
      threads = await readdir(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const thread of threads) {
      try {
        if (os.getPriority(Number(thread)) < BROWSER_NICENESS) os.setPriority(Number(thread), BROWSER_NICENESS);
      } catch {
        // Gone, or not allowed here: that thread runs at its own priority.
      }
    }
  }
}

/**
 * Prints at once in one process (issue 33): one for every two cores, and no more than half the
 * machine's memory holds at each print's memory limit. One print keeps one and a half cores busy
 * by itself (the renderer lays out and paints, a print-compositor process Chromium starts for
 * each document assembles the PDF, the browser process carries it), so on 2 cores a second print
 * beside it only contends: measured alone, one at a time printed a copy every 204 ms for 309 ms
 * of CPU, four at once every 271 ms for 543 ms. On deadline night (30 applicants, 2 cores) one at
 * a time made the copies' p99 9.2 s against 13.5 s with four, and left the cores to the saves.
 */
export function printSlots(cores = os.availableParallelism(), memoryBytes = os.totalmem()): number {
  return Math.max(1, Math.min(Math.floor(cores / 2), Math.floor(memoryBytes / 2 / (BROWSER_MEMORY_LIMIT_MB * 1024 * 1024))));
}

/** A print page prints this many documents, then a new one takes its place (what a renderer keeps stays bounded). */
const PRINTS_PER_PAGE = 100;

/**
 * Prints `html` to PDF on one of this browser's print pages (issue 33): a context with scripts off
 * whose every request is refused, kept between prints. For the portal's own documents only (the
 * PDF copy, a letter: HTML React rendered, every answer escaped); an upload's HTML is printed on a
 * fresh context (`withBrowserPage`), whatever it holds. A fresh context and page
 * cost a renderer's start, 0.5–0.9 s of the 1.1 s a copy took; a kept page prints the same copy
 * in 0.3 s. What one document could leave for the next is nothing: no script runs, nothing is
 * fetched (so no cookie is set and no cache filled), and `setContent` replaces the document. A
 * page whose print failed is closed, not kept; the time and memory limits are those of any job.
 */
export async function printHtml(executablePath: string, html: string, pdfOptions: Parameters<Page['pdf']>[0], options: Omit<BrowserJobOptions, 'javaScriptEnabled'> = {}): Promise<Uint8Array> {
  return withBrowserPage(
    executablePath,
    async (page) => {
      await page.setContent(html, { waitUntil: 'load', timeout: 30_000 });
      return page.pdf(pdfOptions);
    },
    { ...options, javaScriptEnabled: false, printPage: true },
  );
}

async function openPrintPage(browser: Browser): Promise<PrintPage> {
  const fresh = await openFreshPage(browser, false);
  try {
    await fresh.page.route('**/*', (route) => route.abort());
    await fresh.page.emulateMedia({ media: 'print' });
  } catch (error) {
    await fresh.context.close().catch(() => {});
    throw error;
  }
  return { ...fresh, prints: 0 };
}

/** Whether this process's browser at `executablePath` will be closed for want of a job (the tests read it). */
export async function closingWhenIdle(executablePath: string): Promise<boolean> {
  return (await browsers.get(executablePath)?.catch(() => null))?.idle !== undefined;
}

/** How many print pages this process's browser keeps between prints (the tests read it). */
export async function printPagesKept(executablePath: string): Promise<number> {
  return (await browsers.get(executablePath)?.catch(() => null))?.printPages.length ?? 0;
}

/**
 * Runs `use` on a page of a fresh browser context of this process's headless Chromium (Debian's,
 * at `executablePath`) and closes the context afterwards, also on failure: a context shares no
 * cookies, storage or pages with another job's, and launching Chromium once saves most of a
 * second per job. Every job has a time and a memory limit (the memory of the browser's whole
 * process tree): past either the browser and all its processes are killed — what frees a renderer
 * a huge document holds up — and the job fails with BrowserLimitError instead of hanging or taking
 * the machine's memory; the next job launches a new browser, and a job that shared the killed one
 * runs once more on a new browser instead of failing for another job's document.
 */
export async function withBrowserPage<T>(executablePath: string, use: (page: Page) => Promise<T>, options: BrowserJobOptions = {}): Promise<T> {
  try {
    return await browserJob(executablePath, use, options);
  } catch (error) {
    // Another job's limit killed the browser this one shared: once more, on a new browser.
    if (error instanceof BrowserLostError) return browserJob(executablePath, use, options);
    throw error;
  }
}

type BrowserJobOptions = {
  javaScriptEnabled?: boolean;
  timeoutMs?: number;
  memoryLimitMb?: number;
  /** A kept print page instead of a fresh context (`printHtml` only: scripts off, every request refused). */
  printPage?: boolean;
};

async function openFreshPage(browser: Browser, javaScriptEnabled: boolean): Promise<FreshPage> {
  const context = await browser.newContext({ javaScriptEnabled });
  try {
    return { context, page: await context.newPage() };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

/**
 * A fresh context and page for a job: the one opened ahead, after the job before, when there is
 * one (a spare that failed is replaced). Each is used by one job only and closed after it; opening
 * it ahead takes a new renderer process's start (0.3–0.5 s) out of the job's time. Opened once the
 * job before has finished, not beside it: on two cores a renderer starting slowed the print beside
 * it by more than it saved. A spare dies with its browser (killed, or closed when idle).
 */
function freshPage(shared: SharedBrowser, javaScriptEnabled: boolean): Promise<FreshPage> {
  const spare = shared.spares.get(javaScriptEnabled);
  shared.spares.delete(javaScriptEnabled);
  return spare ? spare.catch(() => openFreshPage(shared.browser, javaScriptEnabled)) : openFreshPage(shared.browser, javaScriptEnabled);
}

/** Opens the next job's context and page ahead, unless one is open already. */
function openSpare(shared: SharedBrowser, javaScriptEnabled: boolean): void {
  if (shared.spares.has(javaScriptEnabled)) return;
  const spare = openFreshPage(shared.browser, javaScriptEnabled);
  spare.catch(() => {}); // The job that takes it opens another instead.
  shared.spares.set(javaScriptEnabled, spare);
}

/** How many fresh contexts this process's browser holds open ahead, once their opening has ended (the tests wait on it). */
export async function openedAhead(executablePath: string): Promise<number> {
  const shared = await browsers.get(executablePath)?.catch(() => null);
  if (!shared) return 0;
  const opened = await Promise.all([...shared.spares.values()].map((spare) => spare.then(() => 1, () => 0)));
  return opened.reduce((sum: number, one) => sum + one, 0);
}

/** This job's browser was killed for another job's limit (not for this one's). */
class BrowserLostError extends Error {
  override readonly name = 'BrowserLostError';
}

async function browserJob<T>(executablePath: string, use: (page: Page) => Promise<T>, options: BrowserJobOptions): Promise<T> {
  let entry = sharedBrowser(executablePath);
  let shared = await entry;
  if (!shared.browser.isConnected()) {
    // Closed under us (killed by another job's limit, or gone): start again.
    if (browsers.get(executablePath) === entry) browsers.delete(executablePath);
    entry = sharedBrowser(executablePath);
    shared = await entry;
  }
  clearTimeout(shared.idle);
  shared.idle = undefined;
  shared.jobs++;
  let stopped: BrowserLimitError | null = null;
  let timer: NodeJS.Timeout | undefined;
  let jobLimit: JobLimit | undefined;
  const limit = new Promise<never>((_, reject) => {
    const stop = (error: BrowserLimitError) => {
      if (stopped) return;
      stopped = error;
      shared.killed = true;
      reject(error);
      // Forgotten at once: the next job launches a new browser rather than meet this dying one.
      if (browsers.get(executablePath) === entry) browsers.delete(executablePath);
      void shared.server.kill();
    };
    timer = setTimeout(() => stop(new BrowserLimitError('time')), options.timeoutMs ?? BROWSER_TIME_LIMIT_MS);
    jobLimit = { maxBytes: (options.memoryLimitMb ?? BROWSER_MEMORY_LIMIT_MB) * 1024 * 1024, stop };
    watchMemory(shared, jobLimit);
  });
  limit.catch(() => {}); // Answered through the race below; never an unhandled rejection.
  let context: BrowserContext | null = null;
  let printPage: PrintPage | null = null;
  let printed = false;
  try {
    if (options.printPage) {
      printPage = await Promise.race([shared.printPages.pop() ?? openPrintPage(shared.browser), limit]);
      context = printPage.context;
      const result = await Promise.race([use(printPage.page), limit]);
      printed = true;
      return result;
    }
    const fresh = await Promise.race([freshPage(shared, options.javaScriptEnabled ?? true), limit]);
    context = fresh.context;
    return await Promise.race([use(fresh.page), limit]);
  } catch (error) {
    if (stopped) throw stopped;
    if (shared.killed) throw new BrowserLostError(String(error));
    throw error;
  } finally {
    clearTimeout(timer);
    if (jobLimit) unwatchMemory(shared, jobLimit);
    if (printPage && printed && !stopped && !shared.killed && ++printPage.prints < PRINTS_PER_PAGE) shared.printPages.push(printPage);
    else if (!stopped) await context?.close().catch(() => {});
    if (!stopped && !shared.killed && !options.printPage) openSpare(shared, options.javaScriptEnabled ?? true);
    shared.jobs--;
    if (shared.jobs === 0 && !stopped && !shared.killed && !kept.has(executablePath)) {
      shared.idle = setTimeout(() => {
        if (shared.jobs > 0) return;
        if (browsers.get(executablePath) === entry) browsers.delete(executablePath);
        void shared.server.close().catch(() => shared.server.kill());
      }, IDLE_CLOSE_MS);
    }
  }
}

/**
 * Watches the browser's memory for `job` too: one look every MEMORY_CHECK_EVERY_MS for all its jobs
 * (issue 33). Each job had a watch of its own, and each look read all of /proc and every Chromium
 * process's memory map on the app's thread: with eight prints at once the looks took the app
 * process 3 s of CPU a journey on deadline night, and the saves waited behind them. A job whose
 * limit the browser is over is stopped (the browser with it; the others on it run again).
 */
function watchMemory(shared: SharedBrowser, job: JobLimit): void {
  shared.limits.add(job);
  if (shared.watch !== undefined || shared.pid === undefined) return;
  const pid = shared.pid;
  shared.watch = setInterval(() => {
    if (shared.looking) return;
    shared.looking = true;
    void lookAtMemory(shared, pid).finally(() => (shared.looking = false));
  }, MEMORY_CHECK_EVERY_MS);
}

/**
 * One look of the watch. /proc is read off the event loop: read in place, the looks (every
 * process's parent, every Chromium process's memory map) held the app's calls for up to 0.3 s at a
 * time on deadline night (issue 33).
 */
async function lookAtMemory(shared: SharedBrowser, pid: number): Promise<void> {
  const { tree, bytes } = await memoryOfTree(pid);
  const over = [...shared.limits].filter((limit) => bytes > limit.maxBytes);
  for (const limit of over) limit.stop(new BrowserLimitError('memory'));
  if (over.length === 0) await behindTheApplicants(tree);
}

function unwatchMemory(shared: SharedBrowser, job: JobLimit): void {
  shared.limits.delete(job);
  if (shared.limits.size > 0) return;
  clearInterval(shared.watch);
  shared.watch = undefined;
}

/**
 * A process and its descendants, and the bytes they hold together (each one's proportional set
 * size: memory Chromium's processes share is counted once), read from /proc off the event loop.
 */
export async function memoryOfTree(root: number): Promise<{ tree: number[]; bytes: number }> {
  const tree = [root, ...(await descendantsOfAsync(root))];
  return { tree, bytes: (await Promise.all(tree.map(memoryOf))).reduce((total, each) => total + each, 0) };
}

/** Whether a name in /proc is a process. */
const isPid = (name: string) => /^\d+$/.test(name);

/** The pids of a process's children, their children and so on, from /proc (Linux; none elsewhere). */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter(isPid);
  } catch {
    return [];
  }
  return descendantsIn(root, entries.map((name) => [Number(name), parentOf(Number(name))]));
}

/** As `descendantsOf`, read off the event loop. */
async function descendantsOfAsync(root: number): Promise<number[]> {
  let entries: string[];
  try {
    entries = (await readdir('/proc')).filter(isPid);
  } catch {
    return [];
  }
  const parents = await Promise.all(entries.map(async (name) => [Number(name), await readFile(`/proc/${name}/stat`, 'utf8').then(parentInStat, () => null)] as const));
  return descendantsIn(root, parents);
}

/** The descendants of `root` among processes and their parents (null: not known). */
function descendantsIn(root: number, parents: readonly (readonly [number, number | null])[]): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parents) if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = children.get(queue.pop()!) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

/**
 * A process's /proc/<pid>/stat fields after its command name (state first, then the parent's pid,
 * …, minor faults at 7); null where it cannot be read (gone, or not Linux).
 */
export function processStat(pid: number): string[] | null {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The command name (2nd field) is in parentheses and may hold spaces: the fields after the last ')'. */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

const parentInStat = (stat: string) => Number(statFields(stat)[1]);

function parentOf(pid: number): number | null {
  const fields = processStat(pid);
  return fields ? Number(fields[1]) : null;
}

/** Bytes a process holds (its proportional set size), from /proc (Linux); elsewhere 0, and only the time limit applies. */
async function memoryOf(pid: number): Promise<number> {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Letter paper with half-inch margins, the print settings of every PDF the portal makes. */
export const printOptions = { format: 'Letter', printBackground: true, margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' } } as const;
