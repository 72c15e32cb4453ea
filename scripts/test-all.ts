/**
 * `npm test`: every check of the project, then a summary: each step's wall time, the tests per
 * layer, the 15 slowest tests, and one closing line `N passed, N failed, N skipped`.
 *
 * Steps: the client's build, type-check (each half under its own tsconfig), contract lint, ESLint
 * and knip, two at a time;
 * then Vitest (domain, client, ui, server: generated/ fresh, the Prism mock) and Playwright (browser
 * flows, the mock's scenarios): side by side on four cores or more (each leaves cores idle while it
 * waits on a server, a browser or a process it killed), one after the other on two. Their output is kept in .tmp/*.log and printed as
 * each ends, so the two never interleave.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { budgetShares, TEST_BUDGET, writeReadme } from './testBudget';

interface Tally {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  /** How busy the machine's cores were while it ran, 0–1 (steps side by side share it). */
  busy: number;
}

/** One test's outcome as the reports give it. */
interface Timed {
  layer: string;
  name: string;
  seconds: number;
}

/**
 * Each failed test with the start of its error, printed just above the closing line: CI keeps only
 * the end of the output, and a count alone does not say which test to look at.
 */
const failures: { layer: string; name: string; message: string }[] = [];
const firstLines = (message = '') => stripVTControlCharacters(message).split('\n').filter((line) => line.trim()).slice(0, 3).join(' | ').slice(0, 400);

/**
 * What a runner printed about an error outside its tests (Vitest's "Unhandled Errors" block, an
 * unhandled rejection, a worker that exited): the lines from its banner, or the log's last lines.
 */
function errorOutsideTests(log: string): string {
  const lines = stripVTControlCharacters(log).split('\n').filter((line) => /\w/.test(line));
  const start = lines.findIndex((line) => /Unhandled (Errors?|Rejection)|exited unexpectedly|close timed out/.test(line));
  return (start >= 0 ? lines.slice(start, start + 12) : lines.slice(-12)).join('\n      ').slice(0, 2000);
}

/** The parts of Vitest's JSON report that are read. */
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; status?: string; message?: string; assertionResults: { fullName: string; status: string; duration?: number | null; failureMessages?: string[] }[] }[];
}

