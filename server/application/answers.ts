import { createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { queryPrepared, rowsOf, type Db } from '../infra/db';
import { applications } from '../infra/schema';
import { answerText, BASE_HASH_HEX, parseAnswersBase, type KnownValue } from '../../domain/rules/answersBase';
import { isLabelKey, withCatalogueLabels } from '../../domain/rules/choiceLabels';
import { checkSentAnswers, sentAnswerMessages, withinStoredBound } from '../../domain/rules/sentAnswers';
import { ANSWERS_CHANGED_MESSAGE } from '../../domain/messages';

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: 'Your application has been submitted and can no longer be changed.',
  invalid: 'Some answers could not be saved. Please check the highlighted fields.',
  badBase: 'The answers this page started from could not be read. Please reload the page.',
} as const;

type Answers = Record<string, string | number | boolean | null>;

/** What a checked save expects stored under each key it sends: `v:<text>` or `h:<hash>` (see `guard`). */
type Expected = Record<string, string>;

const expectedOf = (known: KnownValue): string => ('sha256' in known ? `h:${known.sha256}` : `v:${known.text}`);

function matchesExpected(stored: Answers[string] | undefined, expected: string): boolean {
  const text = answerText(stored);
  if (expected.startsWith('h:')) return createHash('sha256').update(text).digest('hex').slice(0, BASE_HASH_HEX) === expected.slice(2);
  return `v:${text}` === expected;
}

/**
 * The condition of a checked save, in the UPDATE itself: every expected key holds what the page
 * knew (its text, or the hash of a long one). One statement when nothing changed elsewhere, which
 * is nearly always; the handler looks closer only when it wrote nothing.
 */
const guard = (expectedJson: string) => sql`not exists (
  select 1 from jsonb_each_text(${expectedJson}::jsonb) e
  where e.value <> case when left(e.value, 2) = 'h:'
    then 'h:' || left(encode(sha256(convert_to(coalesce(${applications}.answer->>e.key, ''), 'UTF8')), 'hex'), ${BASE_HASH_HEX})
    else 'v:' || coalesce(${applications}.answer->>e.key, '') end)`;

/**
 * What a checked save may write, decided against the stored answers under the row's lock: an
 * answer the page changed from what is no longer stored is a conflict (nothing is written); one it
 * sent unchanged while the stored one changed is left as stored (newer) and reported.
 */
function decideCheckedSave(stored: Answers, sent: Answers, expected: Expected, changedByPage: ReadonlySet<string>) {
  const write: Answers = { ...sent };
  const current: Answers = {};
  const conflicts: string[] = [];
  for (const [key, expect] of Object.entries(expected)) {
    if (matchesExpected(stored[key], expect)) continue;
    // Both sides ended at the same value: nothing to write, nothing to tell.
    const same = answerText(stored[key]) === answerText(sent[key]);
    delete write[key];
    delete write[`${key}_desc`];
    if (same) continue;
    current[key] = stored[key] ?? '';
    if (isLabelKey(`${key}_desc`)) current[`${key}_desc`] = stored[`${key}_desc`] ?? '';
    if (changedByPage.has(key)) conflicts.push(key);
  }
  return { write, current, conflicts };
}

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
export function saveStatements(userId: string, setJson: string, removed: string[], guardJson?: string): { update: SQL; upsert: SQL } {
  // Removed keys as a text[] literal (the keys are the form's own, checked before; quoted all the
  // same): `jsonb - text[]` with an empty array is the stored value as it was.
  const removedArray = `{${removed.map((key) => `"${key.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  const merged = (into: SQL) => sql`(${into} || ${setJson}::jsonb) - ${removedArray}::text[]`;
  // Submitted: the submit's own column, or the furthest status its event moved the row to (a
  // trigger on web_status_events): the row's own columns, no second table read.
  const notSubmitted = sql`${applications}.submitted_at is null and ${applications}.status <> 'submitted'`;
  return {
    update: sql`update ${applications} set answer = ${merged(sql`answer`)}, updated_at = now()
      where user_id = ${userId} and ${notSubmitted}${guardJson === undefined ? sql`` : sql` and ${guard(guardJson)}`}
      returning 1 as saved`,
    upsert: sql`insert into ${applications} (user_id, answer, updated_at) values (${userId}, ${setJson}::jsonb, now())
      on conflict (user_id) do update set answer = ${merged(sql`${applications}.answer`)}, updated_at = now()
      where ${notSubmitted}
      returning 1 as saved`,
  };
}

