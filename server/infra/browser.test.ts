import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** Every /proc file the code under test reads, on the event loop (sync) or off it. */
const procReads = vi.hoisted(() => ({ sync: [] as string[], async: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((file: string, ...rest: unknown[]) => {
    if (String(file).startsWith('/proc/')) procReads.sync.push(String(file));
    return (fs.readFileSync as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = ((file: string, ...rest: unknown[]) => {
    if (String(file).startsWith('/proc/')) procReads.async.push(String(file));
    return (fs.readFile as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFile;
  return { ...fs, default: { ...fs, readFile }, readFile };
});
import { chromiumExecutablePath } from '../../chromium';
import { BROWSER_NICENESS, closeBrowsers, descendantsOf, printHtml, printPagesKept, printSlots, withBrowserPage } from './browser';

afterAll(() => closeBrowsers());

const GiB = 1024 ** 3;

describe('printSlots: prints at once in one process', () => {
  it.each([
    [2, 24, 4],
    [8, 4, 1],
    [1, 64, 2],
    [16, 12, 4],
    [4, 1, 1],
  ])('%i cores and %i GiB: %i', (cores, gib, slots) => {
    expect(printSlots(cores, gib * GiB)).toBe(slots);
  });
});

/** The nice value of every thread of this process's Chromium processes (from /proc: Linux). */
function chromiumThreadsNice(): number[] {
  const nice: number[] = [];
  for (const pid of descendantsOf(process.pid)) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('chrom')) continue;
      for (const thread of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
        // After the command name: state is the 1st field, nice the 17th (stat's 19th).
        nice.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      }
    } catch {
      // The process or thread ended while it was read.
    }
  }
  return nice;
}

describe('printing (issue 33)', () => {
  it('keeps a print page between prints, and closes one whose print failed', async () => {
    const first = await printHtml(chromiumExecutablePath, '<p>one</p>', {});
    expect(Buffer.from(first).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await printPagesKept(chromiumExecutablePath)).toBe(1);
    await printHtml(chromiumExecutablePath, '<p>two</p>', {});
    expect(await printPagesKept(chromiumExecutablePath)).toBe(1);
    await expect(printHtml(chromiumExecutablePath, '<p>three</p>', { format: 'no such paper' })).rejects.toThrow();
    expect(await printPagesKept(chromiumExecutablePath)).toBe(0);
  }, 60_000);

  it('watches the memory once for all the prints under way, not once a print (issue 33)', async () => {
    const watches = vi.spyOn(globalThis, 'setInterval');
    try {
      await Promise.all(['one', 'two', 'three'].map((text) => printHtml(chromiumExecutablePath, `<p>${text}</p>`, {})));
      expect(watches.mock.calls.filter(([, ms]) => ms === 250)).toHaveLength(1);
    } finally {
      watches.mockRestore();
    }
  }, 60_000);

  it("reads the browser's memory off the event loop: a look held every call for up to 0.3 s (issue 33)", async () => {
    procReads.sync.length = 0;
    procReads.async.length = 0;
    const smaps = (reads: string[]) => reads.filter((file) => file.endsWith('/smaps_rollup'));
    // A job held open until the watch has looked at the memory at least once.
    await withBrowserPage(chromiumExecutablePath, () => vi.waitFor(() => expect(smaps(procReads.async).length).toBeGreaterThan(0), { timeout: 20_000, interval: 50 }));
    expect(smaps(procReads.sync)).toEqual([]);
  }, 60_000);

  it('refuses every request a printed document makes', async () => {
    // An address nothing listens on would fail too: a request refused by the page fails at once.
    let asked = 0;
    const server = (await import('node:http')).createServer((_request, response) => {
      asked++;
      response.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await printHtml(chromiumExecutablePath, `<img src="http://127.0.0.1:${port}/image.png"><link rel="stylesheet" href="http://127.0.0.1:${port}/style.css">`, {});
    } finally {
      server.close();
    }
    expect(asked).toBe(0);
  }, 60_000);

  it("runs the browser's threads behind the applicants' requests (lower priority), Chromium's own helpers too", async () => {
    await withBrowserPage(chromiumExecutablePath, async (page) => {
      await page.setContent('<p>printing</p>');
      // The job's watch lowers threads Chromium started or raised since the launch.
      await expect.poll(() => Math.min(...chromiumThreadsNice()), { timeout: 20_000 }).toBeGreaterThanOrEqual(BROWSER_NICENESS);
    });
    expect(chromiumThreadsNice().length).toBeGreaterThan(0);
  }, 60_000);
});
