import { asc, eq } from 'drizzle-orm';
import { documentAnswersOf } from '../documents/documents';
import { signedIn, type Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applications, logins, users, webStatusEvents } from '../infra/schema';

const profileMessages = {
  statusRecorded: 'Status recorded.',
  submitOnlyBySubmitting: 'An application is marked submitted only by submitting it.',
  lastPageRecorded: 'Last page recorded.',
} as const;

export function profileHandlers(db: Db) {
  return {
    getProfile: signedIn<'getProfile'>(async (_request, reply, { userId }) => {
      const [[user], [application], loginRows, statusRows, documentAnswer] = await Promise.all([
        db.select({ username: users.username }).from(users).where(eq(users.id, userId)),
        db.select().from(applications).where(eq(applications.userId, userId)),
        db.select({ createdAt: logins.createdAt }).from(logins).where(eq(logins.userId, userId)).orderBy(asc(logins.id)),
        db
          .select({ webStatus: webStatusEvents.webStatus, createdAt: webStatusEvents.createdAt })
          .from(webStatusEvents)
          .where(eq(webStatusEvents.userId, userId))
          .orderBy(asc(webStatusEvents.id)),
        documentAnswersOf(db, userId),
      ]);
      return reply.code(200).send({
        username: user!.username,
        last_page: application?.lastPage ?? null,
        answer: application?.answer ?? {},
        document_answer: documentAnswer,
        successful_login: loginRows.map((row) => ({ timestamp: row.createdAt.toISOString() })),
        web_status: statusRows.map((row) => ({ web_status: row.webStatus, created_at: row.createdAt.toISOString() })),
      });
    }),

    postWebStatus: signedIn<'postWebStatus'>(async (request, reply, { userId }) => {
      const { web_status } = request.body;
      if (web_status === 'submitted') {
        // Recorded by /api/submit itself; the client's follow-up post is then a no-op.
        const [row] = await db.select({ submittedAt: applications.submittedAt }).from(applications).where(eq(applications.userId, userId));
        if (!row?.submittedAt) return reply.code(409).send({ message: profileMessages.submitOnlyBySubmitting });
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
