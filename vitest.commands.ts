import type {} from '@vitest/browser-playwright';
import type { BrowserCommand } from 'vitest/node';

/**
 * Commands the component tests run on Playwright's side (src/test/hands.ts calls them): a finger's
 * tap, which Vitest's userEvent does not make. Playwright sends touchstart/touchend and the
 * pointer and mouse events a phone derives from them, as Chromium does for a real finger.
 */
const tap: BrowserCommand<[selector: string]> = async (context, selector) => {
  if (context.provider.name !== 'playwright') throw new Error('tap needs the playwright provider');
  await context.iframe.locator(selector).tap();
};

export const browserCommands = { tap };
