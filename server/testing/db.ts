import pg from 'pg';
import { openDatabase, type Database } from '../infra/db';
import { pgliteImage, pgliteOptions, postgresTemplate } from './images';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the PostgreSQL of this machine answers; suites that need it skip with the reason printed. */
export async function postgresReason(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL at ${POSTGRES_URL} is not reachable (${(error as Error).message}); skipping the PostgreSQL suites.`;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A fresh, empty database for one suite: PGlite in memory loaded from the migrated image, or a new
 * PostgreSQL database copied from the migrated template on the server at POSTGRES_URL and dropped
 * afterwards (server/testing/images.ts). Either is migrated already; `migrate()` finds nothing to do.
 */
export async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database & { dispose(): Promise<void>; /** PostgreSQL's, for a test that acts on the database from outside. */ url?: string }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null, image: await pgliteImage(), pglite: await pgliteOptions() });
    return { ...database, dispose: () => database.close() };
  }
  const { url, drop } = await throwawayPostgres();
  const database = await openDatabase({ databaseUrl: url, dataDir: null });
  return {
    ...database,
    url,
    dispose: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * A new database on the PostgreSQL at POSTGRES_URL, migrated (a copy of the template), or empty
 * with `{ empty: true }`: its URL, and how to drop it.
 */
export async function throwawayPostgres({ empty = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const template = empty ? null : await postgresTemplate(POSTGRES_URL);
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
