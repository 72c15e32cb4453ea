/**
 * Applicants' saves beside the office's bulk work (issue 49, item 15), on PostgreSQL, with the
 * processes production has: the app (`server/main.ts`, IN_PROCESS_WORKER=false), one worker
 * (`server/worker.ts`) and the load generator, all on this one machine. APPLICANTS save at a steady
 * SAVES_PER_SECOND (a fifth of what the app answers flat out here); in turn, the same saves alone
 * and with the office beside them: READERS staff reading the list and searching at a person's
 * pace, an export of every application (the worker) and a release of RELEASED_PER_ROUND decisions
 * (the app). Holds when the saves' p99 beside the office is at most twice their p99 alone, each
 * the median of ROUNDS rounds taken in turn. The bulk work is paced (server/infra/pace.ts) and the
 * worker runs at a lower CPU priority (server/worker.ts).
 *
 * To tell which part costs the saves most: BENCH_PARTS=reads|export|release (comma-separated;
 * all by default), BENCH_IN_PROCESS=true (the worker in the app's process, as on one machine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { starterTemplate } from '../domain/exportTemplates';
import { openDatabase, rowsOf, type Db } from '../server/infra/db';
import { exportTemplates } from '../server/infra/schema';
import { account, dropAll, freshPostgres, ServerProcess, until } from '../server/testing/serverProcess';
import { staffOnServer } from '../server/testing/staff';
import { inTurn, loadAverage, loadGenerator, median, twoHundredAnswers, type BenchResult } from './benchServer';

const APPLICANTS = 25;
const SAVES_PER_SECOND = 300;
const SECONDS = 8;
const ROUNDS = 3;
const APPLICATIONS = 50_000;
const RELEASED_PER_ROUND = 3_000;
/** Staff members reading the list and searching, each a call, a pause, the next. */
const READERS = 3;
const READER_PAUSE_MS = 1000;
const SESSION_SECRET = 'bench-beside-the-office-session-secret-0123456789';
/** The median, or NaN when a part was left out. */
const mid = (values: number[]) => (values.length ? median(values) : Number.NaN);

/** APPLICATIONS more applications, half of them submitted, each submitted one with a decision waiting for its release. */
async function seed(db: Db) {
  await db.execute(sql`
    insert into users (username, password_hash, confirmed_at, created_at)
    select 'office-' || i || '@example.com', 'not-a-hash', now(), now() from generate_series(1, ${APPLICATIONS}) i`);
  await db.execute(sql`
    insert into applications (user_id, answer, status, submitted_at, last_page)
    select id, jsonb_build_object('first_name', 'Ana', 'last_name', 'Núñez' || n, 'entry_term', 'Fall 2027', 'birth_date', '2008-04-' || (10 + n % 20), 'hs_name', 'East High School'),
      (array['submitted','started'])[1 + n % 2], case when n % 2 = 0 then now() - n * interval '1 second' end, '/about'
    from (select id, row_number() over (order by username) as n from users where username like 'office-%') u`);
  await db.execute(sql`
    insert into decisions (user_id, decision, decided_by_email, decided_at)
    select user_id, 'admit', 'bench@example.edu', now() from applications where submitted_at is not null`);
  await db.execute(sql`vacuum (analyze)`);
}

