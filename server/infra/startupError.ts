import type { Config } from './config';
import { DATA_DIR_IN_USE } from './dataDirLock';

type StartupConfig = Pick<Config, 'port' | 'host' | 'dataDir' | 'databaseUrl'>;

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Where the database is, without its password. */
function databaseAt(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the DATABASE_URL address';
  }
}

/**
 * One line an operator can act on for the failures of starting up (a database out of reach, a
 * port in use, a data folder that cannot be written), or null for anything else (shown in full).
 */
export function describeStartupError(failure: unknown, config: StartupConfig): string | null {
  // A query layer wraps the system's error (Drizzle's `cause`): the code is on the innermost.
  let error = failure;
  for (let depth = 0; depth < 5 && !codeOf(error) && (error as { cause?: unknown })?.cause; depth++) error = (error as { cause: unknown }).cause;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'EADDRINUSE') return `Start-up error: PORT ${config.port} on ${config.host} is in use by another program; stop it or set PORT.`;
  if (code === 'EADDRNOTAVAIL') return `Start-up error: HOST ${config.host} is not an address of this machine; set HOST to one of its addresses (0.0.0.0 for every one, 127.0.0.1 for this machine alone).`;
  if (code === 'EACCES' && /listen/i.test(message)) return `Start-up error: this user may not listen on port ${config.port}; choose a PORT above 1023.`;
  if (code === 'DATABASE_ROLES' || code === DATA_DIR_IN_USE) return `Start-up error: ${message}`;
  if (config.databaseUrl && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', '28P01', '3D000'].includes(code ?? '')) {
    return `Start-up error: cannot use the database at ${databaseAt(config.databaseUrl)} (${code}: ${message.split('\n')[0]}); check DATABASE_URL and that PostgreSQL is running.`;
  }
  if (['EACCES', 'EROFS', 'EPERM', 'ENOTDIR', 'ENOSPC'].includes(code ?? '')) {
    return `Start-up error: DATA_DIR ${config.dataDir} cannot be written (${code}); choose a folder this user can write to.`;
  }
  return null;
}
