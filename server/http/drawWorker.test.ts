import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDrawWorker, type DrawWorker } from './drawWorker';

/** A renderer that draws what it is given, and hangs when asked to. */
const standIn = `
export async function prepare() {}
export function renderSignedIn(url, cookies, data) {
  if (data.hang) for (;;);
  return url + ' ' + cookies + ' ' + data.name;
}`;

const rendererFile = () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-renderer-')), 'serverRender.js');
  writeFileSync(file, standIn);
  return file;
};

describe('the page renderer on its own thread (issue 29, item 1)', () => {
  let worker: DrawWorker | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await worker?.stop();
  });

  it('draws what it is given, many at once, each answered to its own ask', async () => {
    worker = await startDrawWorker(rendererFile(), () => {});
    const pages = await Promise.all(['a', 'b', 'c'].map((name) => worker!.render(`/about?${name}`, 'c=1', { name })));
    expect(pages).toEqual(['/about?a c=1 a', '/about?b c=1 b', '/about?c c=1 c']);
  });

  it('gives up a draw that hangs (the page goes as built), says so, and draws the next on a new thread', async () => {
    const lines: string[] = [];
    worker = await startDrawWorker(rendererFile(), (line) => lines.push(line));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hung = worker.render('/about', '', { hang: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await hung).toBeNull();
    expect(lines).toEqual(['drawing /about took over 5000 ms: the page went as built, and the renderer starts again']);
    vi.useRealTimers();
    expect(await worker.render('/education', '', { name: 'next' })).toBe('/education  next');
  });

  it('refuses to start on a renderer that does not load', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-renderer-')), 'serverRender.js');
    writeFileSync(file, 'export async function prepare() { throw new Error("no catalogue"); }');
    await expect(startDrawWorker(file, () => {})).rejects.toThrow(/^the page renderer did not load: no catalogue$/);
  });
});
