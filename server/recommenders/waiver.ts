import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../infra/db';
import { recommenders } from '../infra/schema';

/**
 * Whether a recommender asked under the applicant's waiver still stands (issue 49): they were told
 * the applicant will not read their letter, so the waiver is not taken back. Read after the
 * application's row is locked: an invitation reads the answer under the same lock.
 */
export async function waiverBound(on: Db, userId: string): Promise<boolean> {
  const [row] = await on
    .select({ id: recommenders.id })
    .from(recommenders)
    .where(and(eq(recommenders.userId, userId), eq(recommenders.waived, true), ne(recommenders.status, 'withdrawn')))
    .limit(1);
  return Boolean(row);
}
