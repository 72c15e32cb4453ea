/**
 * The fault suite: the real server as its own process, killed with SIGKILL in the middle of work
 * and started again on the same data. Every save the server acknowledged is still there, on the
 * embedded database and on PostgreSQL; a conversion and a PDF copy cut off mid-way finish after
 * the restart; no browser outlives the server. Bounded: in `npm test` one kill, on the embedded
 * database, landing mid-save, mid-conversion and mid-copy at once, a few hundred saves; `npm run
 * test:proof` (PROOF=full) three kills mid-stream on each database as well.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendantsOf } from './infra/browser';
import { postgresReason } from './testing/db';
import { account, alive, dropAll, freshPostgres, ServerProcess, until } from './testing/serverProcess';
import { freshDataDir } from './testing/images';
import { fullProof } from './testing/proof';
import { makeDocx } from './testing/files';
import { completeApplication } from '../domain/catalogue/completeApplication';

const pgReason = await postgresReason();
if (pgReason && fullProof) console.warn(`SKIPPED (fault suite on PostgreSQL): ${pgReason}`);

/** Kills mid-stream on each database, in `npm run test:proof`. */
const KILLS = 3;
const CLIENTS = 4;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const servers: ServerProcess[] = [];
const databases: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await dropAll(databases);
});

/** The server's browser processes (it readies one at its start: browser.ts). */
const browserOf = (server: ServerProcess) => descendantsOf(server.child!.pid!).filter((child) => /chrom/.test(readFileSync(`/proc/${child}/cmdline`, 'utf8')));

/** Holds processes still (SIGSTOP) or lets them go on (SIGCONT); one already gone is skipped. */
function signalEach(pids: readonly number[], signal: 'SIGSTOP' | 'SIGCONT') {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Ended already.
    }
  }
}

/**
 * Kills the server and waits until every process it had started has ended too; `held` (held
 * still) are let go first, to find their server gone and end by themselves.
 */
async function killAndBury(server: ServerProcess, held: readonly number[] = []) {
  const orphans = server.kill();
  signalEach(held, 'SIGCONT');
  await until('every process the server had started to end', async () => (orphans.every((child) => !alive(child)) ? true : undefined), 30);
}

/**
 * `CLIENTS` accounts saving answers one after another, each counting what the server acknowledged.
 * `stop()` ends them (a save cut off by a kill is not acknowledged); `check()` reads what the
 * server holds after a restart: every acknowledged save is there (the one in flight may be too).
 */
async function saveStreams(server: ServerProcess, label: string) {
  const cookies = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => account(server, `${label}-${i}-${Date.now()}@example.com`)));
  const acknowledged = new Array<number>(CLIENTS).fill(0);
  let total = 0;
  let running = false;
  let streams: Promise<void>[] = [];
  return {
    get total() {
      return total;
    },
    start() {
      running = true;
      streams = cookies.map(async (cookie, client) => {
        for (let n = acknowledged[client]! + 1; running; n++) {
          const response = await server.call('PUT', '/api/answer', cookie, { first_name: `save-${n}` }).catch(() => null);
          if (!response) return; // the server died under this request: not acknowledged
          if (response.status !== 200) throw new Error(`save answered ${response.status}: ${await response.text()}`);
          acknowledged[client] = n;
          total++;
        }
      });
    },
    async stop() {
      running = false;
      await Promise.all(streams);
    },
    async check(after: string) {
      for (const [client, cookie] of cookies.entries()) {
        const profile = (await (await server.call('GET', '/api/profile', cookie)).json()) as { answer: { first_name?: string } };
        const stored = Number(profile.answer.first_name?.replace('save-', '') ?? 0);
        // The save in flight at the kill may or may not have landed; none acknowledged is missing.
        expect(stored, `client ${client} after ${after}`).toBeGreaterThanOrEqual(acknowledged[client]!);
        expect(stored).toBeLessThanOrEqual(acknowledged[client]! + 1);
        acknowledged[client] = stored;
      }
    },
  };
}

