import { eq } from 'drizzle-orm';
import { PRINT_LINK_INVALID } from '../../domain/messages';
import { documentAnswersOf } from '../documents/documents';
import type { components } from '../../generated/api';
import type { Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { applications, users } from '../infra/schema';
import { userOfServiceToken } from './tokens';
import { HttpError } from '../http/errors';

export const serviceMessages = {
  invalidToken: PRINT_LINK_INVALID,
} as const;

type ServiceView = components['schemas']['ServiceView'];

/** One application as the print view reads it (null when the account is gone). */
export async function serviceViewOf(db: Db, userId: string): Promise<ServiceView | null> {
  const [[user], [application], documentAnswer] = await Promise.all([
    db.select({ username: users.username }).from(users).where(eq(users.id, userId)),
    db.select().from(applications).where(eq(applications.userId, userId)),
    documentAnswersOf(db, userId),
  ]);
  if (!user) return null;
  return {
    username: user.username,
    application_number: application?.applicationNumber ?? null,
    submitted_at: application?.submittedAt?.toISOString() ?? null,
    answer: application?.answer ?? {},
    add_another: application?.addAnother ?? {},
    document_answer: documentAnswer,
    tabs: application?.tabs ?? {},
  };
}

/** GET /service/tmp-pdf: one application, read-only, for a service token (staff). */
export function serviceHandlers(db: Db) {
  return {
    getServiceView: async (request, reply) => {
      const { service_token } = request.query;
      const userId = await userOfServiceToken(db, service_token);
      const view = userId ? await serviceViewOf(db, userId) : null;
      if (!view) throw new HttpError(401, serviceMessages.invalidToken);
      // Nobody's answers are cached on the way: a token opens one application for minutes.
      reply.header('cache-control', 'no-store');
      return reply.code(200).send(view);
    },
  } satisfies Handlers;
}
