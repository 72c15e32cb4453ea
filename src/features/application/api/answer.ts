import type { components } from '../../../../generated/api';
import { api, dataOf } from '../../../lib/api/client';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/**
 * PUT /api/answer: merges the sent answers into the stored ones ('' removes a key), checked against
 * `base` (X-Answers-Base: answers changed elsewhere are not overwritten). `keepalive` lets it
 * finish while the page closes.
 */
export const putAnswer = (body: StudentAnswers, options: { base: string; keepalive?: boolean }) =>
  dataOf(
    api.PUT('/api/answer', {
      body,
      params: { header: { 'X-Answers-Base': options.base } },
      ...(options.keepalive ? { keepalive: true } : {}),
    }),
  );
