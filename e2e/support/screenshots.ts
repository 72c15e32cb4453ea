import type { Page } from '@playwright/test';

/** `npm run docs:screenshots` keeps each console screen of the staff flows as docs/staff/<name>.png. */
export async function shot(page: Page, name: string) {
  if (process.env.STAFF_SCREENSHOTS) await page.screenshot({ path: `docs/staff/${name}.png`, fullPage: true });
}
