import type { Page } from '@playwright/test';

/**
 * Holds the app's entry script until `release` is called, to do what a phone on a slow network
 * allows on a page drawn ahead: read, type and press before the app runs. `started` waits for the
 * app to have started (on a drawn form page, for the form to have run).
 */
export async function holdAppCode(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return { release, started: () => page.waitForFunction(() => (window as { portalStarted?: boolean }).portalStarted === true) };
}
