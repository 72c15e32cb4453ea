import { eq } from 'drizzle-orm';
import { decisionMessages, decisionState, replyClosed, replyOpen } from '../../domain/decisions';
import { replyTermOf } from './replyDates';
import { letterFor } from './letters';
import type { components } from '../../generated/api';
import { signedIn, type Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, decisions } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { HttpError } from '../http/errors';

type ApplicantDecision = components['schemas']['ApplicantDecision'];

/**
 * Where one application stands for its applicant at `now`: a decision is shown from its release
 * time on, never before (provisional and scheduled ones read as under review).
 */
async function statusOf(db: Db, userId: string, now: Date): Promise<ApplicantDecision> {
  const [[application], [row]] = await Promise.all([
    db.select({ submittedAt: applications.submittedAt, withdrawnAt: applications.withdrawnAt, answer: applications.answer }).from(applications).where(eq(applications.userId, userId)),
    db.select().from(decisions).where(eq(decisions.userId, userId)),
  ]);
  if (!application?.submittedAt) return { state: 'in_progress' };
  // Withdrawn at the applicant's request: said so, whatever was decided before (issue 51).
  if (application.withdrawnAt) return { state: 'withdrawn', withdrawn_at: application.withdrawnAt.toISOString() };
  if (!row || decisionState(row.releaseAt, now) !== 'released') return { state: 'under_review' };
  // The entry term's reply date (issue 51 §2): a Fall 2028 admit replies by Fall 2028's.
  const term = await replyTermOf(db, application.answer.entry_term);
  return {
    state: 'decided',
    decision: row.decision,
    released_at: row.releaseAt!.toISOString(),
    letter: await letterFor(db, row.decision, application.answer, term.replyBy),
    reply_by: row.decision === 'admit' ? term.replyBy : null,
    deposit: row.decision === 'admit' ? term.deposit : null,
    reply: row.reply,
    replied_at: row.repliedAt?.toISOString() ?? null,
  };
}

export function applicantDecisionHandlers(db: Db) {
  return {
    getMyDecision: signedIn<'getMyDecision'>(async (_request, reply, { userId }) => {
      // A decision is the applicant's own: never kept by a cache on the way.
      reply.header('cache-control', 'private, no-store');
      return reply.code(200).send(await statusOf(db, userId, clock.now()));
    }),

    replyToOffer: signedIn<'replyToOffer'>(async (request, reply, { userId, username }) => {
      const now = clock.now();
      const refusal = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(decisions).where(eq(decisions.userId, userId)).for('update');
        if (!row || row.decision !== 'admit' || decisionState(row.releaseAt, now) !== 'released') return decisionMessages.notAnOffer;
        if (row.reply) return decisionMessages.alreadyReplied;
        const [application] = await tx.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, userId));
        const { replyBy } = await replyTermOf(tx, application?.answer.entry_term);
        if (!replyOpen(now, replyBy)) return replyClosed(replyBy);
        await tx.update(decisions).set({ reply: request.body.reply, repliedAt: now, replyRecordedBy: null, replyReason: null }).where(eq(decisions.userId, userId));
        // The applicant's own act, in the office's record: their e-mail where a staff member's would be.
        await recordAudit(tx, { staff: { id: null, email: username }, action: 'decision_reply', applicationId: userId, detail: { reply: request.body.reply }, ip: request.ip });
        return null;
      });
      if (refusal) throw new HttpError(409, refusal);
      reply.header('cache-control', 'private, no-store');
      return reply.code(200).send(await statusOf(db, userId, now));
    }),
  } satisfies Handlers;
}
