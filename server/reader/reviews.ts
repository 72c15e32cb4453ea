import { and, asc, eq, isNull } from 'drizzle-orm';
import { reviewErrors, reviewFormErrors, reviewMessages, reviewSignedText, reviewsVisible, trimmedForm, type ReviewFormDefinition } from '../../domain/reviews';
import { staffMessages, type StaffRole } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { HttpError } from '../http/errors';
import { clock } from '../infra/clock';
import { sha256 } from '../infra/crypto';
import type { Db } from '../infra/db';
import { applications, assignments, bins, reviewForms, reviews } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { currentReviewForm } from './reviewForm';
import { applicationScoresFrom, recomputeScores } from './scores';

type Review = components['schemas']['Review'];

const reviewOf = (row: typeof reviews.$inferSelect): Review => ({
  id: row.id,
  reviewer_email: row.reviewerEmail,
  bin: row.binName,
  form_version: row.formVersion,
  ratings: row.ratings,
  recommendation: row.recommendation,
  comment: row.comment,
  submitted_at: row.submittedAt.toISOString(),
  signature: row.signature,
});

/**
 * The reviews of an application as one member may read them: all of them, but in a blind bin a
 * reader who has not submitted theirs gets none, only how many there are.
 */
export async function reviewsFor(db: Db, userId: string, viewer: { staffId: string; role: StaffRole }, blind: boolean): Promise<{ reviews: Review[]; hidden: number }> {
  const rows = await db.select().from(reviews).where(eq(reviews.userId, userId)).orderBy(asc(reviews.id));
  const ownReviewSubmitted = rows.some((row) => row.staffId === viewer.staffId);
  if (reviewsVisible({ blind, ownReviewSubmitted, role: viewer.role })) return { reviews: rows.map(reviewOf), hidden: 0 };
  return { reviews: [], hidden: rows.length };
}

const badRequest = (errors: Record<string, string[]>) => new HttpError(400, Object.values(errors)[0]![0]!, { errors });

export function reviewHandlers(db: Db) {
  return {
    getReviewForm: staffCall<'getReviewForm'>('reader', async (_request, reply) => reply.code(200).send(await currentReviewForm(db))),

    setReviewForm: staffCall<'setReviewForm'>('admin', async (request, reply, staff) => {
      const definition: ReviewFormDefinition = trimmedForm(request.body);
      const errors = reviewFormErrors(definition);
      if (Object.keys(errors).length) throw badRequest(errors);
      const row = await db.transaction(async (tx) => {
        const [made] = await tx.insert(reviewForms).values({ definition, createdByEmail: staff.email, createdAt: clock.now() }).returning();
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'review_form_change', detail: { version: made!.version }, ip: request.ip });
        return made!;
      });
      return reply.code(200).send({ version: row.version, ...row.definition, updated_by: row.createdByEmail, updated_at: row.createdAt.toISOString() });
    }),

    submitReview: staffCall<'submitReview'>('reader', async (request, reply, staff) => {
      const userId = request.params.id;
      const { form_version, ratings, recommendation } = request.body;
      // Kept as typed, but trailing spaces and line breaks say nothing.
      const comment = request.body.comment.replace(/\s+$/, '');
      const outcome = await db.transaction(async (tx) => {
        // The application's row is locked so the bin a review names is the one it was signed in.
        const [application] = await tx
          .select({ submittedAt: applications.submittedAt, binName: bins.name })
          .from(applications)
          .leftJoin(bins, eq(bins.id, applications.binId))
          .where(eq(applications.userId, userId))
          .for('update', { of: applications });
        if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
        if (!application.submittedAt) throw new HttpError(409, reviewMessages.notSubmitted);
        const form = await currentReviewForm(tx);
        if (form.version !== form_version) throw new HttpError(409, reviewMessages.formChanged);
        const errors = reviewErrors(form, { ratings, recommendation, comment });
        if (Object.keys(errors).length) throw badRequest(errors);
        const submittedAt = clock.now();
        const kept = form.scales.map((scale) => ({ scale: scale.name, rating: ratings[scale.name]!, label: scale.labels[ratings[scale.name]! - 1]! }));
        const signature = sha256(
          reviewSignedText({ applicationId: userId, reviewerEmail: staff.email, formVersion: form.version, ratings: kept, recommendation, comment, submittedAt: submittedAt.toISOString() }),
        );
        const [row] = await tx
          .insert(reviews)
          .values({ userId, staffId: staff.staffId, reviewerEmail: staff.email, binName: application.binName, formVersion: form.version, ratings: kept, recommendation, comment, submittedAt, signature })
          .onConflictDoNothing()
          .returning();
        if (!row) throw new HttpError(409, reviewMessages.alreadyReviewed);
        await tx
          .update(assignments)
          .set({ reviewedAt: submittedAt })
          .where(and(eq(assignments.userId, userId), eq(assignments.staffId, staff.staffId), isNull(assignments.reviewedAt)));
        // The list's scores move with the review, in its transaction (issue 51 §1).
        // Written just now, with the form read above: not read back.
        const scores = applicationScoresFrom((await recomputeScores(tx, userId))!, form.scales.map((scale) => scale.name));
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'review_submit', applicationId: userId, detail: { review: row.id, signature }, ip: request.ip });
        return { ...reviewOf(row), scores };
      });
      return reply.code(201).send(outcome);
    }),
  } satisfies Handlers;
}
