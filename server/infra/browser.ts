import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
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

/**
 * Runs `use` on a page of a fresh headless Chromium (Debian's, at `executablePath`) and closes the
 * browser afterwards, also on failure. A browser per job keeps one bad document from affecting
 * the next. Every job has a time and a memory limit: past either, the browser and all its
 * processes are killed (that is what frees a renderer a huge document holds up) and the job fails
 * with BrowserLimitError instead of hanging or taking the machine's memory.
 */
export async function withBrowserPage<T>(
  executablePath: string,
  use: (page: Page) => Promise<T>,
  options: { javaScriptEnabled?: boolean; timeoutMs?: number; memoryLimitMb?: number } = {},
): Promise<T> {
  const server = await chromium.launchServer({ executablePath, args: chromiumArgs, timeout: 30_000 });
  const pid = server.process().pid;
  let stopped: BrowserLimitError | null = null;
  let timer: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    const stop = (error: BrowserLimitError) => {
      if (stopped) return;
      stopped = error;
      reject(error);
      void server.kill();
    };
    timer = setTimeout(() => stop(new BrowserLimitError('time')), options.timeoutMs ?? BROWSER_TIME_LIMIT_MS);
    const maxBytes = (options.memoryLimitMb ?? BROWSER_MEMORY_LIMIT_MB) * 1024 * 1024;
    if (pid !== undefined) {
      watch = setInterval(() => {
        if (memoryOfTree(pid) > maxBytes) stop(new BrowserLimitError('memory'));
      }, MEMORY_CHECK_EVERY_MS);
    }
  });
  limit.catch(() => {}); // Answered through the race below; never an unhandled rejection.
  try {
    const browser = await Promise.race([chromium.connect(server.wsEndpoint()), limit]);
    const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
    return await Promise.race([context.newPage().then(use), limit]);
  } catch (error) {
    throw stopped ?? error;
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
    await server.close().catch(() => server.kill());
  }
}

/**
 * Bytes a process and its descendants hold, from /proc (Linux): each one's proportional set size,
 * so memory Chromium's processes share is counted once. Elsewhere (no /proc) it reads 0 and only
 * the time limit applies.
 */
function memoryOfTree(root: number): number {
  return [root, ...descendantsOf(root)].reduce((total, pid) => total + memoryOf(pid), 0);
}

/** The pids of a process's children, their children and so on, from /proc (Linux; none elsewhere). */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    const parent = parentOf(Number(name));
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = children.get(queue.pop()!) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

function parentOf(pid: number): number | null {
  try {
    // The command name (2nd field) is in parentheses and may hold spaces: read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function memoryOf(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Letter paper with half-inch margins, the print settings of every PDF the portal makes. */
export const printOptions = { format: 'Letter', printBackground: true, margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' } } as const;
