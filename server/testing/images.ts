/**
 * Databases made once and copied for every suite and server process of a test run, instead of
 * each making its own: a new embedded database runs initdb (two seconds of CPU), and a server's
 * first start loads the shipped lookup lists (four more).
 *
 * - `pgliteImage()`: a migrated, empty embedded database, as a dump of its data folder that each
 *   suite loads into a PGlite in memory (0.6 s against 2 s).
 * - `dataDirImage()`: a DATA_DIR whose embedded database is migrated and holds the shipped lookup
 *   lists, copied for each server process a test starts (a first start in 6 s against 16 s).
 * - `postgresTemplate()`: a migrated PostgreSQL database that every throwaway database is made
 *   from (CREATE DATABASE … TEMPLATE).
 *
 * Each is named by a hash of what it is made from (the migrations, the lookup lists and their
 * loader, PGlite's version): a changed migration makes new ones, an unchanged tree reuses them. A
 * lock folder keeps two processes from making the same image at once; the other waits for it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { PGliteOptions } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../infra/db';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const imagesDir = path.join(root, '.tmp', 'images');

/** Every file under `dir` (or `dir` itself), sorted. */
function filesOf(dir: string): string[] {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** What the images are made from: the same tree always gives the same name. */
const sourceHash = (() => {
  let hash: string | undefined;
  return () => {
    if (hash) return hash;
    const digest = createHash('sha256');
    const sources = ['server/infra/migrations', 'server/lookup', 'reference-data', 'node_modules/@electric-sql/pglite/package.json', 'node_modules/zipcodes/package.json'];
    for (const file of sources.flatMap((source) => filesOf(path.join(root, source)))) {
      digest.update(path.relative(root, file));
      digest.update(readFileSync(file));
    }
    return (hash = digest.digest('hex').slice(0, 16));
  };
})();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes `target` with `make(building)` unless it exists: into a folder of its own, renamed into
 * place when complete, under a lock folder (a lock older than five minutes is a crashed maker's).
 */
async function once(target: string, make: (building: string) => Promise<void>): Promise<string> {
  const lock = `${target}.lock`;
  mkdirSync(path.dirname(target), { recursive: true });
  for (;;) {
    if (existsSync(target)) return target;
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      await sleep(100);
      continue;
    }
    try {
      if (existsSync(target)) return target;
      const building = `${target}.building`;
      rmSync(building, { recursive: true, force: true });
      await make(building);
      renameSync(building, target);
      return target;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

let pgliteImageBlob: Promise<Blob> | undefined;
let pgliteParts: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> | undefined;

/**
 * PGlite's WebAssembly module and file bundle, compiled and read once per process and handed to
 * each new database (a second of CPU less for every one after the first).
 */
export function pgliteOptions(): Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> {
  pgliteParts ??= (async () => {
    const dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    // Node's global, which the server's settings (no DOM library) do not declare.
    const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<PGliteOptions['pgliteWasmModule']> } }).WebAssembly;
    return { pgliteWasmModule: await wasm.compile(readFileSync(path.join(dir, 'pglite.wasm'))), fsBundle: new Blob([readFileSync(path.join(dir, 'pglite.data'))]) };
  })();
  return pgliteParts;
}

/** The migrated, empty embedded database as a data-folder dump; read from disk once per process. */
export function pgliteImage(): Promise<Blob> {
  pgliteImageBlob ??= (async () => {
    const file = await once(path.join(imagesDir, sourceHash(), 'pglite.tar'), async (building) => {
      const database = await openDatabase({ databaseUrl: null, dataDir: null });
      await database.migrate();
      const client = (database.db as unknown as { $client: { dumpDataDir(compression: 'none'): Promise<Blob> } }).$client;
      writeFileSync(building, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      await database.close();
    });
    return new Blob([readFileSync(file)]);
  })();
  return pgliteImageBlob;
}

/** A DATA_DIR image: the embedded database migrated, with the shipped lookup lists loaded. */
export function dataDirImage(): Promise<string> {
  return once(path.join(imagesDir, sourceHash(), 'data'), async (building) => {
    // Loaded here only: the lists' loader reads JSON modules, which Playwright's loader (the
    // browser tests import this file) does not take.
    const { seedLookups } = await import('../lookup/store');
    const database = await openDatabase({ databaseUrl: null, dataDir: building });
    await database.migrate();
    await seedLookups(database.db);
    await database.close();
  });
}

/** Copies the DATA_DIR image into `dataDir` (which must not hold a database yet). */
export async function copyDataDirImage(dataDir: string): Promise<void> {
  cpSync(await dataDirImage(), dataDir, { recursive: true });
}

/** A new DATA_DIR for a server process on the embedded database: migrated, the lookup lists loaded (images.ts). */
export async function freshDataDir(): Promise<string> {
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'portal-server-')), 'data');
  await copyDataDirImage(dataDir);
  return dataDir;
}

/** The advisory lock a process holds while it makes the PostgreSQL template. */
const TEMPLATE_LOCK = 7_428_114_092;

/** The name of a migrated PostgreSQL database to copy, made on the server at `adminUrl` if missing. */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `portal_image_${sourceHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      // A half-made one of a crashed run is made again. Images of other migrations are left: another
      // checkout's run may be using one.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${pg.escapeIdentifier(building)} with (force)`);
      await admin.query(`create database ${pg.escapeIdentifier(building)}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 2 });
      await database.migrate();
      await database.close();
      await admin.query(`alter database ${pg.escapeIdentifier(building)} rename to ${pg.escapeIdentifier(name)}`);
    }
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
    await admin.end();
  }
}

// `node --import tsx server/testing/images.ts <dataDir>`: a fresh DATA_DIR for the browser tests' server.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: images.ts <dataDir>');
  rmSync(dataDir, { recursive: true, force: true });
  await copyDataDirImage(dataDir);
}
