/**
 * How the applications list folds names for search (issue 32: names in any script, and across
 * apostrophes). The database's `staff_names_fold` (migrations 0031 and 0051, `foldSql('names')`) folds the
 * stored names in the search's index; `foldName` folds the text typed. Both are built from the
 * tables below, so they agree character for character (a test compares them):
 * - every precomposed Latin letter to its ASCII letter (Unicode's own decompositions), fullwidth
 *   letters and digits to ASCII, and the capitals of Greek, Cyrillic and Armenian to their lower
 *   case (what lower() lowers besides ASCII depends on the database's locale); Greek letters
 *   without their accents, and its final sigma as a sigma (migration 0051);
 * - combining accents dropped (a name typed decomposed folds as one typed precomposed);
 * - punctuation and symbols (ASCII, Latin-1, general, CJK and fullwidth) read as spaces, `&` as
 *   "and"; letters and digits of every other script kept as they are (王, 美玲, محمد);
 * - the stored names twice: apostrophes dropped ("oconnor"), then read as spaces ("o connor"), so
 *   "connor", "oconnor" and "O'Connor" all find O'Connor. The typed text drops them.
 */
const LATIN_RANGES: [number, number][] = [
  [0x00c0, 0x024f],
  [0x1e00, 0x1eff],
];
/** Cased scripts besides Latin: their capitals are lowered by the table. */
const OTHER_CASED_RANGES: [number, number][] = [
  [0x0370, 0x03ff],
  [0x0400, 0x052f],
  [0x0531, 0x0556],
];
/**
 * Greek, monotonic and polytonic: its accents and breathings are dropped as Latin's are (a Greek
 * name is typed in capitals without them, ΠΑΠΑΔΟΠΟΥΛΟΣ, or in lower case without, παπαδοπουλος:
 * both find Παπαδόπουλος; issue 51), and the final sigma is a sigma. Cyrillic keeps its й and ё.
 */
const GREEK_RANGES: [number, number][] = [
  [0x0370, 0x03ff],
  [0x1f00, 0x1fff],
];
const FINAL_SIGMA: [string, string] = ['ς', 'σ'];
/** Read as spaces: ASCII and Latin-1 punctuation and symbols, general punctuation, CJK punctuation, the katakana middle dot, fullwidth punctuation. */
const SEPARATOR_RANGES: [number, number][] = [
  [0x01, 0x2f],
  [0x3a, 0x40],
  [0x5b, 0x60],
  [0x7b, 0xbf],
  [0xd7, 0xd7],
  [0xf7, 0xf7],
  [0x2000, 0x206f],
  [0x3000, 0x303f],
  [0x30fb, 0x30fb],
  [0xff01, 0xff0f],
  [0xff1a, 0xff20],
  [0xff3b, 0xff40],
  [0xff5b, 0xff65],
];
const APOSTROPHES = "'’‘`";
const FULLWIDTH_ALPHANUMERIC_RANGES: [number, number][] = [
  [0xff10, 0xff19],
  [0xff21, 0xff3a],
  [0xff41, 0xff5a],
];
/** Combining accents (U+0300–U+036F): dropped. */
const COMBINING: [number, number] = [0x0300, 0x036f];
/** Letters with no decomposition, folded by hand, in both cases. */
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

const charsOf = (ranges: readonly [number, number][]) => ranges.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i)));

/** Each character the fold maps to one other (a letter to its plain or lower form, a separator to a space). */
function singleMappings(): Map<string, string> {
  const map = new Map<string, string>();
  for (const letter of charsOf(LATIN_RANGES)) {
    const plain = undecomposed[letter] ?? letter.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
    if (/^[a-z]$/.test(plain) && plain !== letter) map.set(letter, plain);
  }
  for (const letter of charsOf(OTHER_CASED_RANGES)) {
    const lower = letter.toLowerCase();
    if (lower !== letter && [...lower].length === 1) map.set(letter, lower);
  }
  for (const letter of charsOf(GREEK_RANGES)) {
    const plain = letter.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
    if (plain !== letter && [...plain].length === 1 && /\p{Script=Greek}/u.test(plain)) map.set(letter, plain);
  }
  map.set(...FINAL_SIGMA);
  // Fullwidth letters and digits (Ｊｏｈｎ, typed with a CJK keyboard) as their ASCII forms.
  for (const wide of charsOf(FULLWIDTH_ALPHANUMERIC_RANGES)) map.set(wide, String.fromCodePoint(wide.codePointAt(0)! - 0xfee0).toLowerCase());
  for (const separator of charsOf(SEPARATOR_RANGES)) if (!APOSTROPHES.includes(separator) && !map.has(separator)) map.set(separator, ' ');
  return map;
}

const mappings = singleMappings();
const combining = new Set(charsOf([COMBINING]));

/** The typed search text folded as the index folds the names (apostrophes dropped). */
export function foldName(text: string): string {
  let folded = '';
  for (const char of text.replaceAll('&', ' and ')) {
    if (APOSTROPHES.includes(char) || combining.has(char)) continue;
    folded += mappings.get(char) ?? char;
  }
  for (const [letter, plain] of twoLetters) folded = folded.replaceAll(letter, plain);
  return folded.replace(/[A-Z]/g, (letter) => letter.toLowerCase()).replace(/ +/g, ' ').trim();
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** One reading of the names in SQL: apostrophes dropped, or read as spaces. */
function foldOnce(expression: string, apostrophes: 'dropped' | 'spaces'): string {
  const from = [...mappings.keys()].join('');
  const to = [...mappings.values()].join('');
  // translate() drops the characters of `from` past the end of `to`: the combining accents, and
  // the apostrophes when they are dropped.
  const marks = charsOf([COMBINING]).join('');
  const translated =
    apostrophes === 'dropped'
      ? `translate(replace(${expression}, '&', ' and '), ${quote(from + marks + APOSTROPHES)}, ${quote(to)})`
      : `translate(replace(${expression}, '&', ' and '), ${quote(from + APOSTROPHES + marks)}, ${quote(to + ' '.repeat(APOSTROPHES.length))})`;
  let folded = translated;
  for (const [letter, plain] of twoLetters) folded = `replace(${folded}, ${quote(letter)}, ${quote(plain)})`;
  return `trim(regexp_replace(lower(${folded}), ' +', ' ', 'g'))`;
}

/** The SQL expression that folds names for the index (immutable: fit for an index expression). */
export function foldSql(expression: string): string {
  return `${foldOnce(expression, 'dropped')} || ' ' || ${foldOnce(expression, 'spaces')}`;
}
