import { createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { runStatement, statement, type Db } from '../infra/db';
import { applications } from '../infra/schema';
import { answerText, BASE_HASH_HEX, parseAnswersBase, type KnownValue } from '../../domain/rules/answersBase';
import { isLabelKey, labelledAsCatalogue, withCatalogueLabels } from '../../domain/rules/choiceLabels';
import { fieldByKey } from '../../domain/catalogue';
import { checkSentAnswers, sentAnswerMessages, withinStoredBound } from '../../domain/rules/sentAnswers';
import { ANSWERS_CHANGED_MESSAGE, APPLICATION_CANCELLED_MESSAGE, APPLICATION_FROZEN_MESSAGE } from '../../domain/messages';
import { recommenderMessages, takesBackWaiver } from '../../domain/recommenders';
import { waiverBound } from '../office/waiver';
import { HttpError } from '../http/errors';

export const answerMessages = {
  saved: 'Your answers were saved.',
  frozen: APPLICATION_FROZEN_MESSAGE,
  cancelled: APPLICATION_CANCELLED_MESSAGE,
  invalid: 'Some answers could not be saved. Please check the highlighted fields.',
  badBase: 'The answers this page started from could not be read. Please reload the page.',
} as const;

type Answers = Record<string, string | number | boolean | null>;

/** What a checked save accepts stored under each key it sends: each `v:<text>` or `h:<hash>` (see `guard`). */
type Expected = Record<string, string[]>;

const expectedOf = (known: KnownValue): string => ('sha256' in known ? `h:${known.sha256}` : `v:${known.text}`);

function matchesExpected(stored: Answers[string] | undefined, expected: string): boolean {
  const text = answerText(stored);
  if (expected.startsWith('h:')) return createHash('sha256').update(text).digest('hex').slice(0, BASE_HASH_HEX) === expected.slice(2);
  return `v:${text}` === expected;
}

/** Keys as a text[] literal (the form's own keys, checked before; quoted all the same). */
const textArray = (keys: readonly string[]) => `{${keys.map((key) => `"${key.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * The condition of a checked save, in the UPDATE itself: every sent key holds what the page knew
 * (`known`: the base of each key it changed; any other it sent as it knew it). One statement when
 * nothing changed elsewhere, which is nearly always; the handler looks closer only when it wrote
 * nothing. The stored answers are compared whole (containment, and no key that should be absent),
 * not key by key: each `answer->>key` reads the compressed value again, and 200 of them halved the
 * saves a second. Only long texts, known by a hash, go one by one. Its values: `guardValues`.
 */
const guardSql = sql`${applications}.answer @> ${sql.placeholder('present')}::jsonb
    and not (${applications}.answer ?| ${sql.placeholder('absent')}::text[])
    and not exists (select 1 from jsonb_each_text(${sql.placeholder('hashed')}::jsonb) e
      where left(encode(sha256(convert_to(coalesce(${applications}.answer->>e.key, ''), 'UTF8')), 'hex'), ${BASE_HASH_HEX}) <> e.value)`;

/** The values of `guardSql` for a save of `sent` (written as `setJson`, `removed` sent empty). */
function guardValues(sent: Answers, known: ReadonlyMap<string, KnownValue>, setJson: string, removed: readonly string[]) {
  let presentJson = setJson;
  let absent = removed;
  const hashed: Record<string, string> = {};
  if (known.size > 0) {
    // A choice the page changed is checked by its code: its sent label is the new code's.
    const skip = (key: string) => known.has(key) || (isLabelKey(key) && known.has(key.slice(0, -'_desc'.length)));
    const present: Answers = {};
    const absentKeys: string[] = [];
    for (const key in sent) {
      if (skip(key)) continue;
      if (sent[key] === '' || sent[key] === null) absentKeys.push(key);
      else present[key] = sent[key]!;
    }
    for (const [key, base] of known) {
      if (!(key in sent)) continue;
      if ('sha256' in base) hashed[key] = base.sha256;
      else if (base.text === '') absentKeys.push(key);
      // With its JSON type: a checkbox's as a boolean.
      else present[key] = fieldByKey.get(key)?.type === 'checkbox' ? base.text === 'true' : base.text;
    }
    presentJson = JSON.stringify(present);
    absent = absentKeys;
  }
  return { present: presentJson, absent: textArray(absent), hashed: JSON.stringify(hashed) };
}

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
    if (expect.some((one) => matchesExpected(stored[key], one))) continue;
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

/** Not submitted: the submit's own column, or the furthest status its event moved the row to (a
 * trigger on web_status_events): the row's own columns, no second table read. Nor cancelled by the
 * office at the applicant's request (issue 51). */
const notSubmitted = sql`${applications}.submitted_at is null and ${applications}.status <> 'submitted' and ${applications}.withdrawn_at is null`;

/** The stored answers with the save's (`setJson`) merged in and the keys sent empty (`removed`, a text[] literal) taken out. */
const merged = (into: SQL) => sql`(${into} || ${sql.placeholder('setJson')}::jsonb) - ${sql.placeholder('removed')}::text[]`;

/** The UPDATE every save after the first runs, under `condition`; a row when it wrote. */
const updateSql = (condition?: SQL) =>
  // changed_xid: the export's cursor sees the save (issue 32), set here rather than by a trigger (decision 0015).
  sql`update ${applications} set answer = ${merged(sql`answer`)}, answers_revision = answers_revision + 1, updated_at = now(), changed_xid = pg_current_xact_id()
      where user_id = ${sql.placeholder('userId')} and ${notSubmitted}${condition === undefined ? sql`` : sql` and ${condition}`}
      returning answers_revision as revision`;

/**
 * The statements of a save, built once (db.ts `statement`): each writes only while the application
 * is not submitted and returns a row when it wrote. Values: userId, setJson, removed; and the
 * revision or the guard's.
 */
const saveStatements = {
  plain: statement('save_answers', updateSql()),
  atRevision: statement('save_answers_at_revision', updateSql(sql`${applications}.answers_revision = ${sql.placeholder('revision')}`)),
  checked: statement('save_checked_answers', updateSql(guardSql)),
  // No row yet.
  first: statement(
    'save_first_answers',
    sql`insert into ${applications} (user_id, answer, answers_revision, updated_at) values (${sql.placeholder('userId')}, ${sql.placeholder('setJson')}::jsonb, 1, now())
      on conflict (user_id) do update set answer = ${merged(sql`${applications}.answer`)}, answers_revision = ${applications}.answers_revision + 1, updated_at = now(), changed_xid = pg_current_xact_id()
      where ${notSubmitted}
      returning answers_revision as revision`,
  ),
};

/** What a save's UPDATE also requires: the revision the page knew, or every answer it sent as it knew it. */
type SaveCondition = { revision: number } | { sent: Answers; known: ReadonlyMap<string, KnownValue> };

export function answerHandlers(db: Db) {
  /** Writes `answers` (already checked) on `on` (the database, or a transaction): the UPDATE, and the upsert for no row yet. */
  async function write(on: Db, userId: string, answers: Answers, { condition, sentJson = null }: { condition?: SaveCondition; /** The answers as the JSON text they were sent in, when they are to be stored as sent. */ sentJson?: string | null } = {}) {
    // An empty value removes its key; the rest is written as sent (a new object of 200 keys cost
    // a tenth of a save's time in the server), in the text it came in when nothing is removed.
    const removed: string[] = [];
    for (const key in answers) if (answers[key] === '' || answers[key] === null) removed.push(key);
    const setJson =
      removed.length === 0 && sentJson !== null && withinStoredBound(sentJson)
        ? sentJson
        : JSON.stringify(answers, removed.length === 0 ? undefined : (key, value: unknown) => (key !== '' && (value === '' || value === null) ? undefined : value));
    if (!withinStoredBound(setJson)) return 'tooLarge' as const;
    const values = { userId, setJson, removed: textArray(removed) };
    type Revision = { revision: number | string };
    if (condition && 'revision' in condition) return outcomeOf(await runStatement<Revision>(on, saveStatements.atRevision, { ...values, revision: condition.revision }));
    if (condition) return outcomeOf(await runStatement<Revision>(on, saveStatements.checked, { ...values, ...guardValues(condition.sent, condition.known, setJson, removed) }));
    const saved = await runStatement<Revision>(on, saveStatements.plain, values);
    return outcomeOf(saved.length > 0 ? saved : await runStatement<Revision>(on, saveStatements.first, values));
  }
  /** Why a save wrote nothing (rare, so read then): submitted, or cancelled at the applicant's request. */
  async function refusalOf(on: Db, userId: string): Promise<string> {
    const [row] = await on.select({ submittedAt: applications.submittedAt, withdrawnAt: applications.withdrawnAt }).from(applications).where(eq(applications.userId, userId));
    return row?.withdrawnAt && row.submittedAt === null ? answerMessages.cancelled : answerMessages.frozen;
  }
  /** Saved, with the answers' revision after it; or nothing written. */
  const outcomeOf = (rows: Array<{ revision: number | string }>) => (rows.length > 0 ? { revision: Number(rows[0]!.revision) } : ('notSaved' as const));

  return {
    putAnswer: signedIn<'putAnswer'>(async (request, reply, { userId }) => {
      const body = request.body;
      // Only the form's questions, each within its bounds: nothing else reaches the stored answers.
      const errors = checkSentAnswers(body);
      if (Object.keys(errors).length > 0) throw new HttpError(400, answerMessages.invalid, { errors });
      // Labels are the catalogue's, never the browser's: as a page sends them, the text sent is stored.
      const asSent = labelledAsCatalogue(body);
      const sent = (asSent ? body : withCatalogueLabels(body)) as Answers;
      // The body is the text parsed and left as it was by the contract's validator (its values
      // have several types: none is coerced; answers.test.ts sends a list).
      const sentJson = asSent ? request.bodyText : null;
      const baseHeader = request.headers['x-answers-base'];
      // A save taking back the waiver is decided under the row's lock, as an invitation reads it:
      // refused while a recommender asked under the waiver stands (their letter is bound to it).
      if (Object.keys(sent).some((key) => takesBackWaiver(key, sent[key]))) {
        return db.transaction(async (tx) => {
          await tx.select({ userId: applications.userId }).from(applications).where(eq(applications.userId, userId)).for('update');
          if (await waiverBound(tx, userId)) throw new HttpError(409, recommenderMessages.waiverBound);
          return save(tx);
        });
      }
      return save(db);

      async function save(on: Db) {
        try {
          if (typeof baseHeader !== 'string') {
            // The merge happens in the database under the row's lock (two saves of one applicant
            // never lose each other's keys), only while the application is not submitted; the
            // table's own constraint keeps the merged result within the stored bound.
            const outcome = await write(on, userId, sent, { sentJson });
            if (outcome === 'tooLarge') throw new HttpError(413, sentAnswerMessages.tooLarge);
            if (outcome === 'notSaved') throw new HttpError(409, await refusalOf(on, userId));
            return reply.code(200).send({ message: answerMessages.saved });
          }
          const base = parseAnswersBase(baseHeader);
          if (!base) throw new HttpError(400, answerMessages.badBase);
          const { known, alsoKnown, revision } = base;
          // The page knows the current revision: nothing changed since, no answer to compare. Else
          // every answer sent is compared with what is stored, in the same statement; an answer
          // known two ways (a reload's, rare) is compared under the row's lock below.
          const condition: SaveCondition | null = revision !== null ? { revision } : alsoKnown.size === 0 ? { sent, known } : null;
          const fast = condition ? await write(on, userId, sent, { condition, sentJson }) : ('notSaved' as const);
          if (fast === 'tooLarge') throw new HttpError(413, sentAnswerMessages.tooLarge);
          // Only a page that knew the revision knows every answer as of the new one: it is told it.
          // Any other may have missed a change it did not send, and goes on comparing what it sends.
          if (fast !== 'notSaved') return reply.code(200).send({ message: answerMessages.saved, ...(revision !== null ? { revision: fast.revision } : {}) });
          // Nothing written: no row yet, a submitted application, or answers changed elsewhere. Decided
          // under the row's lock, so no other save lands between the look and the write.
          const result = await on.transaction(async (tx) => {
            const [row] = await tx
              .select({ answer: applications.answer, submittedAt: applications.submittedAt, status: applications.status, withdrawnAt: applications.withdrawnAt })
              .from(applications)
              .where(eq(applications.userId, userId))
              .for('update');
            if (row && (row.submittedAt !== null || row.status === 'submitted')) return { kind: 'frozen' as const };
            if (row?.withdrawnAt) return { kind: 'cancelled' as const };
            const expected: Expected = {};
            for (const key of Object.keys(sent)) {
              if (isLabelKey(key)) continue;
              const base = known.get(key);
              expected[key] = base ? [base, ...(alsoKnown.get(key) ?? [])].map(expectedOf) : [`v:${answerText(sent[key])}`];
            }
            const decided = decideCheckedSave(row?.answer ?? {}, sent, expected, new Set(known.keys()));
            if (decided.conflicts.length > 0) return { kind: 'conflict' as const, ...decided };
            const outcome = await write(tx, userId, decided.write);
            return { kind: outcome, ...decided };
          });
          if (result.kind === 'frozen') throw new HttpError(409, answerMessages.frozen);
          if (result.kind === 'cancelled') throw new HttpError(409, answerMessages.cancelled);
          if (result.kind === 'conflict') {
            throw new HttpError(409, ANSWERS_CHANGED_MESSAGE, { code: 'ANSWERS_CHANGED', body: { conflicts: result.conflicts, current: result.current } });
          }
          if (result.kind === 'notSaved') throw new HttpError(409, await refusalOf(on, userId));
          if (result.kind === 'tooLarge') throw new HttpError(413, sentAnswerMessages.tooLarge);
          const newer = Object.keys(result.current).length > 0;
          return reply.code(200).send({ message: answerMessages.saved, ...(newer ? { current: result.current } : {}) });
        } catch (error) {
          if (violates(error, 'applications_answer_bound')) throw new HttpError(413, sentAnswerMessages.tooLarge);
          throw error;
        }
      }
    }),
  } satisfies Handlers;
}



