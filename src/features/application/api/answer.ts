import type { components } from '../../../../generated/api';
import { answerText, BASE_HASH_HEX, BASE_TEXT_MAX, formatAnswersBase, type KnownValue } from '../../../../domain/rules/answersBase';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { api, dataOf } from '../../../lib/api/client';

export type StudentAnswers = components['schemas']['StudentAnswers'];

/**
 * The X-Answers-Base header: the revision the page knows, and what it knew of each answer it
 * changed (long texts as a hash). Synchronous (@noble/hashes, not SubtleCrypto): a save as the page
 * closes must leave within the page's last event, not a task later.
 */
export function answersBaseHeader(known: StudentAnswers, changed: readonly string[], revision: number | null): string {
  const entries: Array<[string, KnownValue]> = changed.map((key) => {
    const text = answerText(known[key]);
    return [key, text.length > BASE_TEXT_MAX ? { sha256: bytesToHex(sha256(utf8ToBytes(text))).slice(0, BASE_HASH_HEX) } : { text }];
  });
  return formatAnswersBase(entries, revision);
}

/**
 * PUT /api/answer: merges the sent answers into the stored ones ('' removes a key), checked against
 * `base` when given (answers changed elsewhere are not overwritten). `keepalive` lets it finish
 * while the page closes.
 */
export const putAnswer = (body: StudentAnswers, options: { base: string | undefined; keepalive?: boolean }) =>
  dataOf(
    api.PUT('/api/answer', {
      body,
      ...(options.base === undefined ? {} : { params: { header: { 'X-Answers-Base': options.base } } }),
      ...(options.keepalive ? { keepalive: true } : {}),
    }),
  );
