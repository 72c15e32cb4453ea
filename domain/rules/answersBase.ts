/**
 * The `X-Answers-Base` header of PUT /api/answer (issue 28, docs/decisions/0017): for each sent
 * answer the page changed, the value it was changed from. Long texts travel as the first 16 hex
 * digits of their SHA-256, so the header stays small; each side hashes with its own crypto.
 */

/** Texts longer than this are sent as a hash. */
export const BASE_TEXT_MAX = 32;
export const BASE_HASH_HEX = 16;

export type KnownValue = { text: string } | { sha256: string };

/** The text an answer is compared by: '' for no answer. */
export const answerText = (value: string | number | boolean | null | undefined): string => (value === null || value === undefined ? '' : String(value));

export function formatAnswersBase(entries: Iterable<[string, KnownValue]>): string {
  const parts: string[] = [];
  for (const [key, known] of entries) parts.push(`${key}=${'sha256' in known ? `#${known.sha256}` : encodeURIComponent(known.text)}`);
  return parts.join(',');
}

/** The entries of a header, or null when it is not one (a bad key, a broken escape, a bad hash). */
export function parseAnswersBase(header: string): Map<string, KnownValue> | null {
  const known = new Map<string, KnownValue>();
  if (header.trim() === '') return known;
  for (const part of header.split(',')) {
    const match = /^([a-z0-9_]+)=(.*)$/.exec(part.trim());
    if (!match) return null;
    const [, key, value] = match as unknown as [string, string, string];
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
  return known;
}
