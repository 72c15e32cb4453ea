import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** One query layer over both drivers: PGlite (embedded) and PostgreSQL (DATABASE_URL). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Raw SQL for pg-boss (the job queue) on the same database. Without values the text may hold
   * several statements, which PGlite runs only through `exec`.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Opens PostgreSQL when `databaseUrl` is given, otherwise PGlite in `<dataDir>/pglite`
 * (or in memory for `dataDir: null`, which the tests use).
 */
export async function openDatabase(options: { databaseUrl: string | null; dataDir: string | null }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection closed by the server (restart, failover, admin command) must not crash
    // the process: the pool drops it and opens another on the next query (node-postgres' advice).
    pool.on('error', (error) => console.error(`database: idle connection lost: ${error.message}`));
    const db = drizzlePg(pool, { schema });
    const executeSql = async (text: string, values?: unknown[]) => ({ rows: (await pool.query(text, values)).rows as unknown[] });
    return database('postgres', db, () => migratePg(db, { migrationsFolder }), () => pool.end(), executeSql);
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    // PGlite does not create parent folders itself.
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema });
  // PGlite is one connection: pg-boss's calls are run one after another.
  let previous: Promise<unknown> = Promise.resolve();
  const executeSql = (text: string, values?: unknown[]) => {
    const run = async () =>
      values && values.length > 0 ? { rows: (await client.query(text, values)).rows } : { rows: (await client.exec(text)).at(-1)?.rows ?? [] };
    const result = previous.then(run, run);
    previous = result.catch(() => undefined);
    return result;
  };
  return database('pglite', db, () => migratePglite(db, { migrationsFolder }), () => client.close(), executeSql);
}

/** Both drivers' databases behind the one `Db` type of the query layer. */
function database(
  kind: Database['kind'],
  driverDb: unknown,
  migrate: () => Promise<void>,
  close: () => Promise<void>,
  executeSql: Database['executeSql'],
): Database {
  const db = driverDb as Db;
  return { db, kind, migrate, ping: () => ping(db), close, executeSql };
}

/** The rows of a raw `db.execute`, whose result type differs between the two drivers (both have `rows`). */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
