import { eq } from 'drizzle-orm';
import { decisionLetter, defaultLetter, DECISIONS, letterTemplateProblem, type Decision } from '../../domain/decisions';
import { staffMessages } from '../../domain/staff';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import { clock } from '../infra/clock';
import type { Db } from '../infra/db';
import { applications, letterTemplates } from '../infra/schema';
import { recordAudit } from '../office/audit';
import { staffCall } from '../office/sessions';
import { HttpError } from '../http/errors';
import { replyTermOf } from './replyDates';

type LetterTemplate = components['schemas']['LetterTemplate'];

/** The office's template of a decision, or null for the built-in one. */
async function templateOf(db: Db, decision: Decision): Promise<string | null> {
  return (await db.select({ body: letterTemplates.body }).from(letterTemplates).where(eq(letterTemplates.decision, decision)))[0]?.body ?? null;
}

/** The letter one applicant reads for a decision: the office's template, else the built-in one, with their answers and their term's reply date. */
export async function letterFor(db: Db, decision: Decision, answers: Parameters<typeof decisionLetter>[1], replyBy?: string): Promise<string> {
  const [template, term] = await Promise.all([templateOf(db, decision), replyBy ? { replyBy } : replyTermOf(db, answers.entry_term)]);
  return decisionLetter(decision, answers, template ?? undefined, term.replyBy);
}

export function letterHandlers(db: Db) {
  return {
    listLetterTemplates: staffCall<'listLetterTemplates'>('decider', async (_request, reply) => {
      const rows = await db.select().from(letterTemplates);
      const mine = new Map(rows.map((row) => [row.decision, row]));
      const templates: LetterTemplate[] = DECISIONS.map((decision) => {
        const row = mine.get(decision);
        return row
          ? { decision, body: row.body, built_in: false, updated_by: row.updatedByEmail, updated_at: row.updatedAt.toISOString() }
          : { decision, body: defaultLetter(decision), built_in: true, updated_by: null, updated_at: null };
      });
      return reply.code(200).send(templates);
    }),

    setLetterTemplate: staffCall<'setLetterTemplate'>('admin', async (request, reply, staff) => {
      const decision: Decision = request.params.decision;
      const builtIn = request.body.built_in === true;
      const body = request.body.body.replace(/\s+$/, '');
      const problem = builtIn ? null : letterTemplateProblem(body);
      if (problem) throw new HttpError(400, problem, { errors: { body: [problem] } });
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (builtIn) await tx.delete(letterTemplates).where(eq(letterTemplates.decision, decision));
        else {
          const row = { body, updatedByEmail: staff.email, updatedAt: now };
          await tx.insert(letterTemplates).values({ decision, ...row }).onConflictDoUpdate({ target: letterTemplates.decision, set: row });
        }
        await recordAudit(tx, { staff: { id: staff.staffId, email: staff.email }, action: 'letter_template_change', detail: { decision, built_in: String(builtIn) }, ip: request.ip });
      });
      return reply
        .code(200)
        .send(
          builtIn
            ? { decision, body: defaultLetter(decision), built_in: true, updated_by: null, updated_at: null }
            : { decision, body, built_in: false, updated_by: staff.email, updated_at: now.toISOString() },
        );
    }),

    previewLetter: staffCall<'previewLetter'>('decider', async (request, reply, staff) => {
      const userId = request.params.id;
      const decision: Decision = request.query.decision;
      const [application] = await db.select({ answer: applications.answer }).from(applications).where(eq(applications.userId, userId));
      if (!application) throw new HttpError(404, staffMessages.applicationNotFound);
      // Recorded before it leaves: the letter carries the applicant's answers.
      await recordAudit(db, { staff: { id: staff.staffId, email: staff.email }, action: 'letter_preview', applicationId: userId, detail: { decision }, ip: request.ip });
      return reply.code(200).send({ decision, letter: await letterFor(db, decision, application.answer) });
    }),
  } satisfies Handlers;
}
