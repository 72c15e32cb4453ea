import { eq } from 'drizzle-orm';
import { PRINT_LINK_INVALID } from '../../domain/messages';
import { documentAnswersOf } from '../documents/documents';
import type { Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applications, users } from '../infra/schema';
import { userOfServiceToken } from './tokens';

export const serviceMessages = {
  invalidToken: PRINT_LINK_INVALID,
} as const;

/** GET /service/tmp-pdf: one application, read-only, for staff and the PDF renderer. */
export function serviceHandlers(db: Db) {
  return {
    getServiceView: async (request, reply) => {
      const { service_token } = request.query;
      const userId = await userOfServiceToken(db, service_token);
      if (!userId) return reply.code(401).send({ message: serviceMessages.invalidToken });
      const [[user], [application], documentAnswer] = await Promise.all([
        db.select({ username: users.username }).from(users).where(eq(users.id, userId)),
        db.select().from(applications).where(eq(applications.userId, userId)),
        documentAnswersOf(db, userId),
      ]);
      // Nobody's answers are cached on the way: a token opens one application for minutes.
      reply.header('cache-control', 'no-store');
      return reply.code(200).send({
        username: user!.username,
        answer: application?.answer ?? {},
        add_another: application?.addAnother ?? {},
        document_answer: documentAnswer,
        tabs: application?.tabs ?? {},
      });
    },
  } satisfies Handlers;
}
