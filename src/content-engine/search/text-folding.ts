/**
 * Folding: what makes `Paramètres`, `PARAMETRES` and `parametres` one word for search. Done
 * here rather than with PostgreSQL's `unaccent` so that the index, the query and the excerpt
 * (which must find a hit's place in the original text) fold alike, on every database.
 */

/** Scripts whose combining marks are accents to drop (not kana voicing, not Cyrillic й). */
const ACCENTED_BASE = /[\p{Script=Latin}\p{Script=Greek}]/u;
const COMBINING_MARK = /\p{M}/u;

/** Letters that decompose to no base letter, and Cyrillic ё (written е in most texts). */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ё: 'е',
};

/**
 * Lucene's German normalization: `ae`, `oe`, `ue` are how umlauts are typed without them, so
 * in German spaces `Groessenaenderung` and `Größenänderung` both fold to `grossenanderung`.
 */
const GERMAN_DIGRAPH = /(?<=[aou])e/g;

/** A folded text, and for each of its characters the offset of its source in the original. */
export interface FoldedText {
  text: string;
  /** `sources[i]`: the offset in the original of the character that gave `text[i]` (UTF-16). */
  sources: number[];
}

/**
 * Lower case, NFKC (full-width forms, ligatures), accents dropped from Latin and Greek letters,
 * ß → ss, ё → е; in German, umlaut digraphs folded too. Keeps every other character, so that
 * PostgreSQL's parser still sees the same punctuation.
 */
export function foldText(text: string, language: string | null = null): string {
  return foldWithSources(text, language).text;
}

/** `foldText`, remembering where each folded character came from (for excerpts). */
export function foldWithSources(text: string, language: string | null = null): FoldedText {
  const out: string[] = [];
  const sources: number[] = [];
  let accentable = false;
  for (let offset = 0; offset < text.length;) {
    const code = text.charCodeAt(offset);
    if (code < 0x80) {
      // ASCII, most of most texts: only case to fold.
      out.push(code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[offset]);
      sources.push(offset);
      accentable = (code | 32) >= 97 && (code | 32) <= 122;
      offset += 1;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(offset)!);
    const mark = COMBINING_MARK.test(char);
    // A decomposed accent (e + U+0301) goes with the letter before it.
    const folded = accentable && mark ? '' : foldChar(char);
    if (!mark) accentable = ACCENTED_BASE.test(char);
    out.push(folded);
    for (let unit = 0; unit < folded.length; unit++) sources.push(offset);
    offset += char.length;
  }
  const folded = out.join('');
  if (language !== 'de') return { text: folded, sources };
  const dropped = new Set<number>();
  const german = folded.replace(GERMAN_DIGRAPH, (_match, at: number) => {
    dropped.add(at);
    return '';
  });
  return { text: german, sources: sources.filter((_source, i) => !dropped.has(i)) };
}

/** Folded forms of the non-ASCII characters met so far: a text repeats few of them. */
const FOLDED = new Map<string, string>();

/** One character's folded form ('' when it is an accent alone). */
function foldChar(char: string): string {
  let folded = FOLDED.get(char);
  if (folded === undefined) {
    folded = foldUncached(char);
    // Bounded: a text in a large alphabet (CJK) must not grow it without end.
    if (FOLDED.size < 50_000) FOLDED.set(char, folded);
  }
  return folded;
}

function foldUncached(char: string): string {
  const lower = char.normalize('NFKC').toLowerCase();
  const special = SPECIAL[lower];
  if (special !== undefined) return special;
  const decomposed = lower.normalize('NFD');
  if (decomposed.length === lower.length || !ACCENTED_BASE.test(decomposed[0])) return lower;
  let base = '';
  for (const unit of decomposed) if (!COMBINING_MARK.test(unit)) base += unit;
  return base;
}
