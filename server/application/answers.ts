import { sql, type SQL } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { queryPrepared, type Db } from '../infra/db';
import { applications } from '../infra/schema';
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

/**
 * The statements of a save (`removed`: the keys sent empty): the UPDATE every save after the first
 * runs, and the upsert for no row yet. Each writes only while the application is not submitted and
 * returns a row when it wrote. Exported for the bench, which runs the UPDATE alone.
 */
export function saveStatements(userId: string, setJson: string, removed: string[]): { update: SQL; upsert: SQL } {
  // Removed keys as a text[] literal (the keys are the form's own, checked before; quoted all the
  // same): `jsonb - text[]` with an empty array is the stored value as it was.
  const removedArray = `{${removed.map((key) => `"${key.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  const merged = (into: SQL) => sql`(${into} || ${setJson}::jsonb) - ${removedArray}::text[]`;
  // Submitted: the submit's own column, or the furthest status its event moved the row to (a
  // trigger on web_status_events): the row's own columns, no second table read.
  const notSubmitted = sql`${applications}.submitted_at is null and ${applications}.status <> 'submitted'`;
  return {
    update: sql`update ${applications} set answer = ${merged(sql`answer`)}, updated_at = now()
      where user_id = ${userId} and ${notSubmitted}
      returning 1 as saved`,
    upsert: sql`insert into ${applications} (user_id, answer, updated_at) values (${userId}, ${setJson}::jsonb, now())
      on conflict (user_id) do update set answer = ${merged(sql`${applications}.answer`)}, updated_at = now()
      where ${notSubmitted}
      returning 1 as saved`,
  };
}

export function answerHandlers(db: Db) {
  return {
    putAnswer: signedIn<'putAnswer'>(async (request, reply, { userId }) => {
      const sent = request.body;
      // Only the form's questions, each within its bounds: nothing else reaches the stored answers.
      const errors = checkSentAnswers(sent);
      if (Object.keys(errors).length > 0) return reply.code(400).send({ message: answerMessages.invalid, errors });
      // An empty value removes its key; the rest is written as sent (a new object of 200 keys cost
      // a tenth of a save's time in the server).
      const removed: string[] = [];
      for (const key in sent) if (sent[key] === '' || sent[key] === null) removed.push(key);
      const setJson = JSON.stringify(sent, removed.length === 0 ? undefined : (key, value: unknown) => (key !== '' && (value === '' || value === null) ? undefined : value));
      if (!withinStoredBound(setJson)) return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
      // The merge happens in the database under the row's lock (two saves of one applicant never
      // lose each other's keys), only while the application is not submitted; the table's own
      // constraint keeps the merged result within the stored bound. An UPDATE first (every save
      // after the first has its row); nothing updated means no row yet or a submitted application,
      // which the upsert tells apart (it writes nothing for a submitted one).
      const statements = saveStatements(userId, setJson, removed);
      let saved: unknown[];
      try {
        saved = await queryPrepared(db, 'save_answers', statements.update);
        if (saved.length === 0) saved = await queryPrepared(db, 'save_first_answers', statements.upsert);
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
