import { PRINT_LINK_INVALID } from '../../domain/messages';
import { serviceViewOf } from '../office/applicationView';
import type { Handlers } from '../http/handler';
import type { Db } from '../infra/db';
import { userOfServiceToken } from './tokens';
import { HttpError } from '../http/errors';

export const serviceMessages = {
  invalidToken: PRINT_LINK_INVALID,
} as const;

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
