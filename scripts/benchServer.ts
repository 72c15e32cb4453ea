/**
 * The server figures of `npm run bench` (issue 14), each beside a floor measured in the same run on
 * the same machine: GET /api/profile at 50 connections against a bare Fastify route answering the
 * same JSON, and PUT /api/answer (200 keys) for 16 applicants against the raw jsonb merge over 16
 * PostgreSQL connections. Bounded: a few seconds per figure, on 127.0.0.1 only.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { signedInCookie, testApp } from '../server/testing/app';
import { answerKeys, fieldByKey } from '../domain/catalogue';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  floor: number | null;
  ratio: number | null;
  budget: string;
  holds: boolean;
}

const SECONDS = 8;

/** A load of `connections` on `url` for SECONDS; each connection may carry its own headers. */
async function load(url: string, options: { connections: number; method?: 'GET' | 'PUT'; body?: string; headersOf: (connection: number) => Record<string, string> }) {
  let connection = 0;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: SECONDS,
    method: options.method ?? 'GET',
    ...(options.body ? { body: options.body } : {}),
    setupClient: (client) => client.setHeaders(options.headersOf(connection++ % options.connections)),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  return { perSecond: result.requests.average, p99: result.latency.p99 };
}

/** 200 answers of the form's own keys, as a busy page's save sends them. */
function twoHundredAnswers(): Record<string, string> {
  const keys = [...answerKeys].filter((key) => !key.endsWith('_desc') && fieldByKey.get(key)?.type !== 'document' && fieldByKey.get(key)?.type !== 'checkbox').slice(0, 200);
  return Object.fromEntries(keys.map((key, i) => [key, `answer ${i}`]));
}

export async function serverBench(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const t = await testApp({ kind, env: { RATE_LIMIT_SCALE: '100' } });
  const results: BenchResult[] = [];
  try {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookies = await Promise.all(Array.from({ length: 16 }, (_, i) => signedInCookie(t, `bench-${kind}-${i}@example.com`)));
    const answers = JSON.stringify(twoHundredAnswers());
    for (const cookie of cookies) await t.app.inject({ method: 'PUT', url: '/api/answer', headers: { cookie, 'content-type': 'application/json' }, payload: answers });

    // The floor: Fastify with nothing but a route sending the same profile JSON.
    const profileBody = (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: cookies[0]! } })).body;
    const bare = Fastify();
    bare.get('/api/profile', async (_request, reply) => reply.type('application/json').send(profileBody));
    const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
    const floor = await load(`${bareAddress}/api/profile`, { connections: 50, headersOf: () => ({}) });
    await bare.close();
    const profile = await load(`${address}/api/profile`, { connections: 50, headersOf: () => ({ cookie: cookies[0]! }) });
    const ratio = profile.perSecond / floor.perSecond;
    results.push(
      { name: `${kind}: GET /api/profile, 50 connections`, value: Math.round(profile.perSecond), unit: 'req/s', floor: Math.round(floor.perSecond), ratio, budget: kind === 'postgres' ? '≥ 0.30 of the bare route' : 'reported', holds: kind === 'postgres' ? ratio >= 0.3 : true },
      { name: `${kind}: GET /api/profile p99, 50 connections`, value: profile.p99, unit: 'ms', floor: floor.p99, ratio: profile.p99 / Math.max(floor.p99, 1), budget: '< 100 ms', holds: profile.p99 < 100 },
    );

    const saves = await load(`${address}/api/answer`, {
      connections: 16,
      method: 'PUT',
      body: answers,
      headersOf: (i) => ({ cookie: cookies[i]!, 'content-type': 'application/json' }),
    });
    results.push({ name: `${kind}: PUT /api/answer (200 keys), 16 applicants`, value: Math.round(saves.perSecond), unit: 'saves/s', floor: null, ratio: null, budget: 'see the raw merge', holds: true });
    results.push({ name: `${kind}: PUT /api/answer p99, 16 applicants`, value: saves.p99, unit: 'ms', floor: null, ratio: null, budget: '< 100 ms', holds: saves.p99 < 100 });

    if (kind === 'postgres') {
      const raw = await rawMerge(answers);
      const saveRatio = saves.perSecond / raw;
      results.push({ name: 'postgres: saves against the raw jsonb merge, 16 connections', value: Math.round(saves.perSecond), unit: 'saves/s', floor: Math.round(raw), ratio: saveRatio, budget: '≥ 0.60 of the raw merge', holds: saveRatio >= 0.6 });
    }
  } finally {
    await t.close();
  }
  return results;
}

/** Merges per second of `answer || $1` on a table of 16 rows over 16 connections, for SECONDS. */
async function rawMerge(answers: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 16 });
  const table = `bench_merge_${process.pid}`;
  try {
    await pool.query(`create table ${table} (id int primary key, answer jsonb not null default '{}')`);
    await pool.query(`insert into ${table} (id) select generate_series(0, 15)`);
    let merges = 0;
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 16 }, async (_, id) => {
        while (Date.now() < end) {
          await pool.query(`update ${table} set answer = answer || $1::jsonb where id = $2`, [answers, id]);
          merges++;
        }
      }),
    );
    return merges / SECONDS;
  } finally {
    await pool.query(`drop table if exists ${table}`).catch(() => {});
    await pool.end();
  }
}
