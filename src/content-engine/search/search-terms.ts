/** The words of a search, as given to PostgreSQL: whole words, and the last one as a prefix. */
export interface SearchTerms {
  /** Every word but the last, space-separated, for `plainto_tsquery` (which parses no syntax). */
  words: string;
  /** The last word, letters and digits only, so that `to_tsquery(prefix || ':*')` is safe. */
  prefix: string;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a user's query (runs of letters and digits; everything else separates them).
 * Null when there is no word at all: such a query matches nothing. Nothing of the input
 * reaches tsquery syntax except these words, so no input can change the query's structure.
 */
export function searchTerms(query: string): SearchTerms | null {
  const words = query.normalize('NFKC').match(WORD) ?? [];
  if (words.length === 0) return null;
  const prefix = words[words.length - 1];
  return { words: words.slice(0, -1).join(' '), prefix };
}
