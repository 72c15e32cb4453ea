import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { holdDataDir } from './dataDirLock';

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
  /**
   * Listens to a NOTIFY channel: `onNotice` gets each payload; `onListening(false)` whenever
   * notices may be missed (not yet listening, or the connection lost: it is opened again every
   * second), `onListening(true)` once they are heard again. Returns how to stop.
   */
  listen(channel: string, onNotice: (payload: string) => void, onListening: (listening: boolean) => void): Promise<() => Promise<void>>;
  /** This process's connections now (the metrics): open, idle, and queries waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number };
}

/**
 * Run once on each new PostgreSQL connection: its server process allocates and frees 4 MB once.
 * glibc's malloc then serves blocks up to that size from its heap and keeps up to twice that freed
 * (its dynamic mmap and trim thresholds, mallopt(3)), instead of handing memory back to the system
 * after every query whose working memory passes 128 kB and taking it again on the next. The profile
 * read (three aggregates, two sorts) is such a query: each time the process shrank and grew its
 * heap, and every shrink interrupted the other cores to flush their address caches. Reads of the
 * profile cost PostgreSQL about 540 µs each that way and 110 µs after this, on this machine.
 * Operators may set the same thresholds for the server (MALLOC_MMAP_THRESHOLD_, docs/deploy.md).
 */
const KEEP_FREED_MEMORY_SQL = "select length(repeat('x', 4000000))";

/**
 * Connections of a process's pool unless DATABASE_POOL_SIZE says (issue 33): two for each core of
 * this machine, at most 10. One Node process keeps few queries in flight that are worth running at
 * once: on deadline night (2 cores, PostgreSQL on the same ones) ten connections had up to ten
 * backends at work, each taking the cores from the app's one thread whenever a query woke it; with
 * four the saves' p99 went from 91–128 ms to 62–72 ms and PostgreSQL's CPU a journey fell by a
 * quarter, the waiting done in the pool instead.
 */
export const defaultPoolSize = (cores = os.availableParallelism()) => Math.min(10, 2 * cores);

/**
 * Opens PostgreSQL when `databaseUrl` is given, otherwise PGlite in `<dataDir>/pglite`
 * (or in memory for `dataDir: null`, which the tests use, started from `image`, a dump of PGlite's
 * data folder, when given: loading one is three times quicker than PGlite's initdb).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  /** The tables' owner (DATABASE_MIGRATION_URL): `migrate()` runs as it and grants DATABASE_URL's role its share. */
  migrationUrl?: string | null;
  dataDir: string | null;
  poolSize?: number | null;
  image?: Blob;
  /** PGlite's parts made once by the caller (its compiled module, its file bundle), for the tests' many databases. */
  pglite?: Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>;
}): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? defaultPoolSize(),
      // Awaited before the connection's first query (pg-pool's hook); a failure only costs the speed-up.
      onConnect: async (client) => void (await client.query(KEEP_FREED_MEMORY_SQL).catch(() => {})),
    });
    // An idle connection closed by the server (restart, failover, admin command) must not crash
    // the process: the pool drops it and opens another on the next query (node-postgres' advice).
    pool.on('error', (error) => console.error(`database: idle connection lost: ${error.message}`));
    const db = drizzlePg(pool, { schema });
    const executeSql = async (text: string, values?: unknown[]) => ({ rows: (await pool.query(text, values)).rows as unknown[] });
    const listen = postgresListener(options.databaseUrl);
    const migrate = options.migrationUrl ? () => migrateAsOwner(options.migrationUrl!, pool) : () => migrateLocked(pool, db);
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    locksOf.set(db as unknown as Db /* the same object, typed by its driver */, postgresWorkLocks(pool));
    return database('postgres', db, migrate, () => pool.end(), executeSql, listen, poolStats);
  }
  let dir: string | undefined;
  let release = () => {};
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'pglite');
    // PGlite does not create parent folders itself.
    mkdirSync(dir, { recursive: true });
    // One process at a time: a command run beside the server is refused, not lost (dataDirLock.ts).
    release = holdDataDir(options.dataDir);
  }
  const client = await PGlite.create(dir, { ...options.pglite, ...(options.image ? { loadDataDir: options.image } : {}) }).catch((error: unknown) => {
    release();
    throw error;
  });
  const turns = takeTurns(client);
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
  // One process holds the embedded database: its notices arrive in this process, never lost.
  const listen: Database['listen'] = async (channel, onNotice, onListening) => {
    const stop = await client.listen(channel, onNotice);
    onListening(true);
    return async () => {
      onListening(false);
      if (!client.closed) await stop();
    };
  };
  // One connection: in use while a query or transaction holds it, the others waiting their turn.
  const poolStats = () => ({ total: 1, idle: turns.holding ? 0 : 1, waiting: turns.waiting });
  const close = async () => {
    await client.close();
    release();
  };
  return database('pglite', db, () => migratePglite(db, { migrationsFolder }), close, executeSql, listen, poolStats);
}

