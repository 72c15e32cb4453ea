/**
 * Deadline night, bounded (issue 14): APPLICANTS applicants at once do the whole API journey on
 * the real server (its own process, PostgreSQL when it answers, else the embedded database): sign
 * up, read the code from the dev outbox, confirm, sign in, twenty saves, submit, wait for the PDF
 * copy. Prints applicants per minute completed, errors, each call's p50/p99 and where the time went.
 * `npm run bench` runs it; alone: `node --import tsx scripts/deadlineNight.ts [applicants]`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { completeApplication } from '../domain/catalogue/completeApplication';
import { postgresReason } from '../server/testing/db';
import { dropAll, freshPostgres, ServerProcess, until } from '../server/testing/serverProcess';
import { descendantsOf } from '../server/infra/browser';
import { cpuOf, loadAverage, postgresCpu } from './benchServer';

/** CPU seconds of the app's process (its reaped children too) and, apart, of its live descendants (Chromium). */
function treeCpu(pid: number) {
  return { node: cpuOf(pid), browser: descendantsOf(pid).reduce((sum, child) => sum + cpuOf(child), 0) };
}

const PASSWORD = 'Correct-Horse-42!';

/** What the app answered a call: an applicant's call, not an answer of the form. */
interface Reply {
  status: number;
  setCookie: string[];
  text: string;
}

/**
 * The applicants' calls, over kept-alive connections with node:http. The load generator shares
 * the box with the app it measures: fetch (undici, WHATWG streams) took it 1.2–1.4 ms of CPU a
 * call against 0.3–0.5 ms for this, two thirds of a core while the 30 applicants saved, and each
 * save's time counted the generator's wait for a core as well as the app's answer.
 */
function caller(base: string) {
  const agent = new http.Agent({ keepAlive: true });
  return (method: string, url: string, cookie: string, body?: unknown) =>
    new Promise<Reply>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { cookie, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }) };
      const request = http.request(base + url, { method, agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode!, setCookie: response.headers['set-cookie'] ?? [], text: Buffer.concat(chunks).toString('utf8') }));
      });
      request.on('error', reject);
      request.end(payload);
    });
}

const SAVES = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function deadlineNight(applicants = 40) {
  if (!existsSync('dist/index.html')) await build({ logLevel: 'warn' });
  const drops: (() => Promise<void>)[] = [];
  const reason = await postgresReason();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-deadline-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(reason ? {} : { DATABASE_URL: await freshPostgres(drops) }) };
  const server = new ServerProcess(env, path.resolve('dist'));
  const times = new Map<string, number[]>();
  const errors: string[] = [];
  try {
    await server.start();
    const call = caller(server.url);
    const timed = async (name: string, run: () => Promise<Reply>, expected = 200) => {
      const start = performance.now();
      const response = await run();
      const ms = performance.now() - start;
      (times.get(name) ?? times.set(name, []).get(name)!).push(ms);
      if (response.status !== expected) throw new Error(`${name} answered ${response.status}: ${response.text.slice(0, 200)}`);
      return response;
    };
    // The saves an applicant makes while filling the form: the complete application in twenty parts.
    const entries = Object.entries(completeApplication);
    const parts = Array.from({ length: SAVES }, (_, i) => Object.fromEntries(entries.filter((_, j) => j % SAVES === i)));

    const journey = async (i: number) => {
      const username = `deadline-${i}@example.com`;
      await timed('POST /public/signup', () => call('POST', '/public/signup', '', { username, password: PASSWORD }));
      const code = await until('the confirmation mail', async () => {
        const mails = JSON.parse((await call('GET', `/dev/outbox?to=${encodeURIComponent(username)}`, '')).text) as { text: string }[];
        return /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
      });
      await timed('POST /public/confirm', () => call('POST', '/public/confirm', '', { username, code }));
      const login = await timed('POST /public/login', () => call('POST', '/public/login', '', { username, password: PASSWORD }));
      const cookie = login.setCookie.map((c) => c.split(';')[0]).join('; ');
      await timed('GET /api/profile', () => call('GET', '/api/profile', cookie));
      for (const part of parts) await timed('PUT /api/answer', () => call('PUT', '/api/answer', cookie, part));
      await timed('POST /api/submit', () => call('POST', '/api/submit', cookie));
      const submitted = performance.now();
      // Asked once a second, as the completion page does; at most five minutes.
      for (let asked = 0; ; asked++) {
        const copy = JSON.parse((await timed('GET /api/pdf', () => call('GET', '/api/pdf', cookie))).text) as { status: string };
        if (copy.status === 'COMPLETED') break;
        if (copy.status === 'FAILED' || asked > 300) throw new Error(`the PDF copy is ${copy.status}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      (times.get('submit → PDF copy ready') ?? times.set('submit → PDF copy ready', []).get('submit → PDF copy ready')!).push(performance.now() - submitted);
    };

    const appPid = server.child!.pid!;
    const cpuBefore = { app: treeCpu(appPid), postgres: env.DATABASE_URL ? postgresCpu() : 0 };
    const load = loadAverage();
    const start = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: applicants }, (_, i) => journey(i)));
    const minutes = (performance.now() - start) / 60_000;
    const cpuAfter = treeCpu(appPid);
    const cpu = { app: { node: cpuAfter.node - cpuBefore.app.node, browser: cpuAfter.browser - cpuBefore.app.browser }, postgres: env.DATABASE_URL ? postgresCpu() - cpuBefore.postgres : 0 };
    for (const outcome of outcomes) if (outcome.status === 'rejected') errors.push(String(outcome.reason));
    const completed = outcomes.length - errors.length;

    console.log(`\ndeadline night (${reason ? 'PGlite' : 'PostgreSQL'}, one app process with its worker): ${applicants} applicants at once`);
    console.log(`${completed} completed the whole journey in ${(minutes * 60).toFixed(1)} s: ${(completed / minutes).toFixed(0)} applicants a minute, ${errors.length} errors`);
    for (const error of errors.slice(0, 5)) console.log(`  error: ${error}`);
    const total = [...times].filter(([name]) => !name.includes('→')).flatMap(([, list]) => list).reduce((a, b) => a + b, 0);
    console.log('call | n | p50 ms | p99 ms | share of the time waited');
    for (const [name, list] of times) {
      const sorted = [...list].sort((a, b) => a - b);
      const sum = list.reduce((a, b) => a + b, 0);
      console.log(`${name} | ${list.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ${name.includes('→') ? '—' : `${((sum / total) * 100).toFixed(0)}%`}`);
    }
    const p99Of = (name: string) => percentile([...(times.get(name) ?? [])].sort((a, b) => a - b), 99);
    const perJourney = (seconds: number) => (seconds * 1000) / Math.max(completed, 1);
    console.log(
      `CPU per journey: the app process ${perJourney(cpu.app.node).toFixed(0)} ms, its Chromium ${perJourney(cpu.app.browser).toFixed(0)} ms, PostgreSQL ${perJourney(cpu.postgres).toFixed(0)} ms (load average ${load} before)`,
    );
    return {
      applicants,
      completed,
      errors: errors.length,
      perMinute: completed / minutes,
      copyP99: p99Of('submit → PDF copy ready'),
      saveP99: p99Of('PUT /api/answer'),
      load,
      cpuPerJourneyMs: { node: perJourney(cpu.app.node), browser: perJourney(cpu.app.browser), postgres: perJourney(cpu.postgres) },
    };
  } finally {
    await server.stop();
    await dropAll(drops);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('deadlineNight.ts')) await deadlineNight(Number(process.argv[2] ?? 40));
