import { AUTOCOMPLETE } from '../../domain/config';
import type { Db } from '../infra/db';
import type { Handlers } from '../http/handler';
import { assertWithinLimits } from '../infra/rateLimit';
import { findDetail, findSuggestions } from './search';
import { HttpError } from '../http/errors';

export const lookupMessages = {
  textAndId: 'Give either text to search for or the id of a record, not both.',
  neitherTextNorId: 'Give text to search for (text) or the id of a record (id).',
  emptyText: 'Type at least one letter or digit to search for.',
  notFound: 'We could not find that record.',
} as const;

/** Typing sends a request at most every 200–500 ms; this leaves room for a school lab behind one address. */
const LOOKUP_LIMIT = { max: 600, windowSeconds: 300 };

export function lookupHandlers(deps: { db: Db; rateLimitScale: number }) {
  const { db } = deps;
  return {
    lookupFind: async (request, reply) => {
      const { category, text, id, max_results } = request.query;
      if (text !== undefined && id !== undefined) throw new HttpError(400, lookupMessages.textAndId);
      if (text === undefined && id === undefined) throw new HttpError(400, lookupMessages.neitherTextNorId);
      if (text !== undefined && text.trim() === '') throw new HttpError(400, lookupMessages.emptyText, { errors: { text: [lookupMessages.emptyText] } });
      await assertWithinLimits(db, [[`lookup:client:${request.ip}`, LOOKUP_LIMIT]], deps.rateLimitScale);
      // The lists change only when an operator imports one; a browser may reuse an answer for a while.
      reply.header('Cache-Control', 'public, max-age=300');
      if (text !== undefined) return reply.code(200).send(await findSuggestions(db, category, text, max_results ?? AUTOCOMPLETE.results));
      const detail = id === undefined ? null : await findDetail(db, category, id);
      if (!detail) throw new HttpError(404, lookupMessages.notFound, { headers: { 'cache-control': 'no-store' } });
      return reply.code(200).send(detail);
    },
  } satisfies Handlers;
}
