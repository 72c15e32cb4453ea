import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isLoopbackUrl } from '../http/paths';

/** Configuration from the environment (docs/configuration.md). Bad values fail at start. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * PostgreSQL as the role that owns the tables (DATABASE_MIGRATION_URL): migrations run as it and
   * grant DATABASE_URL's role what it needs, the audit log only INSERT and SELECT (docs/deploy.md).
   */
  databaseMigrationUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  s3: { bucket: string; region: string; endpoint: string | null; accessKeyId: string; secretAccessKey: string } | null;
  /** The institution's OpenID Connect provider for staff sign-in (issue 32); null: password and TOTP only. */
  /** `trustUnverifiedEmail`: take an ID token whose `email_verified` is absent (only where the provider never lets users edit addresses). */
  oidc: { issuer: string; clientId: string; clientSecret: string; label: string; trustUnverifiedEmail: boolean } | null;
  chromiumPath: string;
  /** Run the job worker inside the web process (default); false when `npm run worker` runs apart. */
  inProcessWorker: boolean;
  sessionSecret: string;
  nodeEnv: 'development' | 'production' | 'test';
  /** Fastify's trustProxy: whether (and which) proxies' X-Forwarded-For give the client's address. */
  trustProxy: boolean | number | string;
  clientDir: string;
  /** Multiplies the account rate limits; only for test set-ups that create many accounts. */
  rateLimitScale: number;
  /** Over this delay of the event loop (ms) signed-in pages are sent as built, not drawn; 0: never (DRAW_LAG_LIMIT_MS). */
  drawLagLimitMs: number;
  /** Connections of this process's PostgreSQL pool (DATABASE_POOL_SIZE), besides its one listening connection; null: `defaultPoolSize()`. */
  databasePoolSize: number | null;
  /** Where Prometheus reads this process's metrics (METRICS_PORT, METRICS_HOST: the loopback unless said); null: not served. */
  metrics: { port: number; host: string } | null;
}

class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function fail(variable: string, rule: string, value: string): never {
  throw new ConfigError(`Configuration error: ${variable} ${rule} (got "${value}").`);
}

function urlOf(env: Env, variable: string, protocols: string[]): string | null {
  const value = env[variable];
  if (value === undefined || value === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    fail(variable, `must be a URL (${protocols.join(' or ')})`, value);
  }
  if (!protocols.includes(parsed.protocol)) fail(variable, `must start with ${protocols.join(' or ')}`, value);
  return value;
}

/** A URL as a log line may show it. */
const withoutPassword = (url: string): string => url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@/]*@/, '$1…@');


