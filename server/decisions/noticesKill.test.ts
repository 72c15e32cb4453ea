import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../infra/db';
import { rowsOf } from '../infra/db';
import { postgresReason, throwawayPostgres } from '../testing/db';
import type { Mail } from '../infra/mail';
import { sendDueNotices } from './notices';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED (decision notices killed mid-batch, on PostgreSQL): ${pgReason}`);

/** Released decisions waiting for their notice. */
const RELEASED = 500;
/** Where the worker dies: right after a mail is handed over, before the next is claimed. */
const KILL_AFTER = 250;

// A real process killed with SIGKILL between two mails of a batch, on PostgreSQL (two processes
// share the database), then a worker started again: no applicant gets the notice twice (issue 30).
describe.skipIf(pgReason !== null)('decision notices after a kill -9 (issue 30)', () => {
  let url = '';
  let drop = async () => {};
  const folder = mkdtempSync(path.join(tmpdir(), 'notices-'));
  beforeAll(async () => {
    ({ url, drop } = await throwawayPostgres());
    const database = await openDatabase({ databaseUrl: url, dataDir: null });
    await database.db.execute(sql`
      insert into users (username, password_hash, confirmed_at)
      select 'released' || i || '@example.com', 'not-a-hash', now() from generate_series(1, ${RELEASED}) i`);
    await database.db.execute(sql`
      insert into decisions (user_id, decision, decided_by_email, decided_at, release_at)
      select id, 'admit', 'decider@example.edu', now(), now() - interval '1 minute' from users`);
    await database.close();
  }, 60_000);
  afterAll(async () => {
    await drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends no notice twice and loses none but the one in flight: the rest go out after the restart', async () => {
    const mailFile = path.join(folder, 'mails.txt');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/noticeWorkerChild.ts', url, mailFile, String(KILL_AFTER)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, killed) => resolve(killed)));
    expect(signal, said).toBe('SIGKILL');
    const beforeKill = readFileSync(mailFile, 'utf8').trim().split('\n');
    expect(beforeKill).toHaveLength(KILL_AFTER);

    const database = await openDatabase({ databaseUrl: url, dataDir: null });
    try {
      const afterRestart: Mail[] = [];
      await sendDueNotices({ db: database.db, publicUrl: 'http://127.0.0.1:9', log: () => {}, mailer: { kind: 'outbox', send: async (mail) => void afterRestart.push(mail) } });
      const all = [...beforeKill, ...afterRestart.map((mail) => mail.to)];
      expect(all.length - new Set(all).size, 'notices sent twice').toBe(0);
      // One notice is claimed at a time, and the kill came after the 250th was handed over: none is lost.
      expect(afterRestart).toHaveLength(RELEASED - KILL_AFTER);
      const [{ unclaimed }] = rowsOf<{ unclaimed: number }>(await database.db.execute(sql`select count(*)::int as unclaimed from decisions where notice_for is distinct from release_at`)) as [{ unclaimed: number }];
      expect(unclaimed).toBe(0);
      // Run again: nothing is due, nothing is sent.
      expect(await sendDueNotices({ db: database.db, publicUrl: 'http://127.0.0.1:9', log: () => {}, mailer: { kind: 'outbox', send: async () => expect.fail('sent again') } })).toBe(0);
    } finally {
      await database.close();
    }
  }, 120_000);
});
