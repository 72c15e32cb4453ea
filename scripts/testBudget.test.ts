import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { budgetShares, FIGURES_END, FIGURES_START, TEST_BUDGET, withFigures, type RunFigures } from './testBudget';

const run: RunFigures = {
  layers: new Map([
    ['domain', 368],
    ['client', 224],
    ['ui', 201],
    ['server', 1512],
    ['e2e desktop', 80],
    ['e2e phone', 4],
  ]),
  spent: { static: 41.4, vitest: 238.2, playwright: 199.6 },
  totalSeconds: 496.2,
  passed: 2389,
  skipped: 0,
  lanes: 'one-after-another',
  slowest: [{ layer: 'server', name: 'server/faults.test.ts › kill -9', seconds: 46.24 }],
  date: '2026-11-28',
  load: 0.25,
};

describe('the test budget (decision 0040)', () => {
  it('is 8 minutes in all, the layers\' shares within it', () => {
    expect(TEST_BUDGET.total).toBe(480);
    expect(TEST_BUDGET.static + TEST_BUDGET.vitest + TEST_BUDGET.playwright).toBeLessThanOrEqual(TEST_BUDGET.total);
  });

  it('prints each layer beside its share, saying by how much one is over', () => {
    expect(budgetShares(run.spent).map((share) => share.line)).toEqual([
      'static checks and the build 41 s of 45 s',
      'Vitest 238 s of 215 s: over by 23 s',
      'Playwright 200 s of 210 s',
    ]);
  });
});

describe("the README's figures, written by npm test", () => {
  const readme = ['# Title', 'before', FIGURES_START, 'stale table', FIGURES_END, 'after'].join('\n');

  it('replace only what lies between the marks: the layer table, the counts and the timing line', () => {
    const written = withFigures(readme, run);
    expect(written.startsWith(`# Title\nbefore\n${FIGURES_START}\n| layer | where | runs in | tests |`)).toBe(true);
    expect(written.endsWith(`${FIGURES_END}\nafter`)).toBe(true);
    expect(written).not.toContain('stale table');
    expect(written).toContain('| server | `server/`, `scripts/`, `mocks/`, `src/**/withServer/` |');
    expect(written).toMatch(/\| 1,512 \|\n\| e2e \| .* \| 80 \+ 4 \|/);
    expect(written).toContain(
      '(2026-11-28, load average 0.3 at its start on this project\'s 2-core machine): **2,389 passed, 0 skipped in 496 s**; static checks and the build 41 s of 45 s, Vitest 238 s of 215 s: over by 23 s, Playwright 200 s of 210 s (budget 480 s; Vitest and Playwright one after the other)',
    );
    expect(written).toContain(' 46.2 s  [server] server/faults.test.ts › kill -9');
    // Written again, the same run gives the same text: nothing accumulates.
    expect(withFigures(written, run)).toBe(written);
  });

  it('refuse a README without the marks, rather than lose the figures', () => {
    expect(() => withFigures('# Title\nno marks', run)).toThrow(/no block of figures/);
  });

  it('have their marks in the project README, so a passing run can always write them', () => {
    expect(() => withFigures(readFileSync('README.md', 'utf8'), run)).not.toThrow();
  });
});
