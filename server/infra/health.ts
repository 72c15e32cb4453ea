import type { Handlers } from '../http/handler';
import type { Database } from './db';

export function healthHandlers(database: Database) {
  return {
    getHealth: async (_request, reply) => {
      const up = await database.ping();
      return up ? reply.code(200).send({ status: 'ok', database: 'ok' }) : reply.code(503).send({ status: 'error', database: 'error' });
    },
  } satisfies Handlers;
}
