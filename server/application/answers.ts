import { and, eq, sql } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { rowsOf, type Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';
import { checkSentAnswers, sentAnswerMessages, STORED_ANSWERS_MAX_CHARS, withinStoredBound } from '../../domain/rules/sentAnswers';

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: 'Your application has been submitted and can no longer be changed.',
  invalid: 'Some answers could not be saved. Please check the highlighted fields.',
} as const;

async function isFrozen(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
  const [event] = await db
    .select({ id: webStatusEvents.id })
    .from(webStatusEvents)
    .where(and(eq(webStatusEvents.userId, userId), eq(webStatusEvents.webStatus, 'submitted')));
  return Boolean(row?.submittedAt || event);
}

export function answerHandlers(db: Db) {
  return {
    putAnswer: signedIn<'putAnswer'>(async (request, reply, { userId }) => {
      const sent = request.body;
      // Only the form's questions, each within its bounds: nothing else reaches the stored answers.
      const errors = checkSentAnswers(sent);
      if (Object.keys(errors).length > 0) return reply.code(400).send({ message: answerMessages.invalid, errors });
      const set = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== '' && value !== null));
      const removed = Object.keys(sent).filter((key) => !(key in set));
      if (!withinStoredBound(set)) return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
      // One statement: the merge happens in the database under the row's lock (two saves of one
      // applicant never lose each other's keys), only while the application is not submitted and
      // the result stays within the stored bound (counted on jsonb's text, a little longer than
      // the client's JSON).
      const saved = rowsOf(
        await db.execute(sql`
          insert into ${applications} (user_id, answer, updated_at) values (${userId}, ${JSON.stringify(set)}::jsonb, now())
          on conflict (user_id) do update
            set answer = (${applications}.answer || excluded.answer) - array(select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb)), updated_at = now()
            where ${applications}.submitted_at is null
              and not exists (select 1 from ${webStatusEvents} w where w.user_id = ${userId} and w.web_status = 'submitted')
              and length(((${applications}.answer || excluded.answer) - array(select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb)))::text) <= ${STORED_ANSWERS_MAX_CHARS}
          returning 1 as saved`),
      );
      // Nothing written: submitted, or grown past the bound (told apart only on this rare path).
      const outcome = saved.length > 0 ? 'saved' : (await isFrozen(db, userId)) ? 'frozen' : 'too large';
      if (outcome === 'frozen') return reply.code(409).send({ message: answerMessages.frozen });
      if (outcome === 'too large') return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
      return reply.code(200).send({ message: answerMessages.saved });
    }),
  } satisfies Handlers;
}
