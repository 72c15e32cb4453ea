/**
 * The suite's time budget and the README's figures (decision 0040). `npm test` prints each layer's
 * wall time beside its share of the budget, and writes the README's layer table, counts and timing
 * line from the last full run that passed, so they never drift from what the suite is.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Seconds of wall time at rest on the project's 2-core machine, one layer after another: 8 minutes
 * in all, with room for the Chromium check and the summary. A layer past its share is a signal to
 * move tests down, merge journeys or size a proof suite (README, "When a layer passes its share"),
 * not a failure: a busy machine runs slower and the tests still pass.
 */
export const TEST_BUDGET = { static: 45, vitest: 215, playwright: 210, total: 480 } as const;

type Spent = { static: number; vitest: number; playwright: number };

const LABELS: Record<keyof Spent, string> = { static: 'static checks and the build', vitest: 'Vitest', playwright: 'Playwright' };

/** Each layer's time beside its share: one line each, saying by how much a layer is over. */
export function budgetShares(spent: Spent): { layer: keyof Spent; over: boolean; line: string }[] {
  return (Object.keys(LABELS) as (keyof Spent)[]).map((layer) => {
    const seconds = Math.round(spent[layer]);
    const share = TEST_BUDGET[layer];
    const over = seconds > share;
    return { layer, over, line: `${LABELS[layer]} ${seconds} s of ${share} s${over ? `: over by ${seconds - share} s` : ''}` };
  });
}

/** The layers as the README names them, in the suite's order, with the runners' layer keys. */
const LAYER_ROWS: { layer: string; keys: string[]; where: string; runsIn: string }[] = [
  { layer: 'domain', keys: ['domain'], where: '`domain/**/*.test.ts`, `views/**/*.test.ts`', runsIn: 'Node' },
  { layer: 'client', keys: ['client'], where: '`src/**/*.test.ts(x)`', runsIn: 'Node or jsdom' },
  { layer: 'ui', keys: ['ui'], where: '`src/**/*.browser.test.tsx`', runsIn: 'Vitest in Chromium (a touch screen too), axe on each' },
  {
    layer: 'server',
    keys: ['server'],
    where: '`server/`, `scripts/`, `mocks/`, `src/**/withServer/`',
    runsIn: 'Node: Fastify `inject` on PGlite (and PostgreSQL where the driver matters), real server processes for the proof suites',
  },
  {
    layer: 'e2e',
    keys: ['e2e desktop', 'e2e phone'],
    where: '`e2e/*.spec.ts`',
    runsIn: 'Playwright: the real server and Chromium, every test at 1280 px, those tagged `@layout` also at 390 px (a phone: touch)',
  },
];

export const FIGURES_START = '<!-- npm test writes from here to the end mark (scripts/testBudget.ts): change the words there -->';
export const FIGURES_END = '<!-- end of what npm test writes -->';

export interface RunFigures {
  layers: ReadonlyMap<string, number>;
  spent: Spent;
  totalSeconds: number;
  passed: number;
  skipped: number;
  lanes: string;
  slowest: readonly { layer: string; name: string; seconds: number }[];
  /** When the run ended, and the machine's load as it began (to tell a run at rest from a busy one). */
  date?: string;
  load?: number;
}

const thousands = (n: number) => n.toLocaleString('en-US');

/** The README's block of figures for one run. */
export function figuresBlock(run: RunFigures): string {
  const count = (keys: string[]) => keys.map((key) => thousands(run.layers.get(key) ?? 0)).join(' + ');
  const rows = LAYER_ROWS.map((row) => `| ${row.layer} | ${row.where} | ${row.runsIn} | ${count(row.keys)} |`);
  const shares = budgetShares(run.spent)
    .map((share) => share.line)
    .join(', ');
  const slowest = run.slowest.slice(0, 10).map((test) => `${test.seconds.toFixed(1).padStart(5)} s  [${test.layer}] ${test.name}`);
  return [
    FIGURES_START,
    '| layer | where | runs in | tests |',
    '|---|---|---|---|',
    ...rows,
    '',
    `The last full run that passed (${run.date ?? new Date().toISOString().slice(0, 10)}${run.load === undefined ? '' : `, load average ${run.load.toFixed(1)} at its start`} on ` +
      `this project's 2-core machine): **${thousands(run.passed)} passed, ${thousands(run.skipped)} skipped in ${Math.round(run.totalSeconds)} s**; ` +
      `${shares} (budget ${TEST_BUDGET.total} s; Vitest and Playwright ${run.lanes === 'side-by-side' ? 'side by side' : 'one after the other'}). Its 10 slowest tests:`,
    '',
    '```',
    ...slowest,
    '```',
    FIGURES_END,
  ].join('\n');
}

/** The README with its block of figures replaced by this run's; a README without the marks is an error. */
export function withFigures(readme: string, run: RunFigures): string {
  const start = readme.indexOf(FIGURES_START);
  const end = readme.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error(`README.md has no block of figures between "${FIGURES_START}" and "${FIGURES_END}"`);
  return readme.slice(0, start) + figuresBlock(run) + readme.slice(end + FIGURES_END.length);
}

export function writeReadme(run: RunFigures, file = 'README.md'): void {
  writeFileSync(file, withFigures(readFileSync(file, 'utf8'), run));
}
