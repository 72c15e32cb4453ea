import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'portal-config-'));

describe('loadConfig', () => {
  it('has the embedded defaults of the design', () => {
    const dir = tmp();
    const config = loadConfig({}, dir);
    expect(config).toMatchObject({
      port: 3000,
      host: 'localhost',
      publicUrl: 'http://localhost:3000',
      dataDir: path.join(dir, 'data'),
      databaseUrl: null,
      smtpUrl: null,
      s3: null,
      chromiumPath: '/usr/bin/chromium',
      nodeEnv: 'development',
      databasePoolSize: null,
      metrics: null,
    });
  });

  it('serves the metrics on METRICS_PORT, on the loopback unless METRICS_HOST says otherwise, never on the app\'s port', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }, tmp()).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, tmp()).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(() => loadConfig({ METRICS_PORT: '3000' }, tmp())).toThrow("METRICS_PORT must be a whole number from 0 to 65535, not the app's own PORT");
    expect(() => loadConfig({ METRICS_PORT: 'nine' }, tmp())).toThrow('METRICS_PORT');
  });

  it('takes DATABASE_POOL_SIZE for the pool of a process', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }, tmp()).databasePoolSize).toBe(4);
  });

  it('generates SESSION_SECRET into DATA_DIR once and reuses it', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: 'nested/data' }, dir).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'nested/data/session-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: 'nested/data' }, dir).sessionSecret).toBe(first);
  });

  it.each(['/proc/portal', '/proc/self', '/sys/portal-data', '/dev/shm/../null-data'])('refuses DATA_DIR %s under a kernel tree with one line', (dataDir) => {
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/^Configuration error: DATA_DIR must be a folder on disk, not under \/proc, \/sys or \/dev/);
  });

  it('names DATA_DIR when the session secret cannot be written there', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(() => loadConfig({ DATA_DIR: 'a-file/data' }, dir)).toThrow(/^Configuration error: DATA_DIR must be a folder this user can create and write to \(ENOTDIR/);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        PUBLIC_URL: 'https://apply.northfield.example.edu/',
        DATABASE_URL: 'postgres://db.internal:5432/portal',
        DATABASE_MIGRATION_URL: 'postgres://portal_owner@db.internal:5432/portal',
        SMTP_URL: 'smtps://user:pass@mail.internal:465',
        MAIL_FROM: 'Admissions <admissions@northfield.example.edu>',
        S3_BUCKET: 'uploads',
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_ENDPOINT: 'https://s3.internal',
        CHROMIUM_PATH: '/opt/chromium',
        SESSION_SECRET: 'x'.repeat(40),
        NODE_ENV: 'production',
      },
      tmp(),
    );
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://apply.northfield.example.edu',
      databaseUrl: 'postgres://db.internal:5432/portal',
      databaseMigrationUrl: 'postgres://portal_owner@db.internal:5432/portal',
      smtpUrl: 'smtps://user:pass@mail.internal:465',
      s3: { bucket: 'uploads', region: 'us-east-1', endpoint: 'https://s3.internal' },
      chromiumPath: '/opt/chromium',
      nodeEnv: 'production',
    });
  });

  it('reads TRUST_PROXY as a switch, a count of proxies, or their addresses', () => {
    expect(loadConfig({}, tmp()).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }, tmp()).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }, tmp()).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }, tmp()).trustProxy).toBe('10.0.0.0/8, 192.168.1.1');
  });

  it.each([
    [{ PORT: 'abc' }, 'Configuration error: PORT must be a whole number from 1 to 65535 (got "abc").'],
    [{ PORT: '70000' }, 'Configuration error: PORT must be a whole number from 1 to 65535 (got "70000").'],
    [{ NODE_ENV: 'staging' }, 'Configuration error: NODE_ENV must be development, production or test (got "staging").'],
    [{ PUBLIC_URL: 'not a url' }, 'Configuration error: PUBLIC_URL must be a URL (http: or https:) (got "not a url").'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'Configuration error: DATABASE_URL must start with postgres: or postgresql: (got "mysql://x/y").'],
    [{ DATABASE_MIGRATION_URL: 'postgres://owner:secret@db/portal' }, 'Configuration error: DATABASE_MIGRATION_URL can be set only with DATABASE_URL (the embedded database has one role) (got "postgres://owner:…@db/portal").'],
    [{ DATABASE_URL: 'postgres://db/portal', DATABASE_MIGRATION_URL: 'http://db' }, 'Configuration error: DATABASE_MIGRATION_URL must start with postgres: or postgresql: (got "http://db").'],
    [{ SMTP_URL: 'http://mail' }, 'Configuration error: SMTP_URL must start with smtp: or smtps: (got "http://mail").'],
    [{ MAIL_FROM: 'nobody' }, 'Configuration error: MAIL_FROM must contain an e-mail address (got "nobody").'],
    [{ S3_BUCKET: 'b' }, 'Configuration error: S3_REGION must be set when any of S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY is set (got "").'],
    [{ SESSION_SECRET: 'short' }, 'Configuration error: SESSION_SECRET must be at least 32 characters (got "…").'],
    [{ NODE_ENV: 'production', SMTP_URL: 'smtp://mail' }, 'Configuration error: SESSION_SECRET must be set in production (got "").'],
    // Served beyond this machine, production is the default, and production mails for real.
    [{ PUBLIC_URL: 'https://apply.example.edu' }, 'Configuration error: SMTP_URL must be set in production (or when PUBLIC_URL is not this machine) (got "").'],
    [{ NODE_ENV: 'production' }, 'Configuration error: SMTP_URL must be set in production (or when PUBLIC_URL is not this machine) (got "").'],
    // Development shows every reset link in its outbox: never on a site served to others (issue 29).
    [{ PUBLIC_URL: 'https://apply.example.edu', NODE_ENV: 'development' }, 'Configuration error: NODE_ENV cannot be development when PUBLIC_URL is https on another machine: development shows every code and reset link in its outbox (got "development").'],
    [{ TRUST_PROXY: 'everyone' }, 'Configuration error: TRUST_PROXY must be true, false, a number of proxies, or proxy addresses (comma-separated) (got "everyone").'],
    [{ RATE_LIMIT_SCALE: '0.000001' }, 'Configuration error: RATE_LIMIT_SCALE must be a number from 0.001 to 100 (got "0.000001").'],
    [{ DATABASE_POOL_SIZE: '1' }, 'Configuration error: DATABASE_POOL_SIZE must be a whole number from 2 to 100 (got "1").'],
    [{ DATABASE_POOL_SIZE: 'ten' }, 'Configuration error: DATABASE_POOL_SIZE must be a whole number from 2 to 100 (got "ten").'],
  ])('refuses %o with one clear line', (env, message) => {
    expect(() => loadConfig(env, tmp())).toThrow(message);
    expect(message).not.toContain('\n');
  });
});
