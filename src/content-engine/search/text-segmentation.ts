/**
 * Word segmentation for the scripts written without spaces between words, so that a word
 * inside a sentence is found. PostgreSQL's parser takes a run of such characters as one word.
 *
 * - Chinese, Japanese and Korean: overlapping character bigrams, as Lucene's CJK analyzer
 *   does. A word of two or more characters is a substring of the sentence that holds it, so
 *   its bigrams are among the sentence's, whatever the dictionary says a word is; Korean
 *   particles (검색을 → 검색 색을) are covered the same way.
 * - Thai, Lao, Khmer, Myanmar: dictionary words from ICU (`Intl.Segmenter`), which these
 *   scripts need (their characters are letters of an alphabet, so bigrams would be noise).
 */

/** Han, kana and Hangul (with the iteration mark 々 and the prolonged sound mark ー). */
export const CJK_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}々ー]+/gu;
/** Scripts that ICU segments with a dictionary, written without spaces. */
const SOUTHEAST_ASIAN_RUN = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;

const cjWords = new Intl.Segmenter('ja', { granularity: 'word' });
const southeastAsianWords = new Intl.Segmenter('th', { granularity: 'word' });

/** Overlapping bigrams of a run of CJK characters; a one-character run is itself. */
export function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** ICU's words of a Thai (Lao, Khmer, Myanmar) run. */
function dictionaryWords(run: string): string[] {
  return [...southeastAsianWords.segment(run)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment);
}

/**
 * A (folded) text as PostgreSQL's parser should see it: CJK runs replaced by their bigrams
 * and Thai-like runs by their words, space-separated; everything else as it is.
 */
export function segmentForIndex(text: string): string {
  return text
    .replace(CJK_RUN, (run) => ` ${bigrams(run).join(' ')} `)
    .replace(SOUTHEAST_ASIAN_RUN, (run) => ` ${dictionaryWords(run).join(' ')} `);
}

/** A search term: a whole word (or bigram), or a prefix of words. */
export interface QueryTerm {
  text: string;
  prefix: boolean;
}

/**
 * The terms of a CJK run of a query: ICU words first (so that no bigram spans a word the user
 * typed next to a particle, as in バックアップの復元), then each word's bigrams. A word of one
 * character matches as a prefix of the indexed bigrams; a lone hiragana (a particle) is left out.
 */
export function cjkQueryTerms(run: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  for (const segment of cjWords.segment(run)) {
    const word = segment.segment;
    const length = [...word].length;
    if (length === 1) {
      if (!HIRAGANA_ONLY.test(word)) terms.push({ text: word, prefix: true });
      continue;
    }
    for (const bigram of bigrams(word)) terms.push({ text: bigram, prefix: false });
  }
  return terms;
}

/** The words of a Thai (Lao, Khmer, Myanmar) run of a query. */
export function southeastAsianQueryTerms(run: string): QueryTerm[] {
  return dictionaryWords(run).map((text) => ({ text, prefix: false }));
}

export const SOUTHEAST_ASIAN =
  /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
export const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}々ー]/u;