/** Reads and checks the environment; does no I/O except reading or creating the session secret. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const portText = env.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
    fail('PORT', 'must be a whole number from 1 to 65535', portText);
  }

  // 'localhost' listens on the loopback addresses of both IPv4 and IPv6, so http://localhost:3000 works
  // whichever one the browser tries first; still nothing outside this machine.
  const host = env.HOST ?? 'localhost';
  const publicUrl = (urlOf(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, '');
  const dataDir = path.resolve(cwd, env.DATA_DIR ?? './data');
  // The kernel's own trees take no files (a write there fails oddly or hangs the embedded database).
  if (/^\/(proc|sys|dev)(\/|$)/.test(realPathOfNearest(dataDir))) fail('DATA_DIR', 'must be a folder on disk, not under /proc, /sys or /dev', env.DATA_DIR ?? dataDir);
  const databaseUrl = urlOf(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseMigrationUrl = urlOf(env, 'DATABASE_MIGRATION_URL', ['postgres:', 'postgresql:']);
  if (databaseMigrationUrl && !databaseUrl) fail('DATABASE_MIGRATION_URL', 'can be set only with DATABASE_URL (the embedded database has one role)', withoutPassword(databaseMigrationUrl));
  const smtpUrl = urlOf(env, 'SMTP_URL', ['smtp:', 'smtps:']);

  // Served anywhere but this machine, the portal is in production unless told otherwise: the dev
  // outbox (which shows every reset link) and loosened limits are for a developer's own machine.
  const nodeEnv = env.NODE_ENV ?? (isLoopbackUrl(publicUrl) ? 'development' : 'production');
  if (nodeEnv !== 'development' && nodeEnv !== 'production' && nodeEnv !== 'test') {
    fail('NODE_ENV', 'must be development, production or test', nodeEnv);
  }
  if (nodeEnv === 'development' && new URL(publicUrl).protocol === 'https:' && !isLoopbackUrl(publicUrl)) {
    fail('NODE_ENV', 'cannot be development when PUBLIC_URL is https on another machine: development shows every code and reset link in its outbox', nodeEnv);
  }
  // Production never keeps mail in its database: without SMTP no code or reset link would arrive.
  if (nodeEnv === 'production' && !smtpUrl) fail('SMTP_URL', 'must be set in production (or when PUBLIC_URL is not this machine)', '');

  const mailFrom = env.MAIL_FROM ?? 'Northfield University Admissions <admissions@northfield.example.edu>';
  if (!/@/.test(mailFrom)) fail('MAIL_FROM', 'must contain an e-mail address', mailFrom);

  const s3Names = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const s3Given = s3Names.filter((name) => env[name]);
  if (s3Given.length > 0 && s3Given.length < s3Names.length) {
    const missing = s3Names.find((name) => !env[name]) ?? 'S3_BUCKET';
    fail(missing, `must be set when any of ${s3Names.join(', ')} is set`, '');
  }
  const s3 =
    s3Given.length === s3Names.length
      ? {
          bucket: env.S3_BUCKET!,
          region: env.S3_REGION!,
          endpoint: urlOf(env, 'S3_ENDPOINT', ['http:', 'https:']),
          accessKeyId: env.S3_ACCESS_KEY_ID!,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
        }
      : null;

  const oidcNames = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  const oidcGiven = oidcNames.filter((name) => env[name]);
  if (oidcGiven.length > 0 && oidcGiven.length < oidcNames.length) fail(oidcNames.find((name) => !env[name])!, `must be set when any of ${oidcNames.join(', ')} is set`, '');
  const trustUnverified = env.OIDC_TRUST_UNVERIFIED_EMAIL ?? 'false';
  if (trustUnverified !== 'true' && trustUnverified !== 'false') fail('OIDC_TRUST_UNVERIFIED_EMAIL', 'must be true or false', trustUnverified);
  const oidc =
    oidcGiven.length === oidcNames.length
      ? { issuer: urlOf(env, 'OIDC_ISSUER', ['http:', 'https:'])!, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET!, label: env.OIDC_LABEL ?? 'Sign in with your institution’s account', trustUnverifiedEmail: trustUnverified === 'true' }
      : null;

  const chromiumPath = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const workerText = env.IN_PROCESS_WORKER ?? 'true';
  if (workerText !== 'true' && workerText !== 'false') fail('IN_PROCESS_WORKER', 'must be true or false', workerText);
  if (workerText === 'false' && !databaseUrl) fail('IN_PROCESS_WORKER', 'can be false only with DATABASE_URL (the embedded database has one process)', workerText);

  let sessionSecret = env.SESSION_SECRET ?? '';
  if (sessionSecret !== '' && sessionSecret.length < 32) {
    fail('SESSION_SECRET', 'must be at least 32 characters', '…');
  }
  if (sessionSecret === '') {
    if (nodeEnv === 'production') fail('SESSION_SECRET', 'must be set in production', '');
    sessionSecret = readOrCreateSecret(dataDir);
  }

  const clientDir = path.resolve(cwd, env.CLIENT_DIR ?? './dist');

  const scaleText = env.RATE_LIMIT_SCALE ?? '1';
  const rateLimitScale = Number(scaleText);
  if (!Number.isFinite(rateLimitScale) || rateLimitScale < 0.001 || rateLimitScale > 100) fail('RATE_LIMIT_SCALE', 'must be a number from 0.001 to 100', scaleText);
  if (nodeEnv === 'production' && rateLimitScale > 1) fail('RATE_LIMIT_SCALE', 'cannot loosen the limits in production', scaleText);
  const poolText = env.DATABASE_POOL_SIZE;
  const databasePoolSize = poolText === undefined ? null : Number(poolText);
  if (poolText !== undefined && (!/^\d+$/.test(poolText) || databasePoolSize! < 2 || databasePoolSize! > 100)) fail('DATABASE_POOL_SIZE', 'must be a whole number from 2 to 100', poolText);

  const lagText = env.DRAW_LAG_LIMIT_MS ?? '250';
  const drawLagLimitMs = Number(lagText);
  if (!/^\d+$/.test(lagText) || drawLagLimitMs > 60_000) fail('DRAW_LAG_LIMIT_MS', 'must be a whole number of milliseconds from 0 (never checked) to 60000', lagText);

  // Behind a load balancer the client's address is in X-Forwarded-For; trusted only when told.
  const proxyText = env.TRUST_PROXY ?? 'false';
  let trustProxy: boolean | number | string;
  if (proxyText === 'true' || proxyText === 'false') trustProxy = proxyText === 'true';
  else if (/^\d+$/.test(proxyText)) trustProxy = Number(proxyText);
  else if (/^[0-9a-fA-F.:/]+(,\s*[0-9a-fA-F.:/]+)*$/.test(proxyText)) trustProxy = proxyText;
  else fail('TRUST_PROXY', 'must be true, false, a number of proxies, or proxy addresses (comma-separated)', proxyText);

  const metricsText = env.METRICS_PORT;
  if (metricsText !== undefined && (!/^\d+$/.test(metricsText) || Number(metricsText) > 65535 || Number(metricsText) === port)) {
    fail('METRICS_PORT', "must be a whole number from 0 to 65535, not the app's own PORT", metricsText);
  }
  const metrics = metricsText === undefined ? null : { port: Number(metricsText), host: env.METRICS_HOST ?? '127.0.0.1' };
  return { metrics, trustProxy, port, host, publicUrl, dataDir, databaseUrl, databaseMigrationUrl, smtpUrl, mailFrom, s3, oidc, chromiumPath, inProcessWorker: workerText === 'true', sessionSecret, nodeEnv, clientDir, rateLimitScale, databasePoolSize, drawLagLimitMs };
}

/** The real path of the folder, or of its nearest existing parent when it does not exist yet. */
function realPathOfNearest(folder: string): string {
  for (let at = folder; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), path.relative(at, folder));
    } catch {
      if (path.dirname(at) === at) return folder;
    }
  }
}

/** Outside production a missing SESSION_SECRET is generated once and kept in DATA_DIR. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret + '\n', { mode: 0o600 });
    return secret;
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    return fail('DATA_DIR', `must be a folder this user can create and write to (${code} writing the session secret there)`, dataDir);
  }
}

/** For entry points: the configuration, or one line naming the bad variable and exit code 1. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
