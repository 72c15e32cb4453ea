import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { chromiumExecutablePath } from '../../chromium';
import { BROWSER_NICENESS, closeBrowsers, closingWhenIdle, descendantsOf, memoryOfTree, printHtml, printPagesKept, printSlots, readyToPrint, withBrowserPage } from './browser';

afterAll(() => closeBrowsers());

const GiB = 1024 ** 3;

describe('printSlots: prints at once in one process', () => {
  it.each([
    [2, 24, 1],
    [8, 32, 4],
    [8, 4, 1],
    [1, 64, 1],
    [16, 12, 4],
    [4, 1, 1],
  ])('%i cores and %i GiB: %i', (cores, gib, slots) => {
    expect(printSlots(cores, gib * GiB)).toBe(slots);
  });
});

describe('a process that prints (issue 33)', () => {
  const page = '<!doctype html><html lang="en"><title>Copy</title><p>An application.</p></html>';

  it('has its browser launched, a print page kept and the browser kept open between jobs once readied', async () => {
    await closeBrowsers();
    await readyToPrint(chromiumExecutablePath);
    expect(await printPagesKept(chromiumExecutablePath)).toBe(1);
    expect(await closingWhenIdle(chromiumExecutablePath)).toBe(false);
    expect(Buffer.from(await printHtml(chromiumExecutablePath, page, {})).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await printPagesKept(chromiumExecutablePath)).toBe(1);
    expect(await closingWhenIdle(chromiumExecutablePath)).toBe(false);
    await closeBrowsers();
  }, 60_000);

  it('closes a browser launched for a job, not readied, once it has no job', async () => {
    await closeBrowsers();
    await printHtml(chromiumExecutablePath, page, {});
    expect(await closingWhenIdle(chromiumExecutablePath)).toBe(true);
    await closeBrowsers();
  }, 60_000);
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

describe('the memory watch', () => {
  it("reads a process tree's memory off the event loop: other work runs while it reads (issue 33: a look held every call for up to 0.3 s)", async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const { tree, bytes } = await memoryOfTree(process.pid);
    expect(turned).toBe(true);
    expect(tree[0]).toBe(process.pid);
    expect(bytes).toBeGreaterThan(0);
  });
});

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
