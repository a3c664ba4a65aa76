import { TEXT_SEARCH_CONFIGS } from '../../content-engine/search/search-languages';
import { tsqueryText, type QueryTerm } from '../../content-engine/search/search-terms';

/** A query's terms as analysed for some languages of the spaces searched. */
export interface LanguageTerms {
  /** The text-search configuration of those languages (`textSearchConfig`). */
  config: string;
  terms: QueryTerm[];
  /** The space languages (null: none set) whose spaces are searched with these terms. */
  languages: (string | null)[];
}

/**
 * A search as SQL over named parameters (`:sq_…`), for the statements of SearchRepository,
 * which select `columns` as `q` (and join the space searched as `s` when `perLanguage`):
 * - `q.query`: the tsquery a page matches: every term (or one of its corrections), in any of
 *   the languages of the spaces searched (what the GIN index is asked);
 * - `own` and `ownExact`: the query in the language of the page's space `s`, with and without
 *   corrections: a page must match the former, and ranks in a tier above when it matches
 *   the latter (the same as `q.query` when every space searched has one language);
 * - `q.any`: any one term or correction, for the sections to show of a matching page.
 */
export interface SearchQuery {
  columns: string;
  own: string;
  ownExact: string;
  /** Whether `own` reads the language of the space `s`. */
  perLanguage: boolean;
  params: Record<string, unknown>;
  /** What it was written from. */
  languages: LanguageTerms[];
  /** The terms and their corrections, for excerpts. */
  terms: QueryTerm[];
  corrections: ReadonlyMap<string, string[]>;
  /** Whether corrections were added (the query is exact otherwise). */
  corrected: boolean;
}

/** Above any ts_rank of a page's vector: exact matches rank in a tier of their own. */
export const EXACT_TIER = 10;

/**
 * The search's SQL for `languages` (one entry per analysis of the query: languages whose
 * folding and stemming agree share one). A prefix term matches its own stem, or an unstemmed
 * word it begins (`tsqueryText`). Config names come from TEXT_SEARCH_CONFIGS only, so they are written into the SQL
 * as literals; everything the user typed, and the languages, are parameters.
 */
export function searchQuery(
  languages: LanguageTerms[],
  corrections: ReadonlyMap<string, string[]> = new Map(),
): SearchQuery {
  const params: Record<string, unknown> = {};
  const columns: string[] = [];
  const anys: string[] = [];
  const owns: string[] = [];
  const ownExacts: string[] = [];
  languages.forEach(({ config, terms, languages: spaceLanguages }, i) => {
    if (!TEXT_SEARCH_CONFIGS.has(config)) throw new Error(`Unknown search config ${config}`);
    const cfg = `'${config}'::regconfig`;
    const fuzzy = tsqueryText(terms, corrections);
    const exact = tsqueryText(terms);
    Object.assign(params, {
      [`sq_words${i}`]: fuzzy.words,
      [`sq_prefix_words${i}`]: fuzzy.prefixWords,
      [`sq_prefixes${i}`]: fuzzy.prefixes,
      [`sq_exact_words${i}`]: exact.words,
      [`sq_exact_prefix_words${i}`]: exact.prefixWords,
      [`sq_exact_prefixes${i}`]: exact.prefixes,
      [`sq_any${i}`]: fuzzy.any,
      [`sq_any_prefixes${i}`]: fuzzy.anyPrefixes,
      [`sq_languages${i}`]: spaceLanguages.filter((language) => language !== null),
    });
    const all = (kind: string) =>
      `(to_tsquery(${cfg}, :sq_${kind}words${i}) && (to_tsquery(${cfg}, :sq_${kind}prefix_words${i})
        || to_tsquery('simple', :sq_${kind}prefixes${i})))`;
    columns.push(`${all('')} AS query${i}`, `${all('exact_')} AS exact${i}`);
    anys.push(`(to_tsquery(${cfg}, :sq_any${i}) || to_tsquery('simple', :sq_any_prefixes${i}))`);
    const when = [
      ...(spaceLanguages.includes(null) ? ['s.language IS NULL'] : []),
      `s.language = ANY(:sq_languages${i}::varchar[])`,
    ].join(' OR ');
    owns.push(`WHEN ${when} THEN q.query${i}`);
    ownExacts.push(`WHEN ${when} THEN q.exact${i}`);
  });
  const union = languages.map((_language, i) => `q0.query${i}`).join(' || ');
  const perLanguage = languages.length > 1;
  return {
    columns: `q0.*, ${union} AS query, (${anys.join(' || ')}) AS any
      FROM (SELECT ${columns.join(',\n')}) q0`,
    own: perLanguage ? `(CASE ${owns.join(' ')} END)` : 'q.query0',
    ownExact: perLanguage ? `(CASE ${ownExacts.join(' ')} END)` : 'q.exact0',
    perLanguage,
    params,
    languages,
    terms: languages.flatMap((language) => language.terms),
    corrections,
    corrected: [...corrections.values()].some((words) => words.length > 0),
  };
}