type Exclusive = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * The embedded database runs each query on this thread, and its queue hands the next query on as
 * soon as one ends: fifty waiting queries ran back to back, and between two turns of the event loop
 * (libuv accepts one new connection per turn) a new visitor's connection waited a second or two
 * under load. Each query (or transaction) now starts on a turn of its own, once it holds the
 * database: the loop takes in new connections and requests between queries, in order of arrival.
 * PGlite's two queues are its `_runExclusive…` methods; a version without them is left as it is
 * (server/infra/db.test.ts then fails). Counts, for the metrics, the queries waiting and holding.
 */
function takeTurns(client: PGlite): { waiting: number; holding: number } {
  const turns = { waiting: 0, holding: 0 };
  const queues = client as unknown as { _runExclusiveQuery?: Exclusive; _runExclusiveTransaction?: Exclusive };
  const { _runExclusiveQuery: query, _runExclusiveTransaction: transaction } = queues;
  if (typeof query !== 'function' || typeof transaction !== 'function') return turns;
  const onItsOwnTurn = (exclusive: Exclusive): Exclusive => {
    const holding = exclusive.bind(client) as Exclusive;
    return (run) => {
      turns.waiting++;
      return holding(async () => {
        turns.waiting--;
        turns.holding++;
        try {
          await new Promise((resolve) => setImmediate(resolve));
          return await run();
        } finally {
          turns.holding--;
        }
      });
    };
  };
  queues._runExclusiveQuery = onItsOwnTurn(query);
  queues._runExclusiveTransaction = onItsOwnTurn(transaction);
  return turns;
}

/** The advisory lock every process takes to migrate (any constant of this project's own). */
const MIGRATION_LOCK = 7_428_114_091;

/**
 * Drizzle's migrator under a PostgreSQL advisory lock, held by a connection of its own: instances
 * starting together on a release with new migrations run them one after another (the later ones
 * find nothing left to do) instead of racing to create the same objects.
 */
async function migrateLocked(pool: pg.Pool, db: Parameters<typeof migratePg>[0], after?: (holder: pg.PoolClient) => Promise<void>): Promise<void> {
  const holder = await pool.connect();
  try {
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(db, { migrationsFolder });
      await after?.(holder);
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    holder.release();
  }
}

/**
 * Migrations as the role that owns the tables, then the runtime role (DATABASE_URL's) given what
 * the app needs and no more (issue 29, item 7): rows of every table, but of the audit log only
 * INSERT and SELECT, so the app's own role can neither rewrite an entry nor turn the log's triggers
 * off (only an owner can). It may create schemas: the job queue (pg-boss) makes its own and a table
 * per queue. Run at every start, so a table a release adds gets the same grants.
 */
