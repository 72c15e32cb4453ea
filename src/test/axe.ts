import axe from 'axe-core';

/** The rule sets every screen and component is held to. */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe's violations as readable lines, so a failing test names the rule and the element. */
export async function axeViolations(context: Element | Document = document): Promise<string[]> {
  const result = await axe.run(context, { runOnly: { type: 'tag', values: wcagTags }, resultTypes: ['violations'] });
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** No violation at the desktop width and at the phone width the layout is held to. */
export async function expectNoViolationsAtBothWidths(): Promise<void> {
  const { page } = await import('vitest/browser');
  const { expect } = await import('vitest');
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.viewport(width, height);
    expect(await axeViolations(), `${width} px`).toEqual([]);
  }
}
