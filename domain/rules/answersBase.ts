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

/** At most this many other values an entry may give after its first. */
export const BASE_ALSO_MAX = 3;

const formatKnown = (known: KnownValue) => ('sha256' in known ? `#${known.sha256}` : encodeURIComponent(known.text));

/**
 * Entries of what the page knew of each answer it changed, then, optionally, other values the
 * account may hold instead: saves this browser sent that had not been answered (issue 48).
 */
export function formatAnswersBase(entries: Iterable<[string, KnownValue, ...KnownValue[]]>, revision: number | null = null): string {
  const parts: string[] = revision === null ? [] : [`${REVISION_KEY}=${revision}`];
  for (const [key, ...values] of entries) parts.push(`${key}=${values.map(formatKnown).join('|')}`);
  return parts.join(',');
}

export interface AnswersBase {
  /** The answers' revision the page knows; null: it knows none (every answer sent is compared). */
  revision: number | null;
  known: Map<string, KnownValue>;
  /** Other values the account may hold for a key instead of its `known` one: any of them is overwritten. */
  alsoKnown: Map<string, KnownValue[]>;
}

const HASH = new RegExp(`^#[0-9a-f]{${BASE_HASH_HEX}}$`);

/** One value of an entry: `#` and a hash, or URL-encoded text; null when it is neither. */
function parseKnown(value: string): KnownValue | null {
  if (value.startsWith('#')) return HASH.test(value) ? { sha256: value.slice(1) } : null;
  try {
    return { text: decodeURIComponent(value) };
  } catch {
    return null;
  }
}

/** The entries of a header, or null when it is not one (a bad key, a broken escape, a bad hash). */
export function parseAnswersBase(header: string): AnswersBase | null {
  const known = new Map<string, KnownValue>();
  const alsoKnown = new Map<string, KnownValue[]>();
  let revision: number | null = null;
  if (header.trim() === '') return { revision, known, alsoKnown };
  for (const part of header.split(',')) {
    const match = /^([a-z0-9_]+)=(.*)$/.exec(part.trim());
    if (!match) return null;
    const key = match[1]!;
    const value = match[2]!;
    if (key === REVISION_KEY) {
      if (!/^\d{1,9}$/.test(value)) return null;
      revision = Number(value);
      continue;
    }
    const values = value.split('|');
    if (values.length > 1 + BASE_ALSO_MAX) return null;
    const [first, ...others] = values.map(parseKnown);
    if (!first || others.some((other) => other === null)) return null;
    known.set(key, first);
    if (others.length > 0) alsoKnown.set(key, others as KnownValue[]);
  }
  return { revision, known, alsoKnown };
}
