import pg from 'pg';
import { openDatabase, type Database } from '../infra/db';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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
 * A fresh, empty database for one suite: PGlite in memory, or a new PostgreSQL database created
 * on the server at POSTGRES_URL and dropped afterwards.
 */
export async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database & { dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    return { ...database, dispose: () => database.close() };
  }
  const { url, drop } = await throwawayPostgres();
  const database = await openDatabase({ databaseUrl: url, dataDir: null });
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await drop();
    },
  };
}

/** A new, empty database on the PostgreSQL at POSTGRES_URL: its URL, and how to drop it. */
export async function throwawayPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
