import { chromium, type Page } from 'playwright-core';
import { chromiumArgs } from '../../chromium';

/**
 * Runs `use` on a page of a fresh headless Chromium (Debian's, at `executablePath`) and closes the
 * browser afterwards, also on failure. A browser per job keeps one bad document from affecting
 * the next; starting one takes well under a second.
 */
export async function withBrowserPage<T>(executablePath: string, use: (page: Page) => Promise<T>, options: { javaScriptEnabled?: boolean } = {}): Promise<T> {
  const browser = await chromium.launch({ executablePath, args: chromiumArgs, timeout: 30_000 });
  try {
    const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
    return await use(await context.newPage());
  } finally {
    await browser.close();
  }
}

/** Letter paper with half-inch margins, the print settings of every PDF the portal makes. */
export const printOptions = { format: 'Letter', printBackground: true, margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' } } as const;
