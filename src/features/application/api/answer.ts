import type { components } from '../../../../generated/api';
import { answerText, BASE_HASH_HEX, BASE_TEXT_MAX, formatAnswersBase, type KnownValue } from '../../../../domain/rules/answersBase';
import { api, dataOf } from '../../../lib/api/client';

export type StudentAnswers = components['schemas']['StudentAnswers'];

async function sha256Prefix(text: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  // Pages served over plain HTTP off localhost have no SubtleCrypto: the text itself is sent.
  if (!subtle) return null;
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, BASE_HASH_HEX);
}

/** The X-Answers-Base header: the revision the page knows, and what it knew of each answer it changed (long texts as a hash). */
export async function answersBaseHeader(known: StudentAnswers, changed: readonly string[], revision: number | null): Promise<string> {
  const entries: Array<[string, KnownValue]> = [];
  for (const key of changed) {
    const text = answerText(known[key]);
    const hash = text.length > BASE_TEXT_MAX ? await sha256Prefix(text) : null;
    entries.push([key, hash ? { sha256: hash } : { text }]);
  }
  return formatAnswersBase(entries, revision);
}

/**
 * PUT /api/answer: merges the sent answers into the stored ones ('' removes a key), checked against
 * `base` (answers changed elsewhere are not overwritten). `keepalive` lets it finish while the page closes.
 */
export const putAnswer = (body: StudentAnswers, options: { base: string; keepalive?: boolean }) =>
  dataOf(api.PUT('/api/answer', { body, params: { header: { 'X-Answers-Base': options.base } }, ...(options.keepalive ? { keepalive: true } : {}) }));
