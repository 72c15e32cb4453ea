import { and, eq } from 'drizzle-orm';
import { checklistMessages, checklistOf, onChecklist, type ChecklistMark } from '../../domain/checklist';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, checklistMarks, documents } from '../infra/schema';
import { recordAudit } from '../staff/audit';
import { staffCall } from '../staff/sessions';

type Checklist = components['schemas']['Checklist'];

/** A submitted application's checklist from its answers, its marks and its converted documents; null before submission. */
export async function checklistFor(db: Db, userId: string): Promise<Checklist | null> {
  const [[application], marks, docs] = await Promise.all([
    db.select({ answer: applications.answer, submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId)),
    db.select().from(checklistMarks).where(eq(checklistMarks.userId, userId)),
    db.select({ key: documents.answerKey }).from(documents).where(and(eq(documents.userId, userId), eq(documents.status, 'completed'))),
  ]);
  if (!application?.submittedAt) return null;
  const kept: ChecklistMark[] = marks.map((mark) => ({ key: mark.itemKey, status: mark.status, by: mark.byEmail, reason: mark.reason, at: mark.at.toISOString() }));
  return checklistOf(application.answer, kept, new Set(docs.map((doc) => doc.key)));
}

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
      return reply.code(200).send((await checklistFor(db, userId))!);
    }),
  } satisfies Handlers;
}
