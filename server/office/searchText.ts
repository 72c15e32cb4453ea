/**
 * The folded form lookups compare: lower case, accents and punctuation gone, apostrophes dropped
 * (so "marys" finds "St. Mary's"), "&" read as "and". The same function folds the records when they
 * are loaded and the text an applicant types, so the database compares like with like.
 */
const letterReplacements: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th' };

export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđıþ]/g, (letter) => letterReplacements[letter] ?? letter)
    .replace(/['’‘`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** At most this many words of a search are used; more only narrow an already short list. */
const MAX_SEARCH_WORDS = 8;

/** Every word must start a word of the record: `east:* & hi:*`. Folded words hold no punctuation (letters and digits of any script). */
export function prefixQuery(folded: string): string | null {
  const words = folded.split(' ').filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  return words.length === 0 ? null : words.map((word) => `${word}:*`).join(' & ');
}