async function migrateAsOwner(migrationUrl: string, runtime: pg.Pool): Promise<void> {
  const { rows } = await runtime.query<{ role: string }>('select current_user as role');
  const role = rows[0]!.role;
  const owner = new pg.Pool({ connectionString: migrationUrl, max: 2 });
  try {
    await migrateLocked(owner, drizzlePg(owner, { schema }), async (holder) => {
      const { rows: who } = await holder.query<{ me: string }>('select current_user as me');
      if (who[0]!.me === role) return; // one role for both: nothing to separate
      // A role that owns a table or function of the app could rewrite the log or its triggers.
      const { rows: owned } = await holder.query<{ name: string }>(
        `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relowner = (select oid from pg_roles where rolname = $1)
         union all select proname from pg_proc where pronamespace = 'public'::regnamespace and proowner = (select oid from pg_roles where rolname = $1) order by 1`,
        [role],
      );
      if (owned.length > 0) {
        const names = owned.map((row) => row.name);
        throw databaseRolesError(
          `DATABASE_URL's role ${role} owns ${names.length} of the app's tables and functions (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}), so it could rewrite the audit log: give them to DATABASE_MIGRATION_URL's role ${who[0]!.me} (docs/deploy.md, "Two database roles"), then start again.`,
        );
      }
      const to = pg.escapeIdentifier(role);
      await holder.query(`grant usage on schema public to ${to}`);
      await holder.query(`grant select, insert, update, delete on all tables in schema public to ${to}`);
      await holder.query(`grant usage, select on all sequences in schema public to ${to}`);
      await holder.query(`revoke update, delete, truncate, references, trigger on audit_log from ${to}`);
      // Redactions are written only by audit_log_redact (as the owner): the runtime role reads them.
      await holder.query(`revoke insert, update, delete, truncate, references, trigger on audit_redactions from ${to}`);
      await holder.query(`revoke create on schema public from ${to}`);
      const { rows: here } = await holder.query<{ name: string }>('select current_database() as name');
      await holder.query(`grant create on database ${pg.escapeIdentifier(here[0]!.name)} to ${to}`);
    });
  } finally {
    await owner.end();
  }
}

/** An error the start-up tells in one line (server/infra/startupError.ts): the roles need an operator. */
const databaseRolesError = (message: string): Error => Object.assign(new Error(message), { code: 'DATABASE_ROLES' });

/**
 * Locks a process holds while it works on something (an export run, issue 49), released by its end
 * or its death: another process tells work under way from work whose process is gone at once,
 * instead of waiting out a lease.
 */
export interface WorkLocks {
  /** Holds the lock for `key` until the returned release (or the process's end). */
  hold(key: number): Promise<() => Promise<void>>;
  /** Whether any live process holds the lock for `key`. */
  held(key: number): Promise<boolean>;
}

/** The advisory lock class of the work locks (a constant of this project's own; the second half is the key). */
const WORK_LOCK_CLASS = 7301292;

/**
 * PostgreSQL: a session advisory lock on a connection kept out of the pool for the work's length;
 * PostgreSQL ends the session, and the lock with it, when the process dies.
 */
function postgresWorkLocks(pool: pg.Pool): WorkLocks {
  return {
    async hold(key) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1, $2)', [WORK_LOCK_CLASS, key]);
      } catch (error) {
        client.release(true);
        throw error;
      }
      return async () => {
        // A connection lost meanwhile took its lock with it: nothing to unlock, and not given back to the pool.
        const unlocked = await client.query('select pg_advisory_unlock($1, $2)', [WORK_LOCK_CLASS, key]).then(
          () => true,
          () => false,
        );
        client.release(!unlocked);
      };
    },
    async held(key) {
      const { rows } = await pool.query<{ held: boolean }>(
        `select exists (select 1 from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
           and classid = $1 and objid = $2 and objsubid = 2 and granted) as held`,
        [WORK_LOCK_CLASS, key],
      );
      return Boolean(rows[0]?.held);
    },
  };
}

