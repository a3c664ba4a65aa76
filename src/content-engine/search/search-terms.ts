import { foldText } from './text-folding';
import {
  CJK,
  CJK_RUN,
  cjkQueryTerms,
  segmentForIndex,
  SOUTHEAST_ASIAN,
  southeastAsianQueryTerms,
  type QueryTerm,
} from './text-segmentation';

export type { QueryTerm } from './text-segmentation';

/** Runs of letters, marks and digits: everything else separates words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Terms kept of one query: more is not a search anyone types, and bounds the SQL. */
const MAX_TERMS = 32;
/** Shortest word that matches as a prefix: one Latin letter would match half the index. */
const MIN_PREFIX = 2;

/**
 * The text of a section as the index parses it: folded (case, accents; in German, umlaut
 * digraphs) and segmented (CJK bigrams, Thai words). See `searchTerms` for the query side.
 */
export function indexText(text: string, language: string | null): string {
  return segmentForIndex(foldText(text, language));
}

/**
 * The terms of a user's query, analysed as `indexText` analyses sections: whole words (runs of
 * letters and digits; everything else separates them), the last one also as a prefix, and
 * CJK and Thai runs cut into the terms their index holds. Empty when there is no word: such a
 * query matches nothing. Terms hold letters, marks and digits only, so no input can change the
 * structure of the tsquery written from them (`tsqueryText`).
 */
export function searchTerms(query: string, language: string | null): QueryTerm[] {
  const words = foldText(query, language).match(WORD) ?? [];
  const terms: QueryTerm[] = [];
  words.forEach((word, index) => {
    const last = index === words.length - 1;
    for (const part of splitScripts(word)) {
      if (CJK.test(part)) terms.push(...cjkQueryTerms(part));
      else if (SOUTHEAST_ASIAN.test(part)) terms.push(...southeastAsianQueryTerms(part));
      else terms.push({ text: part, prefix: last && [...part].length >= MIN_PREFIX });
    }
  });
  const seen = new Set<string>();
  return terms
    .filter((term) => {
      const key = `${term.prefix ? '*' : ''}${term.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_TERMS);
}

/** A word cut where it changes between CJK and other scripts (`APIの認証`: `API`, `の認証`). */
function splitScripts(word: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const match of word.matchAll(CJK_RUN)) {
    if (match.index > last) parts.push(word.slice(last, match.index));
    parts.push(match[0]);
    last = match.index + match[0].length;
  }
  if (last < word.length) parts.push(word.slice(last));
  return parts;
}

/**
 * The terms a typo may be corrected in: words of an alphabet long enough for trigrams to say
 * anything (CJK bigrams and short words have no near neighbours worth trusting).
 */
export function correctable(term: QueryTerm): boolean {
  return [...term.text].length >= 4 && !CJK.test(term.text) && !/^\p{N}+$/u.test(term.text);
}

/** `to_tsquery` input for a query's terms (see `tsqueryText`). */
export interface TsqueryText {
  /** The whole terms (a term with corrections as `('term' | 'correction' …)`), AND-ed. */
  words: string;
  /** The prefix terms as whole words, for the stemming configuration. */
  prefixWords: string;
  /** The prefix terms as prefixes (`'term':*`), for the unstemmed words (`simple`). */
  prefixes: string;
  /** Every term and correction, OR-ed, for the sections to show (prefixes: `anyPrefixes`). */
  any: string;
  anyPrefixes: string;
}

/**
 * `to_tsquery` input for the terms. A prefix term matches an unstemmed word it begins, or its
 * own stem: never a word that begins with its stem, which would let `evenements` (stemmed
 * `even` in English) find `events`. Terms are letters, marks and digits only.
 */
export function tsqueryText(
  terms: QueryTerm[],
  corrections: ReadonlyMap<string, string[]> = new Map(),
): TsqueryText {
  const quote = (text: string) => `'${text}'`;
  const alternatives = (term: QueryTerm, own: string) => [
    own,
    ...(corrections.get(term.text) ?? []).map(quote),
  ];
  const group = (parts: string[]) => (parts.length === 1 ? parts[0] : `(${parts.join(' | ')})`);
  const whole = terms.filter((term) => !term.prefix);
  const prefixes = terms.filter((term) => term.prefix);
  const and = (list: QueryTerm[], own: (term: QueryTerm) => string) =>
    list.map((term) => group(alternatives(term, own(term)))).join(' & ');
  return {
    words: and(whole, (term) => quote(term.text)),
    prefixWords: and(prefixes, (term) => quote(term.text)),
    prefixes: and(prefixes, (term) => `${quote(term.text)}:*`),
    any: terms.flatMap((term) => alternatives(term, quote(term.text))).join(' | '),
    anyPrefixes: prefixes.map((term) => `${quote(term.text)}:*`).join(' | '),
  };
}
