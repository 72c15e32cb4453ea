import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Handlers } from '../http/handler';
import type { Database } from './db';
import { assertWithinLimits } from './rateLimit';

/**
 * Errors the page could not handle, reported from its error screen and logged here, so "the issue
 * has been logged" is true. Limited per address: a broken page in a loop cannot flood the log.
 */
export function clientErrorHandlers(deps: { db: Database['db']; log: FastifyBaseLogger; rateLimitScale: number }) {
  return {
    reportClientError: async (request, reply) => {
      await assertWithinLimits(deps.db, [[`client-error:${request.ip}`, { max: 20, windowSeconds: 3600 }]], deps.rateLimitScale);
      const { message, stack, path } = request.body;
      deps.log.error({ clientError: { message, stack, path, userAgent: request.headers['user-agent'] } }, 'error reported by the page');
      return reply.code(202).send({ message: 'Logged.' });
    },
  } satisfies Handlers;
}

export function healthHandlers(database: Database, chromiumPath: string) {
  return {
    getHealth: async (_request, reply) => {
      const up = await database.ping();
      // The renderer is looked for on every check: it can be installed or removed while running.
      const renderer = existsSync(chromiumPath) ? ('ok' as const) : ('missing' as const);
      if (!up) return reply.code(503).send({ status: 'error', database: 'error', renderer });
      return reply.code(200).send({ status: renderer === 'ok' ? 'ok' : 'degraded', database: 'ok', renderer });
    },
  } satisfies Handlers;
}