export async function besideTheOfficeBench(): Promise<BenchResult[]> {
  const drops: (() => Promise<void>)[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-beside-'));
  const load = await loadGenerator();
  const databaseUrl = await freshPostgres(drops);
  const inProcess = process.env.BENCH_IN_PROCESS === 'true';
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SESSION_SECRET, IN_PROCESS_WORKER: String(inProcess) };
  const server = new ServerProcess(env);
  const worker = new ServerProcess(env, undefined, 'server/worker.ts');
  const database = await openDatabase({ databaseUrl, dataDir: null, poolSize: 2 });
  try {
    await server.start();
    if (!inProcess) await worker.start();
    const db = database.db;
    const cookies: string[] = [];
    for (let i = 0; i < APPLICANTS; i++) cookies.push(await account(server, `beside-${i}@example.com`));
    const answers = JSON.stringify(twoHundredAnswers());
    for (const cookie of cookies) {
      const saved = await fetch(`${server.url}/api/answer`, { method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: answers });
      if (!saved.ok) throw new Error(`the bench's first save answered ${saved.status}`);
    }
    await seed(db);
    const staff = await staffOnServer(server, db, { email: 'bench-admin@example.edu', role: 'admin', sessionSecret: SESSION_SECRET });
    const [template] = await db
      .insert(exportTemplates)
      .values({ name: 'Bench SIS', definition: { ...starterTemplate('Bench SIS'), filter: { stages: ['submitted', 'in_progress'], terms: [], decisions: [], checklist: 'any' } }, updatedByEmail: 'bench@example.edu', updatedAt: new Date() })
      .returning({ id: exportTemplates.id });
    const toRelease = rowsOf<{ user_id: string }>(await db.execute(sql`select user_id from decisions order by user_id`)).map((row) => row.user_id);

    const saves = async () => {
      const revisions = Object.fromEntries(
        await Promise.all(cookies.map(async (cookie) => [cookie, ((await (await server.call('GET', '/api/profile', cookie)).json()) as { answers_revision: number }).answers_revision] as const)),
      );
      return load.run({
        url: `${server.url}/api/answer`,
        connections: APPLICANTS,
        overallRate: SAVES_PER_SECOND,
        seconds: SECONDS,
        method: 'PUT',
        body: answers,
        headers: cookies.map((cookie) => ({ cookie, 'content-type': 'application/json' })),
        revisions,
      });
    };
    const staffGet = async (url: string) => {
      const response = await server.call('GET', url, staff);
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      await response.arrayBuffer();
    };
    // Every part unless BENCH_PARTS names some (to tell which one costs the saves most).
    const parts = new Set((process.env.BENCH_PARTS ?? 'reads,export,release').split(','));
    const office = { export: [] as number[], release: [] as number[], reads: [] as number[] };
    let round = 0;
    const seen = await inTurn(
      {
        alone: async () => ({ ...(await saves()), load: loadAverage() }),
        beside: async () => {
          const load = loadAverage();
          const batch = toRelease.slice(round * RELEASED_PER_ROUND, ++round * RELEASED_PER_ROUND);
          let going = true;
          const reading = Array.from({ length: parts.has('reads') ? READERS : 0 }, async (_, reader) => {
            const urls = ['/staff/api/applications', `/staff/api/applications?q=${encodeURIComponent(`núñez${reader}1`)}`, '/staff/api/applications?status=submitted&sort=submitted_asc', '/staff/api/dashboard'];
            for (let call = 0; going; call++) {
              const start = performance.now();
              await staffGet(urls[call % urls.length]!);
              office.reads.push(performance.now() - start);
              await new Promise((resolve) => setTimeout(resolve, READER_PAUSE_MS));
            }
          });
          const measured = saves();
          // The bulk work starts a second in, and is under way for most of the measure.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          let run: number | null = null;
          if (parts.has('export')) {
            const started = await server.call('POST', `/staff/api/export-templates/${template!.id}/runs`, staff, { mode: 'all' });
            if (started.status !== 202) throw new Error(`the export answered ${started.status}: ${await started.text()}`);
            run = ((await started.json()) as { id: number }).id;
          }
          if (parts.has('release')) {
            const releaseStart = performance.now();
            const released = await server.call('POST', '/staff/api/decisions/release', staff, { application_ids: batch });
            if (released.status !== 202) throw new Error(`the release answered ${released.status}: ${await released.text()}`);
            office.release.push(performance.now() - releaseStart);
          }
          const result = await measured;
          going = false;
          await Promise.all(reading);
          if (run !== null) {
            // Its length as the run's own record has it (started when the worker took it up).
            const ended = await until(
              'the export run to end',
              async () => {
                const runs = ((await (await server.call('GET', '/staff/api/export-runs', staff)).json()) as { runs: { id: number; status: string; message: string | null; started_at: string; finished_at: string | null }[] }).runs;
                const status = runs.find((candidate) => candidate.id === run);
                if (status?.status === 'failed') throw new Error(`the export failed: ${status.message}`);
                return status?.status === 'succeeded' ? status : undefined;
              },
              300,
            );
            office.export.push(new Date(ended.finished_at!).getTime() - new Date(ended.started_at).getTime());
          }
          return { ...result, load };
        },
      },
      ROUNDS,
    );
    const alone = median(seen.alone.map((s) => s.p99));
    const beside = median(seen.beside.map((s) => s.p99));
    const ratio = beside / Math.max(alone, 1);
    console.log(
      `postgres: saves at ${SAVES_PER_SECOND}/s (kept ${seen.alone.map((s) => s.perSecond.toFixed(0)).join("/")} alone, ${seen.beside.map((s) => s.perSecond.toFixed(0)).join("/")} beside), p50/p90/p99 alone ${seen.alone.map((s) => `${s.p50}/${s.p90}/${s.p99}`).join('/')} ms, beside the office ${seen.beside.map((s) => `${s.p50}/${s.p90}/${s.p99}`).join('/')} ms; ` +
        `export of ${APPLICATIONS.toLocaleString('en-US')} ${office.export.map((ms) => (ms / 1000).toFixed(1)).join('/')} s, release of ${RELEASED_PER_ROUND.toLocaleString('en-US')} ${office.release.map((ms) => ms.toFixed(0)).join('/')} ms, ` +
        `${office.reads.length} staff reads (p50 ${mid(office.reads).toFixed(0)} ms, slowest ${Math.max(0, ...office.reads).toFixed(0)} ms)`,
    );
    const perSecond = median(seen.beside.map((s) => s.perSecond));
    return [
      {
        name: `postgres: applicants' save p99 at ${SAVES_PER_SECOND}/s while staff read, search, export ${APPLICATIONS.toLocaleString('en-US')} applications and release ${RELEASED_PER_ROUND.toLocaleString('en-US')} decisions, against the saves alone (${perSecond.toFixed(0)} saves/s kept)`,
        value: beside,
        unit: 'ms',
        floor: alone,
        ratio,
        budget: '≤ 2× alone',
        holds: ratio <= 2 && perSecond >= SAVES_PER_SECOND * 0.95,
        load: median(seen.beside.map((s) => s.load)),
      },
      {
        name: `postgres: export of ${APPLICATIONS.toLocaleString('en-US')} applications beside the saves, paced (worker)`,
        value: Math.round(mid(office.export)),
        unit: 'ms',
        floor: null,
        ratio: null,
        budget: '≤ 60,000 ms',
        holds: office.export.length === ROUNDS && mid(office.export) <= 60_000,
      },
      {
        name: `postgres: release of ${RELEASED_PER_ROUND.toLocaleString('en-US')} decisions beside the saves, paced (app)`,
        value: Math.round(mid(office.release)),
        unit: 'ms',
        floor: null,
        ratio: null,
        budget: '≤ 10,000 ms',
        holds: office.release.length === ROUNDS && mid(office.release) <= 10_000,
      },
    ];
  } finally {
    load.stop();
    await worker.stop();
    await server.stop();
    await database.close();
    await dropAll(drops);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: `node --import tsx scripts/benchBeside.ts`.
if (process.argv[1]?.endsWith('benchBeside.ts')) {
  for (const r of await besideTheOfficeBench()) console.log(`${r.name} | ${r.value} ${r.unit} | ${r.floor ?? '—'} | ${r.ratio?.toFixed(2) ?? '—'} | ${r.budget} | ${r.holds ? 'yes' : 'NO'} | load ${r.load ?? '—'}`);
}
