import type { FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from './db';

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
  const result = await db.execute(sql`
    insert into rate_limits (key, window_start, count) values (${key}, ${windowStart.toISOString()}, 1)
    on conflict (key, window_start) do update set count = rate_limits.count + 1
    returning count`);
  const count = Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= limit.max, retryAfterSeconds };
}

/** Old windows are of no use; called now and then so the table stays small. */
export async function pruneRateLimits(db: Db, olderThanSeconds = 86_400): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${olderThanSeconds})`);
}

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a few minutes and try again.';

/**
 * Counts a hit against each key; when one is over its limit, answers 429 with Retry-After and
 * returns true. `scale` multiplies every limit (test set-ups only).
 */
export async function refuseWhenLimited(db: Db, reply: FastifyReply, checks: [key: string, limit: Limit][], scale = 1): Promise<boolean> {
  for (const [key, limit] of checks) {
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, key, { ...limit, max: Math.ceil(limit.max * scale) });
    if (!allowed) {
      reply.header('Retry-After', String(retryAfterSeconds)).code(429).send({ message: TOO_MANY_ATTEMPTS });
      return true;
    }
  }
  return false;
}
