import { and, eq } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';

type Answers = Record<string, string | number | boolean | null>;

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: 'Your application has been submitted and can no longer be changed.',
} as const;

/** Sent keys are merged into the stored answers; a key sent as '' or null is removed. */
export function mergeAnswers(stored: Answers, sent: Answers): Answers {
  const merged: Answers = { ...stored };
  for (const [key, value] of Object.entries(sent)) {
    if (value === '' || value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export function answerHandlers(db: Db) {
  return {
    putAnswer: signedIn<'putAnswer'>(async (request, reply, { userId }) => {
      const sent = request.body;
      const frozen = await db.transaction(async (tx) => {
        const [submitted] = await tx
          .select({ id: webStatusEvents.id })
          .from(webStatusEvents)
          .where(and(eq(webStatusEvents.userId, userId), eq(webStatusEvents.webStatus, 'submitted')));
        await tx.insert(applications).values({ userId }).onConflictDoNothing();
        // Row lock: two saves of the same applicant never lose each other's keys.
        const [row] = await tx.select().from(applications).where(eq(applications.userId, userId)).for('update');
        if (submitted || row?.submittedAt) return true;
        await tx
          .update(applications)
          .set({ answer: mergeAnswers(row?.answer ?? {}, sent), updatedAt: new Date() })
          .where(eq(applications.userId, userId));
        return false;
      });
      if (frozen) return reply.code(409).send({ message: answerMessages.frozen });
      return reply.code(200).send({ message: answerMessages.saved });
    }),
  } satisfies Handlers;
}
