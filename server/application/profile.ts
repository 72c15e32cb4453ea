import { eq, sql } from 'drizzle-orm';
import { signedIn, type Handlers } from '../http/handler';
import { runStatement, statement, type Db } from '../infra/db';
import { applications, documents, logins, users, webStatusEvents } from '../infra/schema';
import { waiverBindsSql } from '../office/waiver';
import { WAIVER_KEY } from '../../domain/recommenders';
import type { components } from '../../generated/api';
import { HttpError } from '../http/errors';

/** The profile as the database writes it: the contract's Profile, already JSON text. */
type ProfileJson = components['schemas']['Profile'];


const profileMessages = {
  statusRecorded: 'Status recorded.',
  submitOnlyBySubmitting: 'An application is marked submitted only by submitting it.',
  lastPageRecorded: 'Last page recorded.',
} as const;

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The profile in one query: the account, its application, its sign-ins and statuses in order, and
 * its converted documents, the whole answer built by the database as JSON text and sent as it is
 * (parsing the stored answers into objects only to write them out again was most of the read's
 * time in the driver and the serializer). Built once (`statement`). The bench's bare route runs it too
 * (scripts/benchFloorServer.ts).
 */
export const profileStatement = statement(
  'get_profile',
  sql`
  select json_build_object(
    'application_id', u.id,
    'username', u.username,
    'last_page', a.last_page,
    'answer', coalesce(a.answer, '{}'::jsonb),
    'answers_revision', coalesce(a.answers_revision, 0),
    'successful_login', coalesce((select json_agg(json_build_object('timestamp', ${iso('l.created_at')}) order by l.id) from ${logins} l where l.user_id = u.id), '[]'::json),
    'web_status', coalesce((select json_agg(json_build_object('web_status', w.web_status, 'created_at', ${iso('w.created_at')}) order by w.id) from ${webStatusEvents} w where w.user_id = u.id), '[]'::json),
    'document_answer', coalesce((select json_object_agg(d.answer_key, json_build_object('file_name', d.file_name, 'file_size', coalesce(d.file_size, 0))) from ${documents} d where d.user_id = u.id and d.status = 'completed'), '{}'::json),
    'bound_answers', case when ${waiverBindsSql(sql`u.id`)} then json_build_array(${sql.raw(`'${WAIVER_KEY}'`)}) else '[]'::json end
  )::text as profile
  from ${users} u left join ${applications} a on a.user_id = u.id
  where u.id = ${sql.placeholder('userId')}`,
);

export function profileHandlers(db: Db) {
  return {
    getProfile: signedIn<'getProfile'>(async (_request, reply, { userId }) => {
      const [row] = await runStatement<{ profile: string }>(db, profileStatement, { userId });
      reply.type('application/json; charset=utf-8');
      return reply.code(200).send(row!.profile as unknown as ProfileJson);
    }),

    postWebStatus: signedIn<'postWebStatus'>(async (request, reply, { userId }) => {
      const { web_status } = request.body;
      if (web_status === 'submitted') {
        // Recorded by /api/submit itself; the client's follow-up post is then a no-op.
        const [row] = await db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
        if (!row?.submittedAt) throw new HttpError(409, profileMessages.submitOnlyBySubmitting);
        return reply.code(200).send({ message: profileMessages.statusRecorded });
      }
      // Distinct events: posting the same status twice records it once.
      await db.insert(webStatusEvents).values({ userId, webStatus: web_status }).onConflictDoNothing();
      return reply.code(200).send({ message: profileMessages.statusRecorded });
    }),

    putLastPage: signedIn<'putLastPage'>(async (request, reply, { userId }) => {
      const { last_page } = request.body;
      await db
        .insert(applications)
        .values({ userId, lastPage: last_page })
        .onConflictDoUpdate({ target: applications.userId, set: { lastPage: last_page, updatedAt: new Date() } });
      return reply.code(200).send({ message: profileMessages.lastPageRecorded });
    }),
  } satisfies Handlers;
}
