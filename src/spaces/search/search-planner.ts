import { Injectable } from '@nestjs/common';
import { textSearchConfig } from '../../content-engine/search/search-languages';
import { correctable, searchTerms } from '../../content-engine/search/search-terms';
import { searchQuery, type LanguageTerms, type SearchQuery } from './search-query';
import { SearchRepository, type SearchScope } from './search.repository';

/**
 * The exact query finds fewer matching pages than this: the query's words are also corrected
 * to their nearest indexed words (typo tolerance), whose hits rank below the exact ones.
 */
export const FEW_HITS = 3;

/** Edits a correction may make: one in a word of up to five letters, two in longer ones. */
export const maxEdits = (text: string) => ([...text].length >= 6 ? 2 : 1);

/**
 * What a search runs: the query's terms analysed for each language of the spaces searched
 * (folding and stemming depend on it), and, when the exact query finds little, the same
 * query with typos corrected from the lexicon of those spaces.
 */
@Injectable()
export class SearchPlanner {
  constructor(private readonly search: SearchRepository) {}

  /** The query for spaces in `languages`; null when it has no term (it matches nothing). */
  exact(query: string, languages: (string | null)[]): SearchQuery | null {
    const analysed = new Map<string, LanguageTerms>();
    for (const language of languages) {
      const config = textSearchConfig(language);
      const terms = searchTerms(query, language);
      if (terms.length === 0) continue;
      const key = `${config} ${JSON.stringify(terms)}`;
      const same = analysed.get(key);
      if (same) same.languages.push(language);
      else analysed.set(key, { config, terms, languages: [language] });
    }
    return analysed.size === 0 ? null : searchQuery([...analysed.values()]);
  }

  /**
   * `exact` with each correctable term also matching its nearest words in the lexicons of
   * `scope`; null when no term has any (nothing to add).
   */
  async corrected(scope: SearchScope, exact: SearchQuery): Promise<SearchQuery | null> {
    const texts = [...new Set(exact.terms.filter(correctable).map((term) => term.text))];
    if (texts.length === 0) return null;
    const corrections = await this.search.corrections(
      scope,
      texts.map((text) => ({ text, maxEdits: maxEdits(text) })),
    );
    if (corrections.size === 0) return null;
    return searchQuery(exact.languages, corrections);
  }

  /**
   * Runs `run` with the exact query, and again with corrections when it found fewer than
   * FEW_HITS pages (`pagesFound` of its result) and there are corrections; `corrected` (from a
   * cursor) runs the corrected query straight away, so that later pages of results continue
   * the list the first one began.
   */
  async withTypos<R>(
    scope: SearchScope,
    exact: SearchQuery,
    corrected: boolean,
    run: (q: SearchQuery) => Promise<R>,
    pagesFound: (result: R) => number,
  ): Promise<{ result: R; q: SearchQuery }> {
    if (corrected) {
      const q = (await this.corrected(scope, exact)) ?? exact;
      return { result: await run(q), q };
    }
    const result = await run(exact);
    if (pagesFound(result) >= FEW_HITS) return { result, q: exact };
    const q = await this.corrected(scope, exact);
    return q ? { result: await run(q), q } : { result, q: exact };
  }
}
