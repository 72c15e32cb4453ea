import { sql } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { queryPrepared, type Db } from '../infra/db';
import { applications, webStatusEvents } from '../infra/schema';
import { checkSentAnswers, sentAnswerMessages, withinStoredBound } from '../../domain/rules/sentAnswers';

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: 'Your application has been submitted and can no longer be changed.',
  invalid: 'Some answers could not be saved. Please check the highlighted fields.',
} as const;

/** Whether a database error is the named constraint refusing a row (either driver, wrapped or not). */
function violates(error: unknown, constraint: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { constraint?: string }).constraint === constraint) return true;
  }
  return false;
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
      const setJson = JSON.stringify(set);
      if (!withinStoredBound(setJson)) return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
      // One statement: the merge happens in the database under the row's lock (two saves of one
      // applicant never lose each other's keys), only while the application is not submitted; the
      // table's own constraint keeps the merged result within the stored bound.
      let saved: unknown[];
      try {
        saved = await queryPrepared(
          db,
          'save_answers',
          sql`
          insert into ${applications} (user_id, answer, updated_at) values (${userId}, ${setJson}::jsonb, now())
          on conflict (user_id) do update
            set answer = (${applications}.answer || excluded.answer) - array(select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb)), updated_at = now()
            where ${applications}.submitted_at is null
              and not exists (select 1 from ${webStatusEvents} w where w.user_id = ${userId} and w.web_status = 'submitted')
          returning 1 as saved`,
        );
      } catch (error) {
        if (violates(error, 'applications_answer_bound')) return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
        throw error;
      }
      // Nothing written: the application is submitted.
      if (saved.length === 0) return reply.code(409).send({ message: answerMessages.frozen });
      return reply.code(200).send({ message: answerMessages.saved });
    }),
  } satisfies Handlers;
}
