import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresReason, throwawayPostgres } from '../testing/db';
import { pgliteOptions } from '../testing/images';
import { processStat } from './browser';
import { defaultPoolSize, openDatabase, rowsOf, runStatement, statement, type Database } from './db';
import { users } from './schema';

/** A database with nothing in it yet: PGlite in memory, or a new PostgreSQL database. */
async function emptyDatabase(kind: 'pglite' | 'postgres'): Promise<Database & { dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    return { ...database, dispose: () => database.close() };
  }
  const { url, drop } = await throwawayPostgres({ empty: true });
  const database = await openDatabase({ databaseUrl: url, dataDir: null });
  return { ...database, dispose: async () => (await database.close(), await drop()) };
}

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('migrations on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    afterAll(async () => database?.dispose());

    it('create the schema, and running them again changes nothing', async () => {
      // An empty database, not the suites' migrated image: these are the migrations' own test.
      database = await emptyDatabase(kind);
      await database.migrate();
      await database.migrate();
      await database.db.insert(users).values({ username: 'applicant@example.com', passwordHash: 'x' });
      const rows = await database.db.select().from(users);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.createdAt).toBeInstanceOf(Date);
      expect(await database.ping()).toBe(true);
    }, 120_000); // initdb and every migration: real work, tens of seconds on a busy machine

    it('keep user names unique', async () => {
      await expect(
        database.db.insert(users).values({ username: 'applicant@example.com', passwordHash: 'y' }),
      ).rejects.toThrow();
    });
  });
});

describe.skipIf(pgReason !== null)('migrations on PostgreSQL from several processes at once', () => {
  it('run once: instances starting together on a release wait for each other instead of racing', async () => {
    const { url, drop } = await throwawayPostgres({ empty: true });
    const instances = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url, dataDir: null })));
    try {
      await Promise.all(instances.map((instance) => instance.migrate()));
      const applied = await instances[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const files = rowsOf<{ n: number }>(applied)[0]!.n;
      expect(files).toBeGreaterThan(0);
      // Each migration recorded once, and the schema is usable from every instance.
      const distinct = await instances[0]!.db.execute(sql`select count(distinct hash)::int as n from drizzle.__drizzle_migrations`);
      expect(rowsOf<{ n: number }>(distinct)[0]!.n).toBe(files);
      await instances[1]!.db.insert(users).values({ username: 'raced@example.com', passwordHash: 'x' });
      expect(await instances[3]!.db.select().from(users)).toHaveLength(1);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await drop();
    }
  });
});

describe('defaultPoolSize: a process\'s connections unless DATABASE_POOL_SIZE says', () => {
  it.each([
    [1, 2],
    [2, 4],
    [4, 8],
    [16, 10],
  ])('%i cores: %i', (cores, size) => {
    expect(defaultPoolSize(cores)).toBe(size);
  });
});

describe.skipIf(pgReason !== null)('the PostgreSQL pool', () => {
  it('holds as many connections as it is given, and no more', async () => {
    const { url, drop } = await throwawayPostgres();
    const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 2 });
    try {
      const busy = () => database.executeSql("select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend'");
      // Five queries at once on a pool of two: never more than two connections (the counting one included).
      const counts = await Promise.all(Array.from({ length: 5 }, async () => ((await busy()).rows[0] as { n: number }).n));
      expect(Math.max(...counts)).toBeLessThanOrEqual(2);
      expect(Math.max(...counts)).toBeGreaterThanOrEqual(1);
    } finally {
      await database.close();
      await drop();
    }
  });
});

/** Minor page faults of a process so far (Linux); null where it cannot be read. */
function minorFaults(pid: number): number | null {
  const fields = processStat(pid);
  return fields ? Number(fields[7]) : null;
}

/** The PostgreSQL server's processes are visible here (the test machine runs it) or why not. */
async function serverProcessReason(): Promise<string | null> {
  if (pgReason) return pgReason;
  const { url, drop } = await throwawayPostgres();
  const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
  try {
    const { pid } = (await database.executeSql('select pg_backend_pid() as pid')).rows[0] as { pid: number };
    return minorFaults(pid) === null ? `PostgreSQL's processes are not visible in this machine's /proc; skipping the test of their memory.` : null;
  } finally {
    await database.close();
    await drop();
  }
}
const processReason = await serverProcessReason();
if (processReason && !pgReason) console.warn(`SKIPPED: ${processReason}`);

describe.skipIf(processReason !== null)('the memory of a PostgreSQL connection', () => {
  it('is kept between queries: working memory past 128 kB is not handed back and faulted in again every time', async () => {
    const { url, drop } = await throwawayPostgres();
    const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
    try {
      const { pid } = (await database.executeSql('select pg_backend_pid() as pid')).rows[0] as { pid: number };
      // 256 kB of text per query: without KEEP_FREED_MEMORY_SQL glibc maps it afresh each time
      // (64 page faults a query) and unmaps it after; with it, the pages stay in the heap.
      const query = "select length(repeat('x', 262144)) as n";
      await database.executeSql(query);
      const before = minorFaults(pid)!;
      for (let i = 0; i < 50; i++) await database.executeSql(query);
      expect(minorFaults(pid)! - before).toBeLessThan(200);
    } finally {
      await database.close();
      await drop();
    }
  });
});

