/**
 * Issue 29, item 1, in `npm run bench`: five applicants saving every 200 ms (as a page's save
 * queue does, one save at a time) while one other signed-in applicant reloads /about over ten
 * connections, against the same five with nobody reloading. Phases alternate, quiet then hammered,
 * ROUNDS times, on the real server in its own process with the built client (pages drawn on the
 * server); the bystanders' saves are pooled per phase. Bounded: 2 × ROUNDS × PHASE_SECONDS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { account, dropAll, freshPostgres, ServerProcess, until } from '../server/testing/serverProcess';
import { loadAverage, loadGenerator, type BenchResult } from './benchServer';

const PHASE_SECONDS = 8;
/**
 * Five rounds, as every server figure (issue 33): the p99 of three (600 saves a phase) read 0.85
 * to 1.55× in full runs of the same code, 1.10 to 1.29 run alone; the quiet phase's saves wait on
 * the idle machine's wake-ups (a `select 1` after 200 ms idle took 1.7 ms against 0.07 back to back).
 */
const ROUNDS = 5;
const BYSTANDERS = 5;
const SAVE_EVERY_MS = 200;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/** Each bystander's saves for `seconds`, one at a time, one every 200 ms at most: their times (ms). */
async function bystanders(server: ServerProcess, cookies: string[], seconds: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    cookies.map(async (cookie, who) => {
      for (let i = 0; performance.now() < end; i++) {
        const start = performance.now();
        const response = await server.call('PUT', '/api/answer', cookie, { first_name: `Bystander ${who} ${i}` });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`a bystander's save answered ${response.status}`);
        const took = performance.now() - start;
        times.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, SAVE_EVERY_MS - took)));
      }
    }),
  );
  return times;
}

export async function drawnPagesBench(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-drawn-'));
  const drops: (() => Promise<void>)[] = [];
  const load = await loadGenerator();
  const server = new ServerProcess({ DATA_DIR: dataDir, ...(kind === 'postgres' ? { DATABASE_URL: await freshPostgres(drops) } : {}) }, path.resolve('dist'));
  try {
    await server.start();
    const cookies: string[] = [];
    for (let i = 0; i <= BYSTANDERS; i++) cookies.push(await account(server, `bench-drawn-${kind}-${i}@example.com`));
    const [reloading, ...others] = cookies as [string, ...string[]];
    // Drawn once the server's budget allows (a server just started may still be busy), asked until then.
    await until('the server to draw /about (is the client built? npm run build)', async () =>
      (await (await server.call('GET', '/about', reloading)).text()).includes('data-drawn="/about"') ? true : undefined, 60);

    const quiet: number[] = [];
    const hammered: number[] = [];
    let pages = 0;
    const loads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(loadAverage());
      quiet.push(...(await bystanders(server, others, PHASE_SECONDS)));
      // One applicant reloading pages on 10 connections, from the load generator's process (in this
      // one its work would delay the bystanders' timers and count as theirs).
      const [saves, reloads] = await Promise.all([
        bystanders(server, others, PHASE_SECONDS),
        load.run({ url: `${server.url}/about`, connections: 10, seconds: PHASE_SECONDS, headers: [{ cookie: reloading }] }),
      ]);
      hammered.push(...saves);
      pages += reloads.perSecond / ROUNDS;
    }
    const quietP99 = percentile(quiet, 99);
    const hammeredP99 = percentile(hammered, 99);
    const ratio = hammeredP99 / Math.max(quietP99, 1);
    console.log(
      `${kind}: bystanders' saves p50 ${percentile(quiet, 50).toFixed(1)} → ${percentile(hammered, 50).toFixed(1)} ms, p99 ${quietP99.toFixed(1)} → ${hammeredP99.toFixed(1)} ms (${quiet.length} and ${hammered.length} saves); /about answered ${Math.round(pages)} a second to the one reloading`,
    );
    return [
      {
        name: `${kind}: bystanders' save p99 while one applicant reloads /about on 10 connections, against nobody reloading`,
        value: Math.round(hammeredP99 * 10) / 10,
        unit: 'ms',
        floor: Math.round(quietP99 * 10) / 10,
        ratio,
        budget: '≤ 1.5× (issue 29)',
        holds: ratio <= 1.5,
        load: loads.sort((a, b) => a - b)[Math.floor(loads.length / 2)],
      },
    ];
  } finally {
    load.stop();
    await server.stop();
    await dropAll(drops);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
