/**
 * The server figures of `npm run bench` (issues 14 and 33), each beside a floor measured in the
 * same run on the same machine. Three processes besides the database, as production has them: the
 * app (`server/main.ts`), the floor (`scripts/benchFloorServer.ts`: a bare Fastify running the
 * app's own profile SQL, and the save's merge, on the same database with the same pool) and the
 * load generator (`scripts/benchLoad.ts`). ROUNDS rounds, each measure once per round in turn; the
 * medians are kept, with the machine's load average beside them. The CPU each process and
 * PostgreSQL spent is read from /proc around each measure: CPU per request, app against floor.
 * Bounded: SECONDS per measure, on 127.0.0.1 only.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { answerKeys, fieldByKey } from '../domain/catalogue';
import { processStat } from '../server/infra/browser';
import { account, dropAll, freshPostgres, ServerProcess } from '../server/testing/serverProcess';
import type { LoadAsk, LoadResult } from './benchLoad';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  floor: number | null;
  ratio: number | null;
  budget: string;
  holds: boolean;
  /** The machine's 1-minute load average while the figure was taken (median of its rounds). */
  load?: number;
}

const SECONDS = 3;
const ROUNDS = 5;
const APPLICANTS = 16;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The machine's 1-minute load average now. */
export const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/**
 * Runs each measure once per round, in turn (a figure beside its floor sees the machine as the
 * floor does: a busy spell lands on both), and returns every sample of each.
 */
