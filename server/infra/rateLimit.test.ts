import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, postgresReason } from '../testing/db';
import { hitRateLimit } from './rateLimit';

const pgReason = await postgresReason();
if (pgReason) console.warn(`SKIPPED: ${pgReason}`);

const limit = { max: 100, windowSeconds: 900 };
const windowMs = limit.windowSeconds * 1000;
/** A window boundary well away from the real clock: the counts are by the times given. */
const boundary = new Date(Math.ceil(Date.UTC(2030, 0, 1) / windowMs) * windowMs);
const at = (msFromBoundary: number) => new Date(boundary.getTime() + msFromBoundary);

describe.each([
  ['pglite', null],
  ['postgres', pgReason],
] as const)('the rate limit on %s', (kind, skipReason) => {
  describe.skipIf(skipReason !== null)('', () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    beforeAll(async () => {
      database = await freshDatabase(kind);
      await database.migrate();
    });
    afterAll(async () => database?.dispose());
    let counter = 0;
    const hits = async (key: string, times: Date[]) => {
      const results = [];
      for (const now of times) results.push(await hitRateLimit(database.db, key, limit, now));
      return results;
    };

    it('allows the limit and refuses the next, within one window', async () => {
      const key = `k${counter++}`;
      const results = await hits(key, Array.from({ length: 101 }, (_, i) => at(60_000 + i)));
      expect(results.slice(0, 100).every((r) => r.allowed)).toBe(true);
      expect(results[100]).toMatchObject({ allowed: false });
      // This window alone is over: the next hit waits into the next window.
      expect(results[100]!.retryAfterSeconds).toBeGreaterThan(900 - 60);
    });

    it('does not forget at a window boundary: 100 hits just before it leave the 101st just after refused', async () => {
      const key = `k${counter++}`;
      const before = await hits(key, Array.from({ length: 100 }, (_, i) => at(-5_000 + i)));
      expect(before.every((r) => r.allowed)).toBe(true);
      const [after] = await hits(key, [at(1_000)]);
      expect(after).toMatchObject({ allowed: false });
      expect(after!.retryAfterSeconds).toBeGreaterThan(0);
    });

    it('counts the hits of the previous window less as the window slides past them', async () => {
      const key = `k${counter++}`;
      await hits(key, Array.from({ length: 100 }, (_, i) => at(-windowMs + i)));
      // Half-way through the next window the 100 old hits weigh 50: 50 more are allowed, then none.
      const results = await hits(key, Array.from({ length: 51 }, (_, i) => at(windowMs / 2 + i)));
      expect(results.slice(0, 50).every((r) => r.allowed)).toBe(true);
      expect(results[50]).toMatchObject({ allowed: false });
      // Two windows later nothing is left of them.
      const [later] = await hits(key, [at(2 * windowMs + 1)]);
      expect(later).toMatchObject({ allowed: true });
    });
  });
});
