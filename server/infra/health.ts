import type { RouteHandlerMethod } from 'fastify';
import type { Database } from '../infra/db';

export function healthHandlers(database: Database): Record<'getHealth', RouteHandlerMethod> {
  return {
    getHealth: async (_request, reply) => {
      const up = await database.ping();
      return reply.code(up ? 200 : 503).send({ status: up ? 'ok' : 'error', database: up ? 'ok' : 'error' });
    },
  };
}