/** The parts of Playwright's JSON report that are read. */
interface PlaywrightSuite {
  file?: string;
  specs?: { title: string; tests: { projectName: string; status?: string; results: { duration: number; error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  stats: { expected: number; flaky: number; unexpected: number; skipped: number };
  suites: PlaywrightSuite[];
}

const tallies: Tally[] = [];
const timed: Timed[] = [];
mkdirSync('.tmp', { recursive: true });
const bin = (name: string) => `node_modules/.bin/${name}`;
const started = Date.now();
// The machine's load as the run begins, written beside its figures: a run at rest from a busy one.
const loadAtStart = loadavg()[0]!;

/**
 * Runs a command; with `log`, its output goes to that file and is printed once it ends (so steps
 * run side by side do not interleave). Resolves with its exit status and wall time.
 */
function run(command: string, args: string[], options: { env?: Record<string, string>; log?: string } = {}): Promise<{ status: number; seconds: number; busy: number }> {
  const begin = Date.now();
  const coresBefore = coreTimes();
  const line = `▶ ${command} ${args.join(' ')}`;
  if (!options.log) console.log(`\n${line}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: options.log ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...options.env } });
    if (options.log) {
      const file = createWriteStream(options.log);
      child.stdout!.pipe(file);
      child.stderr!.pipe(file);
    }
    child.on('close', (code) => {
      const seconds = (Date.now() - begin) / 1000;
      if (options.log) console.log(`\n${line}  (${seconds.toFixed(0)} s)\n${readFileSync(options.log, 'utf8')}`);
      resolve({ status: code ?? 1, seconds, busy: busyBetween(coresBefore, coreTimes()) });
    });
  });
}

/** All cores' busy and idle time so far (ms). */
function coreTimes() {
  let busy = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return { busy, idle };
}

/**
 * The share of the cores' time spent working between two readings: a layer near 100 % is bound by
 * CPU (cut work: move tests down, size proofs); one well under it waits (on a server, a browser, a
 * timer: cut the waits, or run more at once).
 */
function busyBetween(before: ReturnType<typeof coreTimes>, after: ReturnType<typeof coreTimes>) {
  const busy = after.busy - before.busy;
  const all = busy + after.idle - before.idle;
  return all > 0 ? busy / all : 0;
}

/** A step that is one check: it passes when the command exits 0. */
async function check(name: string, command: string, args: string[]) {
  const { status, seconds, busy } = await run(command, args, { log: `.tmp/${name.replace(/\W+/g, '-')}.log` });
  tallies.push({ name, passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: 0, seconds, busy });
}

/** A step whose runner writes a JSON report; a runner that crashed before reporting counts as one failure. */
async function suite<R>(name: string, command: string, args: string[], report: string, read: (json: R) => Omit<Tally, 'name' | 'seconds' | 'busy'>, env: Record<string, string> = {}) {
  rmSync(report, { force: true });
  const log = `.tmp/${name.split(' ')[0]}.log`;
  const { status, seconds, busy } = await run(command, args, { env, log });
  if (!existsSync(report)) {
    tallies.push({ name, passed: 0, failed: 1, skipped: 0, seconds, busy });
    return;
  }
  const counts = read(JSON.parse(readFileSync(report, 'utf8')) as R);
  // A non-zero exit with no failed test (an error outside tests) is still a failure, named by what
  // the runner printed about it.
  if (status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    failures.push({ layer: name.split(' ')[0]!, name: 'an error outside any test', message: errorOutsideTests(readFileSync(log, 'utf8')) });
  }
  tallies.push({ name, ...counts, seconds, busy });
}

/** Which layer a Vitest file is (vite.config.ts's projects). */
function vitestLayer(file: string): string {
  if (file.startsWith('domain/')) return 'domain';
  if (file.startsWith('src/')) return /\.browser\.test\./.test(file) ? 'ui' : 'client';
  return 'server';
}

function readVitest(json: VitestReport) {
  for (const file of json.testResults) {
    const name = file.name.replace(`${process.cwd()}/`, '');
    for (const test of file.assertionResults) {
      if (test.status === 'passed' || test.status === 'failed') timed.push({ layer: vitestLayer(name), name: `${name} › ${test.fullName}`, seconds: (test.duration ?? 0) / 1000 });
      if (test.status === 'failed') failures.push({ layer: vitestLayer(name), name: `${name} › ${test.fullName}`, message: firstLines(test.failureMessages?.join('\n')) });
    }
    // A file that failed outside its tests (an import, a hook) has no failed test of its own.
    if (file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')) failures.push({ layer: vitestLayer(name), name, message: firstLines(file.message) });
  }
  return { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests };
}

function readPlaywright(json: PlaywrightReport) {
  const walk = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) timed.push({ layer: `e2e ${test.projectName}`, name: `${file} › ${spec.title}`, seconds: result.duration / 1000 });
        if (test.status === 'unexpected') failures.push({ layer: `e2e ${test.projectName}`, name: `${file} › ${spec.title}`, message: firstLines(test.results.at(-1)?.error?.message) });
      }
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of json.suites) walk(suite, suite.file ?? '');
  return { passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped };
}

if ((await run('bash', ['scripts/ensure-chromium.sh'])).status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Static checks and the client's build, two at a time (each keeps about one core busy), the
// longest first so that the two lanes end together. Each half under its own settings: domain/
// without DOM or Node, src/ without Node, server/ without DOM; then the edges between the halves
// and the features (eslint.config.js), and dead code and dependencies.
const checks: [string, string, string[]][] = [
  // The client as applicants get it (React's production build; NODE_ENV=test would build its
  // development mode), for Playwright's server: built here so it is ready when Playwright starts.
  ['build', 'bash', ['-c', 'NODE_ENV=production npm run -s build']],
  // One build of the projects (tsc -b, decision 0043): domain/ and views/ checked once, their
  // declarations read by src/ and server/, and theirs by the tools; incremental between runs.
  ['type-check', bin('tsc'), ['-b', '.']],
  ['eslint', bin('eslint'), ['--cache', '--cache-location', '.tmp/eslint-cache', '.']],
  ['knip', bin('knip'), []],
  ['contract lint', bin('redocly'), ['lint', 'openapi.yaml']],
];
const staticBegin = Date.now();
const waiting = [...checks];
await Promise.all(
  [0, 1].map(async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) await check(...next);
  }),
);
const staticSeconds = (Date.now() - staticBegin) / 1000;
const builtClient = tallies.some((t) => t.name === 'build' && t.passed === 1);

// Side by side only on four cores or more (or TEST_LANES=side-by-side). On two, the lanes' five
// workers, their servers and browsers starved each other: on a slower machine of this kind, suites
// waited out their 60-second set-up and a page went unanswered for minutes (see decision 0018).
const lanes = process.env.TEST_LANES ?? (availableParallelism() >= 4 ? 'side-by-side' : 'one-after-another');
const vitest = () =>
  suite<VitestReport>(
    'vitest (domain, client, ui, server, mock, generated)',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json'],
    '.tmp/vitest.json',
    readVitest,
  );
const playwright = () =>
  suite<PlaywrightReport>('playwright (browser flows, axe, mock scenarios)', bin('playwright'), ['test'], '.tmp/playwright.json', readPlaywright, {
    PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright.json',
    E2E_CLIENT_BUILT: builtClient ? '1' : '0',
  });
const testsBegin = Date.now();
if (lanes === 'side-by-side') await Promise.all([vitest(), playwright()]);
else {
  await vitest();
  await playwright();
}
const testsSeconds = (Date.now() - testsBegin) / 1000;

const playwrightSeconds = tallies.find((t) => t.name.startsWith('playwright'))?.seconds ?? 0;
const vitestSeconds = tallies.find((t) => t.name.startsWith('vitest'))?.seconds ?? 0;

console.log('\nSummary');
for (const t of tallies) console.log(`  ${t.name}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped (${t.seconds.toFixed(0)} s, cores ${Math.round(t.busy * 100)} % busy)`);
console.log(`\nWall time: static checks and the build ${staticSeconds.toFixed(0)} s, tests ${testsSeconds.toFixed(0)} s (Vitest and Playwright ${lanes === 'side-by-side' ? 'side by side' : 'one after the other'}), in all ${((Date.now() - started) / 1000).toFixed(0)} s`);

const layers = new Map<string, number>();
for (const test of timed) layers.set(test.layer, (layers.get(test.layer) ?? 0) + 1);
console.log(`Tests per layer: ${[...layers].map(([layer, n]) => `${layer} ${n}`).join(', ')}`);
const slowest = [...timed].sort((a, b) => b.seconds - a.seconds).slice(0, 15);
console.log('The 15 slowest tests:');
for (const test of slowest) console.log(`  ${test.seconds.toFixed(1).padStart(6)} s  [${test.layer}] ${test.name}`);

const spent = { static: staticSeconds, vitest: vitestSeconds, playwright: playwrightSeconds };
const shares = budgetShares(spent);
console.log(`\nThe budget (at rest on 2 cores, ${TEST_BUDGET.total} s in all; README, "When a layer passes its share"):`);
for (const share of shares) console.log(`  ${share.line}`);

if (failures.length) {
  console.log('Failed:');
  for (const failure of failures) console.log(`  [${failure.layer}] ${failure.name}\n      ${failure.message}`);
}
const total = tallies.reduce((sum, t) => ({ passed: sum.passed + t.passed, failed: sum.failed + t.failed, skipped: sum.skipped + t.skipped }), { passed: 0, failed: 0, skipped: 0 });
// The README's counts and timings come from the last full run that passed, so they never drift.
if (total.failed === 0) {
  writeReadme({ layers, spent, totalSeconds: (Date.now() - started) / 1000, passed: total.passed, skipped: total.skipped, lanes, slowest, load: loadAtStart });
  console.log('README.md: the layer table and the timing line written from this run.');
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed === 0 ? 0 : 1);
