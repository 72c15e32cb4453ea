/**
 * The `X-Answers-Base` header of PUT /api/answer (issue 28, docs/decisions/0017): the answers'
 * revision the page knows, and for each sent answer the page changed, the value it was changed from. Long texts travel as the first 16 hex
 * digits of their SHA-256, so the header stays small; each side hashes with its own crypto.
 */

/** Texts longer than this are sent as a hash. */
export const BASE_TEXT_MAX = 32;
export const BASE_HASH_HEX = 16;

export type KnownValue = { text: string } | { sha256: string };

/** The text an answer is compared by: '' for no answer. */
export const answerText = (value: string | number | boolean | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** The entry that carries the answers' revision the page knows (no answer key starts with '_'). */
const REVISION_KEY = '_rev';

export function formatAnswersBase(entries: Iterable<[string, KnownValue]>, revision: number | null = null): string {
  const parts: string[] = revision === null ? [] : [`${REVISION_KEY}=${revision}`];
  for (const [key, known] of entries) parts.push(`${key}=${'sha256' in known ? `#${known.sha256}` : encodeURIComponent(known.text)}`);
  return parts.join(',');
}

export interface AnswersBase {
  /** The answers' revision the page knows; null: it knows none (every answer sent is compared). */
  revision: number | null;
  known: Map<string, KnownValue>;
}

/** The entries of a header, or null when it is not one (a bad key, a broken escape, a bad hash). */
export function parseAnswersBase(header: string): AnswersBase | null {
  const known = new Map<string, KnownValue>();
  let revision: number | null = null;
  if (header.trim() === '') return { revision, known };
  for (const part of header.split(',')) {
    const match = /^([a-z0-9_]+)=(.*)$/.exec(part.trim());
    if (!match) return null;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === REVISION_KEY) {
      if (!/^\d{1,9}$/.test(value)) return null;
      revision = Number(value);
      continue;
    }
    if (value.startsWith('#')) {
      if (!new RegExp(`^#[0-9a-f]{${BASE_HASH_HEX}}$`).test(value)) return null;
      known.set(key, { sha256: value.slice(1) });
      continue;
    }
    try {
      known.set(key, { text: decodeURIComponent(value) });
    } catch {
      return null;
    }
  }
  return { revision, known };
}