export function answerHandlers(db: Db) {
  /** Writes `answers` (already checked): the UPDATE, and the upsert for no row yet. Empty rows: submitted. */
  async function write(run: (query: SQL, name: string) => Promise<unknown[]>, userId: string, answers: Answers, guardJson?: string) {
    // An empty value removes its key; the rest is written as sent (a new object of 200 keys cost
    // a tenth of a save's time in the server).
    const removed: string[] = [];
    for (const key in answers) if (answers[key] === '' || answers[key] === null) removed.push(key);
    const setJson = JSON.stringify(answers, removed.length === 0 ? undefined : (key, value: unknown) => (key !== '' && (value === '' || value === null) ? undefined : value));
    if (!withinStoredBound(setJson)) return 'tooLarge' as const;
    const statements = saveStatements(userId, setJson, removed, guardJson);
    const saved = await run(statements.update, guardJson === undefined ? 'save_answers' : 'save_checked_answers');
    if (saved.length > 0 || guardJson !== undefined) return saved.length > 0 ? ('saved' as const) : ('notSaved' as const);
    return (await run(statements.upsert, 'save_first_answers')).length > 0 ? ('saved' as const) : ('notSaved' as const);
  }

  return {
    putAnswer: signedIn<'putAnswer'>(async (request, reply, { userId }) => {
      const body = request.body;
      // Only the form's questions, each within its bounds: nothing else reaches the stored answers.
      const errors = checkSentAnswers(body);
      if (Object.keys(errors).length > 0) return reply.code(400).send({ message: answerMessages.invalid, errors });
      // Labels are the catalogue's, never the browser's.
      const sent = withCatalogueLabels(body) as Answers;
      const baseHeader = request.headers['x-answers-base'];
      try {
        if (typeof baseHeader !== 'string') {
          // The merge happens in the database under the row's lock (two saves of one applicant
          // never lose each other's keys), only while the application is not submitted; the
          // table's own constraint keeps the merged result within the stored bound.
          const outcome = await write((query, name) => queryPrepared(db, name, query), userId, sent);
          if (outcome === 'tooLarge') return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
          if (outcome === 'notSaved') return reply.code(409).send({ message: answerMessages.frozen });
          return reply.code(200).send({ message: answerMessages.saved });
        }
        const known = parseAnswersBase(baseHeader);
        if (!known) return reply.code(400).send({ message: answerMessages.badBase });
        const expected: Expected = {};
        for (const key of Object.keys(sent)) {
          if (isLabelKey(key)) continue;
          const base = known.get(key);
          expected[key] = base ? expectedOf(base) : `v:${answerText(sent[key])}`;
        }
        const expectedJson = JSON.stringify(expected);
        const fast = await write((query, name) => queryPrepared(db, name, query), userId, sent, expectedJson);
        if (fast === 'tooLarge') return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
        if (fast === 'saved') return reply.code(200).send({ message: answerMessages.saved });
        // Nothing written: no row yet, a submitted application, or answers changed elsewhere. Decided
        // under the row's lock, so no other save lands between the look and the write.
        const result = await db.transaction(async (tx) => {
          const [row] = await tx
            .select({ answer: applications.answer, submittedAt: applications.submittedAt, status: applications.status })
            .from(applications)
            .where(eq(applications.userId, userId))
            .for('update');
          if (row && (row.submittedAt !== null || row.status === 'submitted')) return { kind: 'frozen' as const };
          const decided = decideCheckedSave(row?.answer ?? {}, sent, expected, new Set(known.keys()));
          if (decided.conflicts.length > 0) return { kind: 'conflict' as const, ...decided };
          const outcome = await write(async (query) => rowsOf(await tx.execute(query)), userId, decided.write);
          return { kind: outcome, ...decided };
        });
        if (result.kind === 'frozen' || result.kind === 'notSaved') return reply.code(409).send({ message: answerMessages.frozen });
        if (result.kind === 'tooLarge') return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
        if (result.kind === 'conflict') {
          return reply.code(409).send({ message: ANSWERS_CHANGED_MESSAGE, code: 'ANSWERS_CHANGED', conflicts: result.conflicts, current: result.current });
        }
        const newer = Object.keys(result.current).length > 0;
        return reply.code(200).send({ message: answerMessages.saved, ...(newer ? { current: result.current } : {}) });
      } catch (error) {
        if (violates(error, 'applications_answer_bound')) return reply.code(413).send({ message: sentAnswerMessages.tooLarge });
        throw error;
      }
    }),
  } satisfies Handlers;
}



