import { statfs } from 'node:fs/promises';

/** What the applicant reads when the database or the disk is out: their saved work is safe. */
export const unavailableMessages = {
  database: 'The portal is not available for a moment. Everything you saved before is safe; please try again in a few minutes.',
  storage: 'The portal cannot store anything right now. Everything you saved before is safe; please try again in a few minutes.',
} as const;

/** Seconds a client is asked to wait after a 503. */
export const UNAVAILABLE_RETRY_SECONDS = 30;

/** Node's codes for a full or read-only disk, and PostgreSQL's SQLSTATEs for the same (class 53: insufficient resources). */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', '53100']);
/**
 * A database that cannot be reached, went away mid-call or takes no one now: class 08 (connection
 * exception), 57P0x (shut down, starting, dropped), 53300 (too many connections), 25006 (read-only:
 * a standby after a failover), and 55000 when the database refuses connections (`ALLOW_CONNECTIONS
 * false`; 55000 is otherwise a bug's, so it is told apart by its text). Issue 49, item 9.
 */
const DATABASE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '57P04', '53300', '25006']);
const refusingConnections = (code: string, message: string) => code === '55000' && /not currently accepting connections/i.test(message);

/**
 * Whether an error means the portal's storage or database is out rather than a bug: those are a
 * 503 with a message the applicant can act on (try again), not the generic 500. Looks through
 * `cause` (Drizzle wraps the driver's error) and PGlite's "No space left on device" text.
 */
export function unavailableReason(error: unknown): keyof typeof unavailableMessages | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (STORAGE_CODES.has(code) || /no space left on device/i.test(String((e as { message?: unknown }).message ?? ''))) return 'storage';
    const message = String((e as { message?: unknown }).message ?? '');
    if (DATABASE_CODES.has(code) || code.startsWith('08') || refusingConnections(code, message) || /Connection terminated|connection is closed|PGlite is closed/i.test(message)) {
      return 'database';
    }
  }
  return null;
}

/** Below this much free space in the data folder, nothing more is accepted there. */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** Free bytes for this process in the folder, or null when it cannot be read (missing folder, no statfs). */
export async function freeBytesIn(folder: string): Promise<number | null> {
  try {
    const stats = await statfs(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
