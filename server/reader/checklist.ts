import { and, eq } from 'drizzle-orm';
import { checklistMessages, checklistOf, onChecklist, type ChecklistMark } from '../../domain/checklist';
import type { RuleContext } from '../../domain/rules/conditions';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, checklistMarks, documents } from '../infra/schema';
import { recordAudit } from '../staff/audit';
import { staffCall } from '../staff/sessions';

type Checklist = components['schemas']['Checklist'];

/** An application's marks, as the checklist reads them. */
export async function checklistMarksOf(db: Db, userId: string): Promise<ChecklistMark[]> {
  const rows = await db.select().from(checklistMarks).where(eq(checklistMarks.userId, userId));
  return rows.map((mark) => ({ key: mark.itemKey, status: mark.status, by: mark.byEmail, reason: mark.reason, at: mark.at.toISOString() }));
}

/** A submitted application's checklist from what was read of it: its answers, marks and documents; null before submission. */
export const checklistFrom = (
  application: { answer: RuleContext; submittedAt: Date | null },
  marks: readonly ChecklistMark[],
  docs: readonly { answerKey: string; status: string }[],
): Checklist | null =>
  application.submittedAt ? checklistOf(application.answer, marks, new Set(docs.filter((doc) => doc.status === 'completed').map((doc) => doc.answerKey))) : null;

export function checklistHandlers(db: Db) {
  return {
    markChecklistItem: staffCall<'markChecklistItem'>('reader', async (request, reply, staff) => {
      const { id: userId, key } = request.params;
      const { status } = request.body;
      const reason = request.body.reason?.trim() || null;
      if (status === 'waived' && !reason) return reply.code(400).send({ message: checklistMessages.reasonRequired, errors: { reason: [checklistMessages.reasonRequired] } });
      const refusal = await db.transaction(async (tx) => {
        const [application] = await tx.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)).for('update');
        if (!application) return { status: 404 as const, message: staffMessages.applicationNotFound };
        if (!application.submittedAt) return { status: 409 as const, message: checklistMessages.notSubmitted };
        if (!onChecklist(application.answer, key)) return { status: 404 as const, message: checklistMessages.notOnChecklist };
        if (status === 'awaiting') await tx.delete(checklistMarks).where(and(eq(checklistMarks.userId, userId), eq(checklistMarks.itemKey, key)));
        else {
          const mark = { status, byEmail: staff.email, reason: status === 'waived' ? reason : null, at: clock.now() };
          await tx
            .insert(checklistMarks)
            .values({ userId, itemKey: key, ...mark })
            .onConflictDoUpdate({ target: [checklistMarks.userId, checklistMarks.itemKey], set: mark });
        }
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'checklist_mark', applicationId: userId, detail: { key, status, reason: status === 'waived' ? reason : null }, ip: request.ip });
        return null;
      });
      if (refusal) return reply.code(refusal.status).send({ message: refusal.message });
      const [[application], marks, docs] = await Promise.all([
        db.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)),
        checklistMarksOf(db, userId),
        db.select({ answerKey: documents.answerKey, status: documents.status }).from(documents).where(eq(documents.userId, userId)),
      ]);
      return reply.code(200).send(checklistFrom(application!, marks, docs)!);
    }),
  } satisfies Handlers;
}
