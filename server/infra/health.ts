import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Handlers } from '../http/handler';
import type { Database } from './db';
import { assertWithinLimits } from './rateLimit';
import { freeBytesIn, MIN_FREE_BYTES } from './unavailable';

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

export function healthHandlers(deps: { database: Database; chromiumPath: string; dataDir: string; freeBytes?: (folder: string) => Promise<number | null> }) {
  const freeBytes = deps.freeBytes ?? freeBytesIn;
  return {
    getHealth: async (_request, reply) => {
      const [up, free] = await Promise.all([deps.database.ping(), freeBytes(deps.dataDir)]);
      // The renderer is looked for on every check: it can be installed or removed while running.
      const renderer = existsSync(deps.chromiumPath) ? ('ok' as const) : ('missing' as const);
      const storage = free !== null && free < MIN_FREE_BYTES ? ('full' as const) : ('ok' as const);
      const database = up ? ('ok' as const) : ('error' as const);
      if (!up || storage === 'full') return reply.code(503).send({ status: 'error', database, renderer, storage });
      return reply.code(200).send({ status: renderer === 'ok' ? 'ok' : 'degraded', database, renderer, storage });
    },
  } satisfies Handlers;
}