/** The embedded database lives and dies with its one process: the locks are that process's memory. */
function inProcessWorkLocks(): WorkLocks {
  const keys = new Map<number, number>();
  return {
    async hold(key) {
      keys.set(key, (keys.get(key) ?? 0) + 1);
      return async () => {
        const left = (keys.get(key) ?? 1) - 1;
        if (left > 0) keys.set(key, left);
        else keys.delete(key);
      };
    },
    held: async (key) => keys.has(key),
  };
}

const locksOf = new WeakMap<Db, WorkLocks>();

/** The work locks of a database opened by `openDatabase` (the embedded one's, or PostgreSQL's). */
export function workLocks(db: Db): WorkLocks {
  let locks = locksOf.get(db);
  if (!locks) {
    locks = inProcessWorkLocks();
    locksOf.set(db, locks);
  }
  return locks;
}

/** Both drivers' databases behind the one `Db` type of the query layer. */
function database(
  kind: Database['kind'],
  driverDb: unknown,
  migrate: () => Promise<void>,
  close: () => Promise<void>,
  executeSql: Database['executeSql'],
  listen: Database['listen'],
  poolStats: Database['poolStats'],
): Database {
  const db = driverDb as Db;
  return { db, kind, migrate, ping: () => ping(db), close, executeSql, listen, poolStats };
}

const RELISTEN_MS = 1_000;

type Subscriber = { onNotice: (payload: string) => void; onListening: (listening: boolean) => void; hearing?: boolean };

/**
 * Every LISTEN of one process's database on one connection of its own (a pooled one would be
 * handed to other queries): one connection whatever the number of channels. Lost, it is opened
 * again every second while anyone listens; each subscriber hears `onListening(false)` while
 * notices may be missed and `onListening(true)` once its channel is heard again.
 */
function postgresListener(url: string): Database['listen'] {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;
  const everyone = () => [...channels.values()].flatMap((set) => [...set]);
  /** Each subscriber hears each change once. */
  const tell = (subscriber: Subscriber, hearing: boolean) => {
    if (subscriber.hearing === hearing) return;
    subscriber.hearing = hearing;
    subscriber.onListening(hearing);
  };

  const lost = (dead: pg.Client) => {
    if (client !== dead) return; // already replaced
    client = null;
    for (const subscriber of everyone()) tell(subscriber, false);
    dead.end().catch(() => {});
    if (channels.size > 0 && !retry) retry = setTimeout(() => void connect(), RELISTEN_MS);
  };
  /** The channels the current connection LISTENs to. */
  let listened = new Set<string>();
  const listenOn = async (current: pg.Client, channel: string) => {
    await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (client !== current) return;
    listened.add(channel);
    for (const subscriber of channels.get(channel) ?? []) tell(subscriber, true);
  };
  const connect = (): Promise<void> => {
    if (connecting) return connecting;
    const attempt: Promise<void> = (async () => {
      retry = null;
      const next = new pg.Client({ connectionString: url });
      client = next;
      listened = new Set();
      next.on('notification', (notice) => {
        for (const subscriber of channels.get(notice.channel) ?? []) subscriber.onNotice(notice.payload ?? '');
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        for (const channel of channels.keys()) await listenOn(next, channel);
      } catch {
        lost(next);
      }
    })().finally(() => {
      if (connecting === attempt) connecting = null;
    });
    connecting = attempt;
    return attempt;
  };

  /** How a subscriber stops: the channel is UNLISTENed when nobody hears it, the connection closed when nobody listens. */
  const stop = (channel: string, subscriber: Subscriber) => async () => {
    subscriber.onListening(false);
    subscriber.hearing = false;
    const set = channels.get(channel);
    set?.delete(subscriber);
    if (set && set.size === 0) {
      channels.delete(channel);
      listened.delete(channel);
      if (client && channels.size > 0) await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
    }
    if (channels.size === 0) {
      if (retry) clearTimeout(retry);
      retry = null;
      // A connection still on its way is dropped too: the next subscriber opens a new one.
      connecting = null;
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    }
  };

  return async (channel, onNotice, onListening) => {
    const subscriber: Subscriber = { onNotice, onListening };
    channels.set(channel, (channels.get(channel) ?? new Set()).add(subscriber));
    // Lost and waiting to reconnect: the reconnection LISTENs to this channel too.
    if (!client && retry) return stop(channel, subscriber);
    await (client ? connecting : connect());
    const current = client as pg.Client | null;
    if (current && listened.has(channel)) tell(subscriber, true);
    else if (current) await listenOn(current, channel).catch(() => lost(current));
    return stop(channel, subscriber);
  };
}

const dialect = new PgDialect();

/** A hot statement whose text drizzle wrote once, from placeholders (`sql.placeholder`): see `statement`. */
export interface Statement {
  readonly name: string;
  readonly text: string;
  readonly params: readonly unknown[];
}

/**
 * A hot statement built once, when its module loads: drizzle writes its text from a template whose
 * values are placeholders (`sql.placeholder('userId')`), and each run only fills them in
 * (`runStatement`). Writing the text again on every call walks every chunk of the template
 * (drizzle's `is` checks): 18 to 28 µs for the profile read's, against 0.2 to 0.4 µs to fill its
 * values; drizzle's query building was a fifth of the app's thread in a profile of deadline
 * night's sign-ins (issue 33, decision 0034).
 */
export function statement(name: string, query: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name, text, params };
}

