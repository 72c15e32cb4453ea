import { chromium, type Page } from 'playwright-core';
import { chromiumArgs } from '../../chromium';

/**
 * Runs `use` on a page of a fresh headless Chromium (Debian's, at `executablePath`) and closes the
 * browser afterwards, also on failure. A browser per job keeps one bad document from affecting
 * the next; starting one takes well under a second.
 */
export async function withBrowserPage<T>(
  executablePath: string,
  use: (page: Page) => Promise<T>,
  options: { javaScriptEnabled?: boolean; timeoutMs?: number } = {},
): Promise<T> {
  const browser = await chromium.launch({ executablePath, args: chromiumArgs, timeout: 30_000 });
  // Every print has a time limit: past it the browser (and its renderer) is closed, which is what
  // frees a page that a huge document holds up, and the job fails instead of hanging.
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BrowserTimeoutError()), options.timeoutMs ?? BROWSER_TIME_LIMIT_MS);
  });
  try {
    const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
    return await Promise.race([context.newPage().then(use), limit]);
  } finally {
    clearTimeout(timer);
    await browser.close();
  }
}

/** How long one browser job (a DOCX print, the PDF copy) may take. */
const BROWSER_TIME_LIMIT_MS = 90_000;

export class BrowserTimeoutError extends Error {
  override readonly name = 'BrowserTimeoutError';
  constructor() {
    super('The browser job took longer than its limit and was stopped.');
  }
}

/** Letter paper with half-inch margins, the print settings of every PDF the portal makes. */
export const printOptions = { format: 'Letter', printBackground: true, margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' } } as const;
