/**
 * Trigram similarity a correction needs at least, whatever the term (pg_trgm's default, 0.3,
 * misses two-letter swaps in short words: `recrod`/`record` is 0.27); the edit distance bound
 * does the rest.
 */
export const CORRECTION_SIMILARITY = 0.2;

/** pg_trgm's trigrams of one word: padded with two spaces before and one after, each once. */
export function trigramsOf(word: string): Set<string> {
  const padded = [...`  ${word.toLowerCase()} `];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3).join(''));
  return trigrams;
}

/**
 * The least trigram similarity a word within `maxEdits` edits of `term` can have with it. An
 * edit (substitution, insertion, deletion) breaks at most three of the term's trigrams, so of
 * the term's t distinct trigrams the word keeps at least t − 3e, and a word of at most n + e
 * letters has at most n + e + 1 trigrams: similarity = shared / (t + its own − shared) ≥
 * (t − 3e) / (n + 1 + 4e). A word under it is no correction, so the trigram index need not
 * hand it over.
 */
export function leastSimilarity(term: string, maxEdits: number): number {
  const t = trigramsOf(term).size;
  const n = [...term].length;
  return Math.max(0, (t - 3 * maxEdits) / (n + 1 + 4 * maxEdits));
}

/**
 * The similarity threshold of one statement looking up corrections for `terms`: for each
 * term, CORRECTION_SIMILARITY or, when higher, the least similarity a correction within its
 * edits has (long words: `authentcation` 0.36), and of those the lowest, so that no term loses
 * a correction it finds at CORRECTION_SIMILARITY. The index hands over far fewer words for a
 * long term: measured at 217,000 words, see bench/README.md, "Search benchmark".
 */
export function correctionThreshold(terms: { text: string; maxEdits: number }[]): number {
  const own = terms.map((term) =>
    // pg_trgm's `%` wants more than the threshold, and computes in single precision.
    Math.max(CORRECTION_SIMILARITY, leastSimilarity(term.text, term.maxEdits) - MARGIN),
  );
  return own.length === 0 ? CORRECTION_SIMILARITY : Math.min(...own);
}

const MARGIN = 0.001;