/**
 * Runs a `statement` with its placeholders' values, on the database or inside a transaction. On
 * the database, as a named prepared statement: each pooled PostgreSQL connection plans it once
 * instead of on every call, which measured 2.7× the throughput of the same unnamed query (`npm run
 * bench`). On PGlite it is prepared once (PREPARE) and run with EXECUTE: planning again on every
 * call was most of a profile read's work there, and every plan asks the size of each table and
 * index the statement could use (an `fstat` each through Emscripten's file system, 12% of the
 * time); the profile read went from about 650 to 1,300 a second.
 */
export async function runStatement<Row>(db: Db, statement: Statement, values: Record<string, unknown>): Promise<Row[]> {
  const params = fillPlaceholders(statement.params as unknown[], values);
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof PGlite) return runNamed<Row>(client, statement.name, statement.text, params);
  // A transaction: its own connection (node-postgres) or PGlite's transaction, both with `query(text, values)`.
  const session = (db as unknown as { session: { client: { query: (text: string, values: unknown[]) => Promise<{ rows: Row[] }> } } }).session;
  return (await session.client.query(statement.text, params)).rows;
}

async function runNamed<Row>(client: pg.Pool | PGlite, name: string, text: string, params: unknown[]): Promise<Row[]> {
  if (client instanceof pg.Pool) return (await client.query({ name, text, values: params })).rows as Row[];
  let prepared = preparedOnPglite.get(client);
  if (!prepared) preparedOnPglite.set(client, (prepared = new Map()));
  let preparing = prepared.get(name);
  if (!preparing) {
    preparing = client.query(`prepare ${name} as ${text}`).then(() => undefined);
    prepared.set(name, preparing);
    preparing.catch(() => prepared.delete(name));
  }
  await preparing;
  // EXECUTE takes no bound parameters (it is a utility statement): its values are written as
  // literals, quoted by node-postgres' escapeLiteral.
  const values = params.map((value) => {
    if (value === null || value === undefined) return 'null';
    if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
    if (typeof value === 'object') throw new TypeError(`${name}: pass JSON as text, not as an object`);
    return pg.escapeLiteral(String(value));
  });
  return (await client.query<Row>(`execute ${name}${values.length ? `(${values.join(', ')})` : ''}`)).rows;
}

/** The statements prepared on each embedded database (its one session keeps them until it closes). */
const preparedOnPglite = new WeakMap<PGlite, Map<string, Promise<void>>>();

/** The rows of a raw `db.execute`, whose result type differs between the two drivers (both have `rows`). */
/** A unique constraint's violation (SQLSTATE 23505), as either database's driver reports it, wrapped by Drizzle or not. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

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
