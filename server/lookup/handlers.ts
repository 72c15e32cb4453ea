import type { RouteHandlerMethod } from 'fastify';
import { AUTOCOMPLETE } from '../../src/config/constants';
import type { Db } from '../infra/db';
import { refuseWhenLimited } from '../infra/rateLimit';
import type { LookupCategory } from '../../src/catalogue/types';
import { findDetail, findSuggestions } from './search';

export const lookupMessages = {
  textOrId: 'Give either text to search for or the id of a record, not both.',
  emptyText: 'Type at least one letter or digit to search for.',
  notFound: 'We could not find that record.',
} as const;

/** Typing sends a request at most every 200–500 ms; this leaves room for a school lab behind one address. */
const LOOKUP_LIMIT = { max: 600, windowSeconds: 300 };

export function lookupHandlers(deps: { db: Db; rateLimitScale: number }): Record<'lookupFind', RouteHandlerMethod> {
  const { db } = deps;
  return {
    lookupFind: async (request, reply) => {
      const query = request.query as { category: LookupCategory; text?: string; id?: string; max_results?: number };
      const hasText = query.text !== undefined;
      if (hasText === (query.id !== undefined)) return reply.code(400).send({ message: lookupMessages.textOrId });
      if (hasText && query.text!.trim() === '') return reply.code(400).send({ message: lookupMessages.emptyText, errors: { text: [lookupMessages.emptyText] } });
      if (await refuseWhenLimited(db, reply, [[`lookup:client:${request.ip}`, LOOKUP_LIMIT]], deps.rateLimitScale)) return;
      // The lists change only when an operator imports one; a browser may reuse an answer for a while.
      reply.header('Cache-Control', 'public, max-age=300');
      if (hasText) return reply.send(await findSuggestions(db, query.category, query.text!, query.max_results ?? AUTOCOMPLETE.results));
      const detail = await findDetail(db, query.category, query.id!);
      if (!detail) return reply.code(404).header('Cache-Control', 'no-store').send({ message: lookupMessages.notFound });
      return reply.send(detail);
    },
  };
}
