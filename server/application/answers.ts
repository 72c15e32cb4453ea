import { and, eq } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';
import { checkSentAnswers, sentAnswerMessages, withinStoredBound } from '../../domain/rules/sentAnswers';

type Answers = Record<string, string | number | boolean | null>;

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: 'Your application has been submitted and can no longer be changed.',
  invalid: 'Some answers could not be saved. Please check the highlighted fields.',
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
      // Only the form's questions, each within its bounds: nothing else reaches the stored answers.
      const errors = checkSentAnswers(sent);
      if (Object.keys(errors).length > 0) return reply.code(400).send({ message: answerMessages.invalid, errors });
      const outcome = await db.transaction(async (tx) => {
        const [submitted] = await tx
          .select({ id: webStatusEvents.id })
          .from(webStatusEvents)
          .where(and(eq(webStatusEvents.userId, userId), eq(webStatusEvents.webStatus, 'submitted')));
        await tx.insert(applications).values({ userId }).onConflictDoNothing();
        // Row lock: two saves of the same applicant never lose each other's keys.
        const [row] = await tx.select().from(applications).where(eq(applications.userId, userId)).for('update');
        if (submitted || row?.submittedAt) return 'frozen';
        const merged = mergeAnswers(row?.answer ?? {}, sent);
        if (!withinStoredBound(merged)) return 'too large';
        await tx.update(applications).set({ answer: merged, updatedAt: new Date() }).where(eq(applications.userId, userId));
        return 'saved';
      });
      if (outcome === 'frozen') return reply.code(409).send({ message: answerMessages.frozen });
      if (outcome === 'too large') return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
      return reply.code(200).send({ message: answerMessages.saved });
    }),
  } satisfies Handlers;
}