/** Uploads a short DOCX and starts its conversion (held at work by the browser held still); returns a reader of its status. */
async function longConversion(server: ServerProcess) {
  const cookie = await account(server, `convert-${Date.now()}@example.com`);
  const presigned = (await (await server.call('POST', '/api/presigned-url', cookie, { answer_key: 'additional_info_doc', content_type: DOCX })).json()) as {
    url: string;
    fields: Record<string, string>;
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(presigned.fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(await makeDocx('A paragraph of the essay, long enough to wrap over a line or two.', 40))], { type: DOCX }), 'essay.docx');
  expect((await fetch(`${server.url}/upload`, { method: 'POST', body: form })).status).toBe(204);
  expect((await server.call('POST', '/api/pdf/document-answer/additional_info_doc', cookie, { file_key: presigned.fields.key, file_name: 'essay.docx' })).status).toBe(202);
  return async () => ((await (await server.call('GET', '/api/pdf/document-answer/additional_info_doc', cookie)).json()) as { status: string }).status;
}

/** Signs up, fills a complete application and submits it; returns the Cookie header and a reader of the copy's status. */
async function submitted(server: ServerProcess, label: string) {
  const cookie = await account(server, `${label}-${Date.now()}@example.com`);
  expect((await server.call('PUT', '/api/answer', cookie, completeApplication)).status).toBe(200);
  expect((await server.call('POST', '/api/submit', cookie, {})).status).toBe(200);
  const copy = async () => (await (await server.call('GET', '/api/pdf', cookie)).json()) as { status: string; message?: string };
  return { cookie, copy };
}

// The kills side by side: each on a server of its own, mostly waiting on it (its start, its
// browser, its restart).
describe.concurrent('kill -9', () => {
  it('on the embedded database, mid-save, mid-conversion and mid-copy: no acknowledged save lost, the conversion and the copy made after the restart, no browser left', async () => {
    const server = new ServerProcess({ DATA_DIR: await freshDataDir() });
    servers.push(server);
    await server.start();
    const saves = await saveStreams(server, 'stages');
    saves.start();
    await until('saves to be acknowledged', async () => (saves.total >= 60 ? true : undefined));
    // A conversion and a copy, both at work when the kill lands: the browser the server readied
    // at its start is held still, so both wait on it while the saves go on.
    const browser = browserOf(server);
    expect(browser.length).toBeGreaterThan(0);
    signalEach(browser, 'SIGSTOP');
    const conversion = await longConversion(server);
    const { cookie, copy } = await submitted(server, 'copy');
    await until('the copy to be at work', async () => ((await copy()).status === 'IN_PROGRESS' ? true : undefined));
    expect(await conversion()).toBe('in_progress');
    await killAndBury(server, browser);
    await saves.stop();

    await server.start();
    await saves.check('the kill');
    expect(await until('the conversion to finish after the restart', async () => ((await conversion()) === 'completed' ? 'completed' : undefined))).toBe('completed');
    expect(await until('the copy to be made after the restart', async () => ((await copy()).status === 'COMPLETED' ? 'COMPLETED' : undefined))).toBe('COMPLETED');
    const download = await server.call('GET', '/api/pdf/download', cookie);
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    console.log(`fault suite (the embedded database): ${saves.total} acknowledged saves, a conversion and a copy over one kill -9, 0 lost`);
  }, 300_000);

  // Saves alone, kill after kill, on each database: in \`npm run test:proof\` (the suite's one kill in
  // \`npm test\` is the test above, decision 0040).
  const streamOn: [name: string, skipReason: string | null, env: () => Promise<Record<string, string>>][] = fullProof
    ? [
        ['the embedded database', null, async () => ({ DATA_DIR: await freshDataDir() })],
        ['PostgreSQL', pgReason, async () => ({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'portal-faults-')), DATABASE_URL: await freshPostgres(databases) })],
      ]
    : [];
  describe.each(streamOn)('on %s', (name, skipReason, databaseEnv) => {
    it.skipIf(skipReason !== null)(`loses no acknowledged save across ${KILLS} kills mid-stream`, async () => {
      const server = new ServerProcess(await databaseEnv());
      servers.push(server);
      await server.start();
      const saves = await saveStreams(server, 'stream');
      for (let kill = 0; kill < KILLS; kill++) {
        saves.start();
        // Kill after a varying number of acknowledged saves, while every client has one in flight.
        const target = saves.total + 60 + Math.floor(Math.random() * 120);
        await until('saves to be acknowledged', async () => (saves.total >= target ? true : undefined));
        server.kill();
        await saves.stop();
        await server.start();
        await saves.check(`kill ${kill + 1}`);
      }
      console.log(`fault suite (${name}): ${saves.total} acknowledged saves over ${KILLS} kill -9s, 0 lost`);
    }, 600_000);
  });
});
