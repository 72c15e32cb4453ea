/**
 * The server figures of `npm run bench` (issue 14), each beside a floor measured in the same run on
 * the same machine: GET /api/profile at 50 connections against a bare Fastify route answering the
 * same JSON, and PUT /api/answer (200 keys) for 16 applicants against the raw jsonb merge over 16
 * PostgreSQL connections. Bounded: a few seconds per figure, on 127.0.0.1 only.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signedInCookie, testApp } from '../server/testing/app';
import { account, ServerProcess } from '../server/testing/serverProcess';
import { answerKeys, fieldByKey } from '../domain/catalogue';
import { sql } from 'drizzle-orm';
import { queryPrepared, rowsOf } from '../server/infra/db';
import { users } from '../server/infra/schema';
import { saveStatements } from '../server/application/answers';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  floor: number | null;
  ratio: number | null;
  budget: string;
  holds: boolean;
}

/** Each figure is measured in ROUNDS short runs, alternating with its floor; the median is kept (the machine is noisy). */
const SECONDS = 3;
const ROUNDS = 3;

/** A load of `connections` on `url` for SECONDS; each connection may carry its own headers. */
async function load(
  url: string,
  options: {
    connections: number;
    method?: 'GET' | 'PUT';
    body?: string;
    headersOf: (connection: number) => Record<string, string>;
    /** Saves as a page makes them: each sends the answers' revision its last save was told (issue 28), by cookie. */
    revisions?: Map<string, number>;
  },
) {
  let connection = 0;
  const { revisions } = options;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: SECONDS,
    method: options.method ?? 'GET',
    ...(options.body ? { body: options.body } : {}),
    setupClient: (client) => client.setHeaders(options.headersOf(connection++ % options.connections)),
    ...(revisions
      ? {
          requests: [
            {
              // The first request of a connection comes before its headers are set: it is sent without.
              setupRequest: (request: { headers?: Record<string, string> }, context: { cookie?: string }) => {
                const cookie = request.headers?.cookie ?? '';
                if (!revisions.has(cookie)) return request;
                context.cookie = cookie;
                return { ...request, headers: { ...request.headers, 'x-answers-base': `_rev=${revisions.get(cookie) ?? 0}` } };
              },
              onResponse: (_status: number, body: string, context: { cookie?: string }) => {
                const revision = (JSON.parse(body) as { revision?: number }).revision;
                if (context.cookie !== undefined && revision !== undefined) revisions.set(context.cookie, revision);
              },
            },
          ] as unknown as autocannon.Request[], // its types take the request as the library builds it; these read only its headers
        }
      : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  return { perSecond: result.requests.average, p99: result.latency.p99 };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs each measure once per round, in turn (a figure beside its floor sees the machine as the
 * floor does: a busy spell lands on both), and returns every sample of each.
 */
export async function inTurn<K extends string, T>(measures: Record<K, () => Promise<T>>, count: number): Promise<Record<K, T[]>> {
  const seen = Object.fromEntries(Object.keys(measures).map((key) => [key, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < count; round++) for (const key of Object.keys(measures) as K[]) seen[key].push(await measures[key]());
  return seen;
}

/** Each measure's median figures over ROUNDS rounds taken in turn. */
async function rounds<K extends string>(measures: Record<K, () => Promise<{ perSecond: number; p99: number }>>) {
  const seen = await inTurn(measures, ROUNDS);
  return Object.fromEntries(
    (Object.keys(seen) as K[]).map((key) => [key, { perSecond: median(seen[key].map((r) => r.perSecond)), p99: median(seen[key].map((r) => r.p99)) }]),
  ) as Record<K, { perSecond: number; p99: number }>;
}

/** 200 answers of the form's own keys, as a busy page's save sends them. */
function twoHundredAnswers(): Record<string, string> {
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

export async function serverBench(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const { address, cookies, db } = await benchTarget(kind, closers);
    const answers = JSON.stringify(twoHundredAnswers());
    for (const cookie of cookies) {
      const saved = await fetch(`${address}/api/answer`, { method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: answers });
      if (!saved.ok) throw new Error(`the bench's first save answered ${saved.status}`);
    }

    // The profile's floor: Fastify with nothing but a route sending the same profile JSON.
    const profileBody = await (await fetch(`${address}/api/profile`, { headers: { cookie: cookies[0]! } })).text();
    const bare = Fastify();
    bare.get('/api/profile', async (_request, reply) => reply.type('application/json').send(profileBody));
    const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => bare.close());
    // As a page sends them (issue 28): with the answers' revision its last save was told, so the
    // server compares nothing while no other tab saves in between.
    // Read again before each round: the floor's route moves the same rows' revision on.
    const revisions = new Map<string, number>();
    const readRevisions = async () => {
      for (const cookie of cookies) revisions.set(cookie, ((await (await fetch(`${address}/api/profile`, { headers: { cookie } })).json()) as { answers_revision: number }).answers_revision);
    };
    const pageSaves = !process.env.BENCH_SAVE_UNCHECKED;
    const saveLoad = async (url: string) => {
      if (pageSaves) await readRevisions();
      return load(url, { connections: 16, method: 'PUT', body: answers, headersOf: (i) => ({ cookie: cookies[i]!, 'content-type': 'application/json' }), ...(pageSaves ? { revisions } : {}) });
    };

    const measures = {
      bare: () => load(`${bareAddress}/api/profile`, { connections: 50, headersOf: () => ({}) }),
      profile: () => load(`${address}/api/profile`, { connections: 50, headersOf: () => ({ cookie: cookies[0]! }) }),
      saves: () => saveLoad(`${address}/api/answer`),
    };
    if (kind !== 'postgres') {
      const m = await rounds(measures);
      return [
        { name: 'pglite: GET /api/profile, 50 connections', value: Math.round(m.profile.perSecond), unit: 'req/s', floor: Math.round(m.bare.perSecond), ratio: m.profile.perSecond / m.bare.perSecond, budget: 'reported', holds: true },
        { name: 'pglite: GET /api/profile p99, 50 connections', value: m.profile.p99, unit: 'ms', floor: m.bare.p99, ratio: m.profile.p99 / Math.max(m.bare.p99, 1), budget: '< 100 ms', holds: m.profile.p99 < 100 },
        { name: 'pglite: PUT /api/answer (200 keys) p99, 16 applicants', value: m.saves.p99, unit: 'ms', floor: null, ratio: null, budget: '< 100 ms', holds: m.saves.p99 < 100 },
      ];
    }
    // The saves' floors: the raw jsonb merge on 16 connections, and the same merge behind a bare
    // Fastify route (what any HTTP server can reach here).
    const merge = await mergeTable(answers);
    closers.push(merge.drop);
    const bareSave = Fastify();
    let row = 0;
    bareSave.put('/api/answer', async (request) => {
      await merge.merge(JSON.stringify(request.body), row++ % 16);
      return { message: 'saved' };
    });
    const bareSaveAddress = await bareSave.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => bareSave.close());
    // The database's share of a save: the app's own UPDATE for the 16 applicants on the app's own
    // pool, as fast as it goes, without HTTP.
    const userIds = rowsOf<{ id: string }>(await db!.execute(sql`select id from ${users} where username like 'bench-postgres-%'`)).map((row) => row.id);
    const statement = async () => {
      let saves = 0;
      const end = Date.now() + SECONDS * 1000;
      await Promise.all(
        userIds.map(async (userId) => {
          while (Date.now() < end) {
            await queryPrepared(db!, 'save_answers', saveStatements(userId, answers, []).update);
            saves++;
          }
        }),
      );
      return { perSecond: saves / SECONDS, p99: 0 };
    };
    const m = await rounds({ ...measures, raw: merge.run, bareSave: () => saveLoad(`${bareSaveAddress}/api/answer`), statement });
    const profileRatio = m.profile.perSecond / m.bare.perSecond;
    const rawRatio = m.saves.perSecond / m.raw.perSecond;
    const httpRatio = m.saves.perSecond / m.bareSave.perSecond;
    return [
      { name: 'postgres: GET /api/profile, 50 connections', value: Math.round(m.profile.perSecond), unit: 'req/s', floor: Math.round(m.bare.perSecond), ratio: profileRatio, budget: '≥ 0.30 of the bare route', holds: profileRatio >= 0.3 },
      { name: 'postgres: GET /api/profile p99, 50 connections', value: m.profile.p99, unit: 'ms', floor: m.bare.p99, ratio: m.profile.p99 / Math.max(m.bare.p99, 1), budget: '< 100 ms', holds: m.profile.p99 < 100 },
      { name: 'postgres: PUT /api/answer (200 keys), 16 applicants, against the raw jsonb merge', value: Math.round(m.saves.perSecond), unit: 'saves/s', floor: Math.round(m.raw.perSecond), ratio: rawRatio, budget: '≥ 0.60 of the raw merge', holds: rawRatio >= 0.6 },
      { name: "postgres: the save's own statement alone (no HTTP, the app's pool), against the raw merge", value: Math.round(m.statement.perSecond), unit: 'saves/s', floor: Math.round(m.raw.perSecond), ratio: m.statement.perSecond / m.raw.perSecond, budget: "reported (the database's share of a save)", holds: true },
      { name: 'postgres: the same merge behind a bare Fastify route, against the raw merge', value: Math.round(m.bareSave.perSecond), unit: 'saves/s', floor: Math.round(m.raw.perSecond), ratio: m.bareSave.perSecond / m.raw.perSecond, budget: 'reported (the ceiling of any HTTP route here)', holds: true },
      { name: 'postgres: PUT /api/answer (200 keys), against the merge behind a bare route', value: Math.round(m.saves.perSecond), unit: 'saves/s', floor: Math.round(m.bareSave.perSecond), ratio: httpRatio, budget: '≥ 0.60 of the bare route', holds: httpRatio >= 0.6 },
      { name: 'postgres: PUT /api/answer p99, 16 applicants', value: m.saves.p99, unit: 'ms', floor: m.bareSave.p99, ratio: m.saves.p99 / Math.max(m.bareSave.p99, 1), budget: '< 100 ms', holds: m.saves.p99 < 100 },
    ];
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
  }
}

/**
 * The portal under load, with 16 signed-in applicants. PostgreSQL: the app in this process (the
 * database works on the other core). The embedded database runs inside the app's own thread, so
 * there the app is its own process, as `npm start` runs it: the load generator in the same thread
 * would take turns with it and measure its own waiting.
 */
async function benchTarget(kind: 'pglite' | 'postgres', closers: (() => Promise<unknown>)[]) {
  if (kind === 'postgres') {
    const t = await testApp({ kind, env: { RATE_LIMIT_SCALE: '100' } });
    closers.push(() => t.close());
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { address, cookies: await Promise.all(Array.from({ length: 16 }, (_, i) => signedInCookie(t, `bench-${kind}-${i}@example.com`))), db: t.database.db };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-pglite-'));
  closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const server = new ServerProcess({ DATA_DIR: dataDir });
  closers.push(() => server.stop());
  await server.start();
  const cookies: string[] = [];
  for (let i = 0; i < 16; i++) cookies.push(await account(server, `bench-${kind}-${i}@example.com`));
  return { address: server.url, cookies, db: null };
}

/**
 * A table of 16 rows on the test PostgreSQL: `run` measures merges per second of `answer || $1`
 * over 16 connections for SECONDS; `merge` is one merge, for the bare route.
 */
async function mergeTable(answers: string) {
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 16 });
  const table = `bench_merge_${process.pid}`;
  await pool.query(`create table ${table} (id int primary key, answer jsonb not null default '{}')`);
  await pool.query(`insert into ${table} (id) select generate_series(0, 15)`);
  const merge = (json: string, id: number) => pool.query({ name: 'bench_merge', text: `update ${table} set answer = answer || $1::jsonb where id = $2`, values: [json, id] });
  return {
    merge,
    run: async () => {
      let merges = 0;
      const end = Date.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: 16 }, async (_, id) => {
          while (Date.now() < end) {
            await merge(answers, id);
            merges++;
          }
        }),
      );
      return { perSecond: merges / SECONDS, p99: 0 };
    },
    drop: async () => {
      await pool.query(`drop table if exists ${table}`).catch(() => {});
      await pool.end();
    },
  };
}