export async function inTurn<K extends string, T>(measures: Record<K, () => Promise<T>>, count: number): Promise<Record<K, T[]>> {
  const seen = Object.fromEntries(Object.keys(measures).map((key) => [key, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < count; round++) for (const key of Object.keys(measures) as K[]) seen[key].push(await measures[key]());
  return seen;
}

/** CPU seconds a process has spent, its reaped children's too (from /proc: Linux). */
export function cpuOf(pid: number): number {
  const fields = processStat(pid);
  if (!fields) return 0;
  // After the command name: utime, stime, cutime, cstime are the 12th to 15th (stat's 14th to 17th).
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds every PostgreSQL process of this machine has spent (the bench's database is the only busy one). */
export function postgresCpu(): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') total += cpuOf(Number(name));
    } catch {
      // Ended while read.
    }
  }
  return total;
}

/** The load generator, in a process of its own, ready before any figure. */
export async function loadGenerator(): Promise<{ run: (ask: LoadAsk) => Promise<LoadResult>; stop: () => void }> {
  const child = fork(path.resolve('scripts/benchLoad.ts'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = () => new Promise<LoadResult | { ready: true } | { failed: string }>((resolve) => child.once('message', resolve as (message: unknown) => void));
  await next();
  return {
    run: async (ask) => {
      const answer = next();
      child.send(ask);
      const result = await answer;
      if ('failed' in result || 'ready' in result) throw new Error(`the load generator failed: ${JSON.stringify(result)}`);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${ask.url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
      return result;
    },
    stop: () => child.kill(),
  };
}

/** 200 answers of the form's own keys, as a busy page's save sends them. */
export function twoHundredAnswers(): Record<string, string> {
  const keys = [...answerKeys].filter((key) => !key.endsWith('_desc') && fieldByKey.get(key)?.type !== 'document' && fieldByKey.get(key)?.type !== 'checkbox').slice(0, 200);
  // A choice holds one of its options (the server refuses any other value), with its label as the
  // page sends it (the server writes the label from the catalogue all the same).
  const firstOption = (key: string) => fieldByKey.get(key)?.options?.find((option) => option.value !== '');
  return Object.fromEntries(
    keys.flatMap((key, i) => {
      const option = firstOption(key);
      return option ? [[key, option.value], [`${key}_desc`, option.label]] : [[key, `answer ${i}`]];
    }),
  );
}

/** A measure's figures: requests a second, p99, CPU per request (µs) of the serving process and of PostgreSQL, the load average. */
type Measured = { perSecond: number; p99: number; nodeUs: number; postgresUs: number; load: number };

/** Medians over the rounds of each measure. */
const medians = (samples: Measured[]): Measured => ({
  perSecond: median(samples.map((s) => s.perSecond)),
  p99: median(samples.map((s) => s.p99)),
  nodeUs: median(samples.map((s) => s.nodeUs)),
  postgresUs: median(samples.map((s) => s.postgresUs)),
  load: median(samples.map((s) => s.load)),
});

export async function serverBench(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const drops: (() => Promise<void>)[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-server-'));
  const load = await loadGenerator();
  const databaseUrl = kind === 'postgres' ? await freshPostgres(drops) : null;
  const server = new ServerProcess({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  let floorProcess: ChildProcess | null = null;
  const mergeTable = `bench_merge_${process.pid}`;
  try {
    await server.start();
    const appPid = server.child!.pid!;
    const cookies: string[] = [];
    for (let i = 0; i < APPLICANTS; i++) cookies.push(await account(server, `bench-${kind}-${i}@example.com`));
    const answers = JSON.stringify(twoHundredAnswers());
    const profiles: { application_id: string; answers_revision: number }[] = [];
    for (const cookie of cookies) {
      const saved = await fetch(`${server.url}/api/answer`, { method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: answers });
      if (!saved.ok) throw new Error(`the bench's first save answered ${saved.status}`);
      profiles.push((await (await server.call('GET', '/api/profile', cookie)).json()) as (typeof profiles)[number]);
    }

    /** One measure: the load for SECONDS, with the CPU `pid` and PostgreSQL spent per request. */
    const measure = async (pid: number, ask: LoadAsk): Promise<Measured> => {
      const before = { node: cpuOf(pid), postgres: databaseUrl ? postgresCpu() : 0, load: loadAverage() };
      const result = await load.run(ask);
      const per = (seconds: number) => (seconds * 1e6) / Math.max(result.total, 1);
      return { perSecond: result.perSecond, p99: result.p99, nodeUs: per(cpuOf(pid) - before.node), postgresUs: databaseUrl ? per(postgresCpu() - before.postgres) : 0, load: before.load };
    };
    // As a page sends them (issue 28): with the answers' revision its last save was told, so the
    // server compares nothing while no other tab saves in between. Read again before each round.
    const revisions = async () =>
      Object.fromEntries(await Promise.all(cookies.map(async (cookie) => [cookie, ((await (await server.call('GET', '/api/profile', cookie)).json()) as { answers_revision: number }).answers_revision] as const)));
    const appMeasures = {
      profile: () => measure(appPid, { url: `${server.url}/api/profile`, connections: 50, seconds: SECONDS, headers: cookies.map((cookie) => ({ cookie })) }),
      saves: async () =>
        measure(appPid, { url: `${server.url}/api/answer`, connections: APPLICANTS, seconds: SECONDS, method: 'PUT', body: answers, headers: cookies.map((cookie) => ({ cookie, 'content-type': 'application/json' })), revisions: await revisions() }),
    };
    if (!databaseUrl) {
      const seen = await inTurn(appMeasures, ROUNDS);
      const [profile, saves] = [medians(seen.profile), medians(seen.saves)];
      return [
        { name: 'pglite: GET /api/profile, 50 connections', value: Math.round(profile.perSecond), unit: 'req/s', floor: null, ratio: null, budget: 'reported', holds: true, load: profile.load },
        { name: 'pglite: GET /api/profile p99, 50 connections', value: profile.p99, unit: 'ms', floor: null, ratio: null, budget: '< 100 ms', holds: profile.p99 < 100, load: profile.load },
        { name: `pglite: PUT /api/answer (200 keys) p99, ${APPLICANTS} applicants`, value: saves.p99, unit: 'ms', floor: null, ratio: null, budget: '< 100 ms', holds: saves.p99 < 100, load: saves.load },
      ];
    }

    // The floor process, on the same database: the same profile SQL, the merge on a table of its own.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    await pool.query(`create table ${mergeTable} (id int primary key, answer jsonb not null default '{}')`);
    await pool.query(`insert into ${mergeTable} (id, answer) select generate_series(0, ${APPLICANTS - 1}), $1::jsonb`, [answers]);
    await pool.end();
    floorProcess = fork(path.resolve('scripts/benchFloorServer.ts'), { env: { ...process.env, DATABASE_URL: databaseUrl, BENCH_MERGE_TABLE: mergeTable }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const floorUrl = await new Promise<string>((resolve) => floorProcess!.once('message', (message: { url: string }) => resolve(message.url)));
    const floorPid = floorProcess.pid!;
    const seen = await inTurn(
      {
        bareProfile: () => measure(floorPid, { url: `${floorUrl}/api/profile`, connections: 50, seconds: SECONDS, headers: profiles.map((profile) => ({ 'x-user': profile.application_id })) }),
        ...appMeasures,
        bareSaves: () => measure(floorPid, { url: `${floorUrl}/api/answer`, connections: APPLICANTS, seconds: SECONDS, method: 'PUT', body: answers, headers: [{ 'content-type': 'application/json' }] }),
      },
      ROUNDS,
    );
    const [profile, bareProfile, saves, bareSaves] = [medians(seen.profile), medians(seen.bareProfile), medians(seen.saves), medians(seen.bareSaves)];
    const figure = (name: string, value: number, unit: string, floor: number, budget: string, limit: (ratio: number) => boolean, loadAvg: number): BenchResult => {
      const ratio = value / Math.max(floor, 1e-9);
      return { name, value: Math.round(value * 10) / 10, unit, floor: Math.round(floor * 10) / 10, ratio, budget, holds: limit(ratio), load: loadAvg };
    };
    console.log(
      `postgres: per profile read, node ${profile.nodeUs.toFixed(0)} µs (bare ${bareProfile.nodeUs.toFixed(0)}), PostgreSQL ${profile.postgresUs.toFixed(0)} µs (bare ${bareProfile.postgresUs.toFixed(0)}); per save, node ${saves.nodeUs.toFixed(0)} µs (bare ${bareSaves.nodeUs.toFixed(0)}), PostgreSQL ${saves.postgresUs.toFixed(0)} µs (bare ${bareSaves.postgresUs.toFixed(0)})`,
    );
    return [
      figure('postgres: GET /api/profile, 50 connections, against the same SQL behind a bare route', profile.perSecond, 'req/s', bareProfile.perSecond, '≥ 0.75 of the bare route', (r) => r >= 0.75, profile.load),
      figure('postgres: node CPU per profile read, against the bare route', profile.nodeUs, 'µs', bareProfile.nodeUs, 'reported', () => true, profile.load),
      { name: 'postgres: GET /api/profile p99, 50 connections (at load)', value: profile.p99, unit: 'ms', floor: bareProfile.p99, ratio: profile.p99 / Math.max(bareProfile.p99, 1), budget: '< 100 ms', holds: profile.p99 < 100, load: profile.load },
      figure(`postgres: PUT /api/answer (200 keys), ${APPLICANTS} applicants, against the same merge behind a bare route`, saves.perSecond, 'saves/s', bareSaves.perSecond, '≥ 0.60 of the bare route', (r) => r >= 0.6, saves.load),
      figure("postgres: node CPU per save, against the bare route's", saves.nodeUs, 'µs', bareSaves.nodeUs, '≤ 2×', (r) => r <= 2, saves.load),
      figure("postgres: PostgreSQL CPU per save, against the bare route's", saves.postgresUs, 'µs', bareSaves.postgresUs, '≤ 1.2×', (r) => r <= 1.2, saves.load),
      { name: `postgres: PUT /api/answer p99, ${APPLICANTS} applicants (at load)`, value: saves.p99, unit: 'ms', floor: bareSaves.p99, ratio: saves.p99 / Math.max(bareSaves.p99, 1), budget: '< 100 ms', holds: saves.p99 < 100, load: saves.load },
    ];
  } finally {
    load.stop();
    if (floorProcess) {
      const exited = new Promise((resolve) => floorProcess!.once('exit', resolve));
      floorProcess.kill();
      await exited;
    }
    await server.stop();
    await dropAll(drops);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: `node --import tsx scripts/benchServer.ts` (the server figures only).
if (process.argv[1]?.endsWith('benchServer.ts')) {
  for (const kind of ['pglite', 'postgres'] as const) {
    for (const r of await serverBench(kind)) console.log(`${r.name} | ${r.value} ${r.unit} | ${r.floor ?? '—'} | ${r.ratio?.toFixed(2) ?? '—'} | ${r.budget} | ${r.holds ? 'yes' : 'NO'} | load ${r.load}`);
  }
}
