import type { SearchRuns } from '../spaces/search/search.service';

/** A page an answer may draw from: where it is, and the sections of it the searches found. */
export interface RetrievedPage {
  spaceId: string;
  spaceTitle: string;
  pageId: string;
  title: string;
  /** Titles of the pages above it, top first. */
  ancestors: string[];
  sections: { id: string; title: string; body: string }[];
  /** Reciprocal-rank score over the searches that found it. */
  score: number;
}

/**
 * Words a question is asked with that say nothing of what it is about, in English, French,
 * German and Spanish (the question words, articles, pronouns and prepositions).
 */
const FILLER = new Set(
  [
    // English
    'a an and are as at be by can could do does did for from get got have has how i if in into',
    'is it its me my of on or our please should so that the their them then there these this',
    'to use using was we what when where which who why will with would you your',
    // French
    'au aux ce ces cette comment dans de des du en est et faire il je la le les mes mon ma on',
    'ou peut pour puis quel quelle quelles quels que qui quoi sur un une avec',
    // German
    'an auf das dem den der des die ein eine einem einen einer für ich im ist kann man mein',
    'meine mit nicht oder sich und von was welche welcher welches werden wie wird wo zu',
    // Spanish
    'al como cómo con cuál cuáles del el en es hay las lo los mi mis para por puede puedo qué',
    'se su sus una unas uno unos y',
  ]
    .join(' ')
    .split(' '),
);
/**
 * Pages each list of the retrieval holds (the search by words' best, those of the sections
 * nearest in meaning): the fusion's candidates for the SOURCE_PAGES sources.
 */
export const RETRIEVED_PAGES = 20;
/** Words of a question searched, at most (a question is rarely longer). */
const MAX_WORDS = 12;
/**
 * The reciprocal-rank constant of the fusion of the search by words and the search by
 * meaning: a page's score is the sum, over the lists that have it, of the list's weight /
 * (K + its rank).
 */
const RRF_K = 3;
/** The weight of the search by meaning (the search by words weighs 1). */
const MEANING_WEIGHT = 0.5;

/**
 * The words of a question that say what it is about: its words (runs of letters and digits)
 * without the fillers of FILLER, each once, in the question's order, at most MAX_WORDS. The
 * search by words ranks the pages that have any of them (SearchService.searchSpacesByWords).
 */
export function tellingWords(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length >= 2 && !FILLER.has(word));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * The pages of `searches` (SearchService.retrieve's: by words, then by meaning), one entry per
 * page, ranked by weighted reciprocal rank fusion (the search by meaning weighs
 * MEANING_WEIGHT), best first; the first `limit`.
 */
export function fusePages(searches: SearchRuns, limit: number): RetrievedPage[] {
  const pages = new Map<string, RetrievedPage>();
  for (const search of searches.runs) {
    const weight = search.byMeaning ? MEANING_WEIGHT : 1;
    const ranked = search.items
      .flatMap((space) => space.pages.map((page) => ({ space, page })))
      .sort((a, b) => b.page.score - a.page.score);
    ranked.forEach(({ space, page }, rank) => {
      const key = `${space.id}/${page.id}`;
      let found = pages.get(key);
      if (!found) {
        found = {
          spaceId: space.id,
          spaceTitle: space.title,
          pageId: page.id,
          title: page.title,
          ancestors: page.ancestors.map((ancestor) => ancestor.title),
          sections: [],
          score: 0,
        };
        pages.set(key, found);
      }
      found.score += weight / (RRF_K + rank + 1);
      for (const section of page.sections) {
        if (!found.sections.some((known) => known.id === section.id)) {
          found.sections.push({ id: section.id, title: section.title, body: section.body });
        }
      }
    });
  }
  return [...pages.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
