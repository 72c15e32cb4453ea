import { asc, eq, sql } from 'drizzle-orm';
import { readerLabelOf } from '../../domain/catalogue';
import { correctionErrors, correctionMessages } from '../../domain/corrections';
import { withCatalogueLabels } from '../../domain/rules/choiceLabels';
import { takesBackWaiver } from '../../domain/recommenders';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { answerCorrections, applications } from '../infra/schema';
import { waiverBound } from '../office/waiver';
import { recordAudit } from '../office/audit';
import { recomputeScores } from './scores';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';

type AnswerValue = string | number | boolean | null;

/** An application's corrections, oldest first, as the console shows them. */
export async function correctionsOf(db: Db, userId: string): Promise<components['schemas']['AnswerCorrection'][]> {
  const rows = await db.select().from(answerCorrections).where(eq(answerCorrections.userId, userId)).orderBy(asc(answerCorrections.id));
  return rows.map((row) => ({ id: row.id, key: row.key, label: readerLabelOf(row.key), from: row.fromValue ?? null, to: row.toValue ?? null, reason: row.reason, by: row.byEmail, at: row.at.toISOString() }));
}

export function correctionHandlers(db: Db) {
  return {
    correctAnswer: staffCall<'correctAnswer'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const { key, reason } = request.body;
      const value = (request.body.value === '' ? null : request.body.value) as AnswerValue;
      const errors = correctionErrors(key, value, reason);
      if (Object.keys(errors).length) throw new HttpError(400, 'Please check the highlighted fields.', { errors });
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)).for('update');
        if (!row) return 'missing' as const;
        if (!row.submittedAt) return 'draft' as const;
        const before = row.answer[key] ?? null;
        if (before === value) return 'unchanged' as const;
        // A waiver given for a letter binds it: the office does not take it back for the applicant either.
        if (takesBackWaiver(key, value) && (await waiverBound(tx, userId))) return 'waiverBound' as const;
        // The label of a choice follows it; an empty value removes the answer (and its label).
        const labelled = value === null ? {} : withCatalogueLabels({ [key]: value });
        const removed = value === null ? [key, `${key}_desc`] : [];
        await tx
          .update(applications)
          // changed_xid and changed_at: the next export run of changes carries the corrected answer, with its time (no trigger on `answer`: decision 0015).
          .set({ answer: sql`(${applications.answer} || ${JSON.stringify(labelled)}::jsonb) - ${`{${removed.join(',')}}`}::text[]`, changedXid: sql`pg_current_xact_id()`, changedAt: sql`now()` })
          .where(eq(applications.userId, userId));
        await tx.insert(answerCorrections).values({ userId, key, fromValue: before, toValue: value, reason: reason.trim(), byEmail: staff.email, at: clock.now() });
        // A corrected GPA moves the composite that weighs it (issue 51 §1).
        await recomputeScores(tx, userId);
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'answer_correct', applicationId: userId, detail: { key, reason: reason.trim() }, ip: request.ip });
        return 'corrected' as const;
      });
      if (outcome === 'missing') throw new HttpError(404, staffMessages.applicationNotFound);
      if (outcome === 'draft') throw new HttpError(409, correctionMessages.notSubmitted);
      if (outcome === 'waiverBound') throw new HttpError(409, correctionMessages.waiverBound);
      if (outcome === 'unchanged') throw new HttpError(400, correctionMessages.unchanged, { errors: { value: [correctionMessages.unchanged] } });
      return reply.code(200).send({ corrections: await correctionsOf(db, userId) });
    }),
  } satisfies Handlers;
}