describe.skipIf(pgReason !== null)('notices on PostgreSQL', () => {
  it('every channel on one listening connection, heard again after the connection is lost, closed when nobody listens', async () => {
    const { url, drop } = await throwawayPostgres();
    const database = await openDatabase({ databaseUrl: url, dataDir: null });
    const heard: string[] = [];
    const states: string[] = [];
    const listeners = () =>
      database.executeSql("select pid from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'").then((r) => r.rows as { pid: number }[]);
    const notify = (channel: string, payload: string) => database.executeSql('select pg_notify($1, $2)', [channel, payload]);
    const until = async (what: () => boolean | Promise<boolean>) => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && !(await what()); ) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await what()).toBe(true);
    };
    try {
      const stopA = await database.listen('chan_a', (p) => heard.push(`a:${p}`), (on) => states.push(`a:${on}`));
      const stopB = await database.listen('chan_b', (p) => heard.push(`b:${p}`), (on) => states.push(`b:${on}`));
      expect(states).toEqual(['a:true', 'b:true']);
      expect(await listeners()).toHaveLength(1);
      await notify('chan_a', '1');
      await notify('chan_b', '2');
      await until(() => heard.length === 2);
      expect(heard).toEqual(['a:1', 'b:2']);

      // The connection is cut (a restart, an admin): both hear they may miss notices, then are heard again.
      const [listener] = await listeners();
      await database.executeSql('select pg_terminate_backend($1)', [listener!.pid]);
      await until(() => states.includes('a:false') && states.includes('b:false'));
      await until(() => states.filter((s) => s.endsWith('true')).length === 4);
      await until(async () => (await listeners()).length === 1);
      await notify('chan_b', '3');
      await until(() => heard.includes('b:3'));

      await stopA();
      await notify('chan_a', 'unheard');
      await notify('chan_b', '4');
      await until(() => heard.includes('b:4'));
      expect(heard).not.toContain('a:unheard');
      await stopB();
      await until(async () => (await listeners()).length === 0);
    } finally {
      await database.close();
      await drop();
    }
  });
});

describe('PGlite on disk', () => {
  // A first start as an operator's: initdb and every migration written to disk, then opened again.
  // Real work, not a timer: tens of seconds on a busy machine, hence its own bound.
  it('creates missing parent folders and keeps data across a reopen', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-db-')), 'not', 'yet', 'there');
    const pglite = await pgliteOptions();
    const first = await openDatabase({ databaseUrl: null, dataDir, pglite });
    await first.migrate();
    await first.db.insert(users).values({ username: 'kept@example.com', passwordHash: 'x' });
    await first.close();

    const second = await openDatabase({ databaseUrl: null, dataDir, pglite });
    await second.migrate();
    const result = await second.db.execute(sql`select count(*)::int as n from users`);
    expect(rowsOf<{ n: number }>(result)[0]?.n).toBe(1);
    await second.close();
  }, 120_000);
});

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('hot statements prepared once on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    afterAll(async () => database?.dispose());

    it('are prepared once and run with their values exactly as given, whatever the text holds', async () => {
      database = await freshDatabase(kind);
      const when = new Date('2026-11-24T01:02:03.456Z');
      const echo = statement('echo_values', sql`select ${sql.placeholder('text')}::text as text, length(${sql.placeholder('text')}::text) as length, ${sql.placeholder('when')}::timestamptz as when, ${sql.placeholder('nothing')}::text as nothing`);
      for (const text of ["O'Brien", 'back\\slash \\x00 \\', 'José Ørsted 北京 🎓', "'); drop table users; --", '$1 $$ e\'\'']) {
        const [row] = await runStatement<{ text: string; length: number; when: Date | string; nothing: string | null }>(database.db, echo, { text, when, nothing: null });
        expect(row).toMatchObject({ text, length: [...text].length, nothing: null });
        expect(new Date(row!.when).toISOString()).toBe(when.toISOString());
      }
      const prepared = rowsOf<{ name: string }>(await database.db.execute(sql`select name from pg_prepared_statements`)).map((r) => r.name);
      // PostgreSQL prepares it on whichever pooled connection ran it; this one may be another.
      if (kind === 'pglite') expect(prepared).toEqual(['echo_values']);
    });

    it('built once from placeholders, run with each call\'s values, on the database and inside a transaction', async () => {
      database ??= await freshDatabase(kind);
      const echo = statement('echo_placeholders', sql`select ${sql.placeholder('text')}::text as text, ${sql.placeholder('text')}::text = ${sql.placeholder('other')}::text as same, ${sql.placeholder('when')}::timestamptz as when`);
      const when = new Date('2026-11-27T16:10:00.123Z');
      for (const [text, other] of [["O'Brien", "O'Brien"], ['José 🎓 $1', 'x']]) {
        const [row] = await runStatement<{ text: string; same: boolean; when: Date | string }>(database.db, echo, { text, other, when });
        expect(row).toMatchObject({ text, same: text === other });
        expect(new Date(row!.when).toISOString()).toBe(when.toISOString());
      }
      const inside = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local timezone = 'Asia/Tokyo'`);
        return runStatement<{ text: string; same: boolean }>(tx, echo, { text: 'in a transaction', other: 'in a transaction', when });
      });
      expect(inside).toMatchObject([{ text: 'in a transaction', same: true }]);
      await expect(runStatement(database.db, echo, { text: 'no other, no time' })).rejects.toThrow('No value for placeholder "other"');
    });
  });
});

describe('queries on the embedded database', () => {
  it('each start on a turn of the event loop of their own: connections and requests are taken in between', async () => {
    const database = await freshDatabase('pglite');
    try {
      let turns = 0;
      let counting = true;
      const count = () => {
        turns++;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      await Promise.all(Array.from({ length: 20 }, () => database.db.execute(sql`select 1`)));
      counting = false;
      // Back to back (as before), the twenty ran within one or two turns.
      expect(turns).toBeGreaterThanOrEqual(20);
    } finally {
      await database.close();
    }
  });
});
