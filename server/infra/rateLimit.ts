import { sql } from 'drizzle-orm';
import { HttpError } from '../http/errors';
import { runStatement, statement, type Db } from './db';
import { rateLimits } from './schema';

export interface Limit {
  /** Most hits allowed in one window. */
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit against `key` and says whether it is allowed: a sliding window, estimated from two
 * fixed ones (the current window's count plus the previous window's, weighed by how much of it the
 * last `windowSeconds` still cover). A fixed window alone forgets everything at its boundary: up
 * to twice the limit in a burst across it, and a count that restarts mid-way (a test that makes
 * 100 attempts at 23:00 saw its 101st allowed). The counters live in the database, so every app
 * instance sees the same count; one statement counts the hit and reads the previous window.
 */
const hitStatement = statement(
  'rate_limit_hit',
  sql`
    with hit as (
      insert into ${rateLimits} (key, window_start, count) values (${sql.placeholder('key')}, ${sql.placeholder('windowStart')}, 1)
      on conflict (key, window_start) do update set count = ${rateLimits.count} + 1
      returning count
    )
    select (select count from hit) as count,
      coalesce((select count from ${rateLimits} where key = ${sql.placeholder('key')} and window_start = ${sql.placeholder('previousStart')}), 0) as previous`,
);

export async function hitRateLimit(db: Db, key: string, limit: Limit, now = new Date()): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const [row] = await runStatement<{ count: number; previous: number }>(db, hitStatement, { key, windowStart: new Date(windowStart), previousStart: new Date(windowStart - windowMs) });
  const count = Number(row?.count ?? 0);
  const previous = Number(row?.previous ?? 0);
  const elapsed = now.getTime() - windowStart;
  const allowed = count + previous * (1 - elapsed / windowMs) <= limit.max;
  // When the next hit would be allowed: over the limit in this window alone, once this window weighs
  // little enough in the next; otherwise once the previous window weighs little enough in this one.
  const retryAt =
    count >= limit.max
      ? windowStart + windowMs + windowMs * (1 - (limit.max - 1) / count)
      : windowStart + windowMs * (1 - (limit.max - count - 1) / Math.max(previous, 1));
  return { allowed, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000)) };
}

/** Old windows are of no use; called now and then so the table stays small. */
export async function pruneRateLimits(db: Db, olderThanSeconds = 86_400): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${olderThanSeconds})`);
}

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a few minutes and try again.';

/** The 429 of a limit, telling when the next attempt would be allowed. */
export const tooManyAttempts = (retryAfterSeconds: number) => new HttpError(429, TOO_MANY_ATTEMPTS, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** A limit multiplied by `scale` (test set-ups only). */
export const scaled = (limit: Limit, scale: number): Limit => ({ ...limit, max: Math.ceil(limit.max * scale) });

/**
 * Counts a hit against each key; when one is over its limit, throws 429 with Retry-After, after
 * `onRefused` (given the key) has run: the staff sign-in records each refusal.
 * `scale` multiplies every limit (test set-ups only).
 */
export async function assertWithinLimits(db: Db, checks: [key: string, limit: Limit][], scale = 1, onRefused?: (key: string) => Promise<void>): Promise<void> {
  for (const [key, limit] of checks) {
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, key, scaled(limit, scale));
    if (allowed) continue;
    await onRefused?.(key);
    throw tooManyAttempts(retryAfterSeconds);
  }
}
