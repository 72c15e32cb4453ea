import { commands, type Locator } from 'vitest/browser';

declare module 'vitest/browser' {
  interface BrowserCommands {
    tap: (selector: string) => Promise<void>;
  }
}

/**
 * A finger on a phone: touchstart and touchend on the element's centre, then the pointer and mouse
 * events and the click a browser derives from a tap (vitest.commands.ts). A pointer's click is
 * `locator.click()`, the keyboard `userEvent.keyboard`: three different people.
 */
export const tap = (locator: Locator) => commands.tap(locator.selector);
