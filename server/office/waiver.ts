import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../infra/db';
import { recommenders } from '../infra/schema';

/**
 * Whether a recommender asked under the applicant's waiver still stands (issue 49), as SQL over the
 * applicant's id: they were told the applicant will not read their letter, so the waiver is not
 * taken back. One definition for the save's refusal and the profile's `bound_answers`.
 */
export const waiverBindsSql = (userId: SQL): SQL => sql`exists (select 1 from ${recommenders} r where r.user_id = ${userId} and r.waived and r.status <> 'withdrawn')`;

/** `waiverBindsSql` for one applicant; read after the application's row is locked, as an invitation reads the answer under the same lock. */
export async function waiverBound(on: Db, userId: string): Promise<boolean> {
  const [row] = rowsOf<{ bound: boolean }>(await on.execute(sql`select ${waiverBindsSql(sql`${userId}::uuid`)} as bound`));
  return Boolean(row?.bound);
}
