import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/**
 * axe-core run in the page itself, as the component tests run it (src/test/axe.ts): injected once
 * per document, then `axe.run` on the whole page. Not @axe-core/playwright's `analyze`, which
 * injects axe's 500 kB again and opens a new page to merge the results on every call: 2.5 s a
 * check on /about against 0.4 s here, on pages that have no frames to merge
 * (docs/decisions/0016-tests-in-layers.md).
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type AxeWindow = Window & { axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> } };

/** The page's axe violations as it is now (WCAG 2.2 A and AA), one readable line each. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const result = await (window as AxeWindow).axe!.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, wcagTags);
}

/** The two widths every screen is held to: a 390 px phone and a desktop. */
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/**
 * The page's axe violations at both widths, as it is now, each line prefixed with `state` and the
 * width; the page is given back at the size it had.
 */
export async function axeViolationsAtBothWidths(page: Page, state = 'the page'): Promise<string[]> {
  const size = page.viewportSize();
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize(width);
    for (const violation of await axeViolations(page)) found.push(`${state} @${width.width}px — ${violation}`);
  }
  if (size) await page.setViewportSize(size);
  return found;
}

/** Zero axe violations on the page as it is now, at both widths, with readable failures. */
export async function expectNoAxeViolations(page: Page) {
  expect(await axeViolationsAtBothWidths(page)).toEqual([]);
}
