import { sql } from 'drizzle-orm';
import { HttpError } from '../http/errors';
import type { Db } from './db';
import { rateLimits } from './schema';

export interface Limit {
  /** Most hits allowed in one window. */
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit against `key` in the current fixed window and says whether it is allowed.
 * The counter lives in the database, so every app instance sees the same count.
 */
export async function hitRateLimit(db: Db, key: string, limit: Limit, now = new Date()): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 0;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= limit.max, retryAfterSeconds };
}

/** Old windows are of no use; called now and then so the table stays small. */
export async function pruneRateLimits(db: Db, olderThanSeconds = 86_400): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${olderThanSeconds})`);
}

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a few minutes and try again.';

/**
 * Counts a hit against each key; when one is over its limit, throws 429 with Retry-After.
 * `scale` multiplies every limit (test set-ups only).
 */
export async function assertWithinLimits(db: Db, checks: [key: string, limit: Limit][], scale = 1): Promise<void> {
  for (const [key, limit] of checks) {
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, key, { ...limit, max: Math.ceil(limit.max * scale) });
    if (!allowed) throw new HttpError(429, TOO_MANY_ATTEMPTS, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}
