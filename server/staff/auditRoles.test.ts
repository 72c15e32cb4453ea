import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../infra/db';
import { startJobs } from '../infra/jobs';
import { describeStartupError } from '../infra/startupError';
import { signedInCookie, testApp } from '../testing/app';
import { POSTGRES_URL, postgresReason } from '../testing/db';
import { recordAudit } from '../office/audit';
import { verifyAuditChain } from '../office/auditChain';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

/** The URL of POSTGRES_URL's server as another role, on another database. */
function urlAs(role: string, databaseName: string): string {
  const url = new URL(POSTGRES_URL);
  url.username = role;
  url.password = '';
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/**
 * Issue 29, item 7: on PostgreSQL a migration role owns the tables and the app's runtime role may
 * only INSERT and SELECT on the audit log, so it can neither rewrite an entry nor switch the log's
 * triggers off. Two roles and a database of their own, made here as the superuser of the tests.
 */
describe.skipIf(pgReason !== null)('two database roles (PostgreSQL)', () => {
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const owner = `portal_owner_${suffix}`;
  const runtime = `portal_app_${suffix}`;
  const name = `portal_roles_${suffix}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  let database: Database;
  /** A connection as the runtime role, for the statements the app never makes. */
  const asRuntime = new pg.Client({ connectionString: urlAs(runtime, name) });

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create role ${owner} login`);
    await admin.query(`create role ${runtime} login`);
    await admin.query(`create database ${name} owner ${owner}`);
    database = await openDatabase({ databaseUrl: urlAs(runtime, name), migrationUrl: urlAs(owner, name), dataDir: null, poolSize: 2 });
    await database.migrate();
    await asRuntime.connect();
  }, 120_000);

  afterAll(async () => {
    await asRuntime.end().catch(() => {});
    await database?.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`drop role if exists ${runtime}`);
    await admin.query(`drop role if exists ${owner}`);
    await admin.end();
  });

  it('lets the runtime role run the app: sign-in, the job queue, audit entries chained', async () => {
    const jobs = await startJobs(database, () => {});
    await jobs.stop();
    const t = await testApp({ database: { ...database, dispose: async () => {} } });
    try {
      expect(await signedInCookie(t)).toMatch(/portal_session=/);
    } finally {
      await t.close();
    }
    for (const ip of ['192.0.2.1', '192.0.2.2']) await recordAudit(database.db, { staff: { id: null, email: 'reader@northfield.example.edu' }, action: 'dashboard_view', ip });
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, entries: 2 });
    const owned = await asRuntime.query(`select tableowner from pg_tables where schemaname = 'public' and tablename = 'audit_log'`);
    expect(owned.rows).toEqual([{ tableowner: owner }]);
  });

  it('dates an entry by the database, not by the row: a backdated insert by the runtime role gets the time of its insert (issue 49, item 11)', async () => {
    await asRuntime.query(`insert into audit_log (at, staff_email, action, detail, ip) values ('2020-01-01T00:00:00Z', 'someone@northfield.example.edu', 'export', '{}', '192.0.2.9')`);
    const { rows } = await asRuntime.query<{ age: number }>(`select extract(epoch from now() - at)::float as age from audit_log where ip = '192.0.2.9'`);
    expect(rows[0]!.age).toBeLessThan(60);
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true });
  });

  it('lets the runtime role redact an erased person through audit_log_redact only: the text replaced, the chain intact (issue 49, item 11)', async () => {
    const application = '00000000-0000-4000-8000-000000000049';
    await recordAudit(database.db, { staff: { id: null, email: 'erased@example.com' }, action: 'decision_reply', applicationId: application, detail: { reply: 'accept' }, ip: '192.0.2.3' });
    const { rows } = await asRuntime.query<{ changed: number }>(`select audit_log_redact($1, $2, $3) as changed`, [application, ['erased@example.com'], `applicant:${application}`]);
    expect(rows[0]!.changed).toBe(1);
    const { rows: entries } = await asRuntime.query<{ staff_email: string }>(`select staff_email from audit_log where application_id = $1`, [application]);
    expect(entries).toEqual([{ staff_email: `applicant:${application}` }]);
    expect(await verifyAuditChain(database.db)).toMatchObject({ ok: true, redacted: 1 });
  });

  it.each([
    ['rewrite an entry', `update audit_log set action = 'export'`, /permission denied for table audit_log/],
    ['remove an entry', 'delete from audit_log', /permission denied for table audit_log/],
    ['empty the log', 'truncate audit_log', /permission denied for table audit_log/],
    ['switch the read-only trigger off', 'alter table audit_log disable trigger audit_log_no_update', /must be owner of table audit_log/],
    ['drop the chain trigger', 'drop trigger audit_log_chain on audit_log', /must be owner of (table|relation) audit_log/],
    ['replace the chain function', `create or replace function audit_log_chain() returns trigger language plpgsql as $$ begin return new; end $$`, /must be owner of function audit_log_chain|permission denied for schema public/],
    ['add its own trigger', `create trigger mine before insert on audit_log for each row execute function audit_log_chain()`, /permission denied for table audit_log|must be owner/],
    ['create in the app schema', 'create table public.shadow (id int)', /permission denied for schema public/],
    ['rewrite an entry as a redaction would', `select set_config('portal.audit_redaction', 'on', false); update audit_log set staff_email = 'someone-else@example.edu'`, /permission denied for table audit_log/],
    ['mark an entry redacted', 'insert into audit_redactions (entry_id) values (1)', /permission denied for table audit_redactions/],
  ])('refuses the runtime role: %s', async (_what, statement, refusal) => {
    await expect(asRuntime.query(statement)).rejects.toThrow(refusal);
  });

  it('migrates again at the next start, and refuses to start while the runtime role owns a table of the app', async () => {
    await database.migrate();
    // The superuser, on this database, hands the log to the runtime role (as a one-role install had it).
    const onTheDatabase = new pg.Client({ connectionString: urlAs(new URL(POSTGRES_URL).username, name) });
    await onTheDatabase.connect();
    try {
      await onTheDatabase.query(`alter table audit_log owner to ${runtime}`);
      const refusal = await database.migrate().then(() => null, (error: unknown) => error);
      // Said at start-up in one line, as the other failures an operator must act on.
      expect(describeStartupError(refusal, { port: 3000, host: 'localhost', dataDir: '/srv', databaseUrl: urlAs(runtime, name) })).toMatch(
        new RegExp(`^Start-up error: DATABASE_URL's role ${runtime} owns \\d+ of the app's tables and functions \\(audit_log.*give them to DATABASE_MIGRATION_URL's role ${owner} \\(docs/deploy.md, "Two database roles"\\), then start again.$`),
      );
    } finally {
      await onTheDatabase.query(`alter table audit_log owner to ${owner}`);
      await onTheDatabase.end();
    }
  });
});
