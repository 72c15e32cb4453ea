/**
 * How the applications list folds names for search, in SQL: the database's `staff_names_fold`
 * (migration 0010, this expression of `names`) folds the stored names in the search's index, and
 * the search text is folded by `fold()` of the lookups. The two agree on lower case, apostrophes, '&', punctuation
 * and every precomposed Latin letter (Latin-1, Extended-A and -B, Extended Additional): the table
 * below is built from Unicode's own decompositions, as fold() strips them.
 */
const LATIN_RANGES: [number, number][] = [
  [0x00c0, 0x024f],
  [0x1e00, 0x1eff],
];
/** Letters with no decomposition that fold() maps itself (searchText.ts), in both cases. */
const undecomposed: Record<string, string> = { ø: 'o', Ø: 'o', ł: 'l', Ł: 'l', đ: 'd', Đ: 'd', ı: 'i', ð: 'd', Ð: 'd' };
const twoLetters: [string, string][] = [
  ['ß', 'ss'],
  ['ẞ', 'ss'],
  ['æ', 'ae'],
  ['Æ', 'ae'],
  ['œ', 'oe'],
  ['Œ', 'oe'],
  ['þ', 'th'],
  ['Þ', 'th'],
];

/** Every precomposed Latin letter that folds to one ASCII letter, and that letter. */
function singleLetters(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (const [first, last] of LATIN_RANGES) {
    for (let code = first; code <= last; code++) {
      const letter = String.fromCodePoint(code);
      const plain = undecomposed[letter] ?? letter.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
      if (/^[a-z]$/.test(plain) && plain !== letter) {
        from += letter;
        to += plain;
      }
    }
  }
  return { from, to };
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The SQL expression that folds a text expression as `fold()` does (immutable: fit for a generated column). */
export function foldSql(expression: string): string {
  // lower() of a database in the C locale lowers only ASCII: the capitals are in the table too.
  const letters = singleLetters();
  // Apostrophes are dropped (in `from` with nothing in `to`), as fold() does.
  const from = `${letters.from}'’‘\``;
  const to = letters.to;

  let folded = `translate(${expression}, ${quote(from)}, ${quote(to)})`;
  for (const [letter, plain] of twoLetters) folded = `replace(${folded}, ${quote(letter)}, ${quote(plain)})`;
  return `trim(regexp_replace(replace(lower(${folded}), '&', ' and '), '[^a-z0-9]+', ' ', 'g'))`;
}
