import { desc } from 'drizzle-orm';
import { DEFAULT_REVIEW_FORM } from '../../domain/reviews';
import type { components } from '../../generated/api';
import type { Db } from '../infra/db';
import { reviewForms } from '../infra/schema';

type ReviewForm = components['schemas']['ReviewForm'];

/** The cycle's form: the newest version, or the built-in one (version 0) before an administrator defines one. */
export async function currentReviewForm(db: Db): Promise<ReviewForm> {
  const [row] = await db.select().from(reviewForms).orderBy(desc(reviewForms.version)).limit(1);
  if (!row) return { version: 0, ...DEFAULT_REVIEW_FORM, updated_by: null, updated_at: null };
  return { version: row.version, ...row.definition, updated_by: row.createdByEmail, updated_at: row.createdAt.toISOString() };
}

