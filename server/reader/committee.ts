import { asc, inArray, sql, type SQL } from 'drizzle-orm';
import type { Decision } from '../../domain/decisions';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { HttpError } from '../http/errors';
import { rowsOf, type Db } from '../infra/db';
import { applicationScores, applications, decisions, reviews } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { notConflictedList } from '../office/conflicts';
import { staffCall } from '../office/sessions';
import { scaleOrderOf, scoreSummaryOf } from './scores';

type CommitteeItem = components['schemas']['CommitteeItem'];

/** The most applications the committee reads at once: a bin's first 500 by composite. */
const COMMITTEE_MAX = 500;

/** Why a committee view was asked without saying of what. */
export const committeeMessages = {
  binOrIds: 'Choose a bin, or tick the applications to read together.',
} as const;

interface Row {
  id: string;
  name: string;
  status: CommitteeItem['status'];
  entry_term: string | null;
  intended_major: string | null;
  decision: Decision | null;
  released: boolean | null;
  reviews: number | null;
  means: Record<string, number> | null;
  recommendations: Record<string, number> | null;
  composite: number | null;
}

/**
 * The committee's table (issue 51 §1): a bin or the applications ticked, ranked by composite, each
 * with every signed review side by side. Deciders only: they see every review, blind bins included.
 */
export function committeeHandlers(db: Db) {
  return {
    getCommittee: staffCall<'getCommittee'>('decider', async (request, reply, staff) => {
      const { bin, ids } = request.query;
      if ((bin === undefined) === (ids === undefined)) throw new HttpError(400, committeeMessages.binOrIds);
      const named = ids ? [...new Set(ids.toLowerCase().split(','))] : [];
      const filters: SQL[] = [await notConflictedList(db, staff.staffId), sql`a.listed`];
      // As the bin's list: an application withdrawn at the applicant's request has left it (issue 51 §5).
      if (bin !== undefined) filters.push(bin === 0 ? sql`a.bin_id is null` : sql`a.bin_id = ${bin}`, sql`a.withdrawn_at is null`);
      else filters.push(sql`a.user_id = any(${`{${named.join(',')}}`}::uuid[])`);
      const where = sql.join(filters, sql` and `);
      const [listed, [counted], scaleOrder] = await Promise.all([
        db.execute(sql`
          select a.user_id as id,
            concat_ws(' ', nullif(a.answer->>'first_name', ''), nullif(a.answer->>'last_name', '')) as name,
            a.status,
            coalesce(nullif(a.answer->>'entry_term_desc', ''), a.answer->>'entry_term') as entry_term,
            coalesce(nullif(a.answer->>'applied_major_desc', ''), a.answer->>'applied_major') as intended_major,
            d.decision, d.release_at is not null as released,
            s.reviews, s.means, s.recommendations, s.composite
          from ${applications} a
          left join ${applicationScores} s on s.user_id = a.user_id
          left join ${decisions} d on d.user_id = a.user_id
          where ${where}
          order by s.composite desc nulls last, a.user_id desc
          limit ${COMMITTEE_MAX}`),
        db.execute(sql`select count(*)::int as n from ${applications} a where ${where}`).then(rowsOf<{ n: number }>),
        scaleOrderOf(db),
      ]);
      const rows = rowsOf<Row>(listed);
      const signed = rows.length
        ? await db
            .select({ userId: reviews.userId, reviewerEmail: reviews.reviewerEmail, ratings: reviews.ratings, recommendation: reviews.recommendation, comment: reviews.comment })
            .from(reviews)
            .where(inArray(reviews.userId, rows.map((row) => row.id)))
            .orderBy(asc(reviews.id))
        : [];
      const reviewsOf = new Map<string, typeof signed>();
      for (const review of signed) reviewsOf.set(review.userId, [...(reviewsOf.get(review.userId) ?? []), review]);
      // Names, reviews and decisions of every application shown: one entry with their ids.
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'committee_view', detail: { bin: bin ?? null, ids: rows.map((row) => row.id) }, ip: request.ip });
      return reply.code(200).send({
        total: Number(counted!.n),
        shown: rows.length,
        scales: scaleOrder,
        items: rows.map((row) => ({
          id: row.id,
          name: row.name || '(no name yet)',
          status: row.status,
          entry_term: row.entry_term,
          intended_major: row.intended_major,
          decision: row.decision ? { decision: row.decision, released: Boolean(row.released) } : null,
          scores: scoreSummaryOf(row.reviews === null ? null : { reviews: row.reviews, means: row.means!, recommendations: row.recommendations!, composite: row.composite }, scaleOrder),
          reviews: (reviewsOf.get(row.id) ?? []).map((review) => ({ reviewer_email: review.reviewerEmail, ratings: review.ratings, recommendation: review.recommendation, comment: review.comment })),
        })),
      });
    }),
  } satisfies Handlers;
}
