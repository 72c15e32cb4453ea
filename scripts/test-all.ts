/**
 * `npm test`: every check of the project, in order, then one closing line `N passed, N failed`.
 * Steps: type-check (each half under its own tsconfig), contract lint, ESLint, knip, unit + component + server suites (Vitest, which also checks
 * that generated/ is fresh and that the Prism mock honours the contract), browser flows (Playwright).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

interface Tally {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** The parts of Vitest's and Playwright's JSON reports that are counted. */
interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  stats: { expected: number; flaky: number; unexpected: number; skipped: number };
}

const tallies: Tally[] = [];
mkdirSync('.tmp', { recursive: true });

function run(command: string, args: string[], env: Record<string, string> = {}): number {
  console.log(`\n▶ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** A step that is one check: it passes when the command exits 0. */
function check(name: string, command: string, args: string[]) {
  const ok = run(command, args) === 0;
  tallies.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 });
}

/** A step whose runner writes a JSON report; a runner that crashed before reporting counts as one failure. */
function suite(name: string, command: string, args: string[], report: string, read: (json: Report) => Omit<Tally, 'name'>, env = {}) {
  rmSync(report, { force: true });
  const status = run(command, args, env);
  if (!existsSync(report)) {
    tallies.push({ name, passed: 0, failed: 1, skipped: 0 });
    return;
  }
  const counts = read(JSON.parse(readFileSync(report, 'utf8')));
  // A non-zero exit with no failed test (an error outside tests) is still a failure.
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  tallies.push({ name, ...counts });
}

const bin = (name: string) => `node_modules/.bin/${name}`;

if (run('bash', ['scripts/ensure-chromium.sh']) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// Each half under its own settings: domain/ without DOM or Node, src/ without Node, server/ without DOM.
for (const project of ['domain', 'src', 'server', 'tsconfig.json']) check(`type-check ${project}`, bin('tsc'), ['-p', project]);
check('contract lint', bin('redocly'), ['lint', 'openapi.yaml']);
// The edges between the halves and the features (eslint.config.js), and dead code and dependencies.
check('eslint', bin('eslint'), ['.']);
check('knip', bin('knip'), []);
suite(
  'vitest (domain, client, ui, server, mock, generated)',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json'],
  '.tmp/vitest.json',
  (json) => ({ passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }),
);
suite(
  'playwright (browser flows, axe)',
  bin('playwright'),
  ['test'],
  '.tmp/playwright.json',
  (json) => ({ passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped }),
  { PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright.json' },
);

console.log('\nSummary');
for (const t of tallies) console.log(`  ${t.name}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
const total = tallies.reduce((sum, t) => ({ passed: sum.passed + t.passed, failed: sum.failed + t.failed, skipped: sum.skipped + t.skipped }), { passed: 0, failed: 0, skipped: 0 });
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed === 0 ? 0 : 1);
