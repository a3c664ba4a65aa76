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
/** Words of a question searched alone, at most. */
const MAX_WORDS = 10;
/** Of those, the ones that match the fewest pages are fused. */
const FUSED_WORDS = 8;
/**
 * The reciprocal-rank constant: a page's score is the sum, over the searches that found it, of
 * the search's weight / (K + its rank). Small, so that a page one search ranks first counts
 * for more than one that several rank tenth (measured: bench/answers-quality.js).
 */
const RRF_K = 3;
/** The weight of the search by meaning (the whole question's by words weighs 1). */
const MEANING_WEIGHT = 2;

/**
 * What to search for a question: the question itself (every word must be on a page, so it
 * finds the pages that speak of all of it), then each of its telling words alone (up to
 * MAX_WORDS, longest first), so a page that answers it in other words is found too.
 */
export function searchesFor(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}_-]+/u)
    .filter((word) => word.length >= 2 && !FILLER.has(word));
  const telling = [...new Set(words)].sort((a, b) => b.length - a.length);
  return [question.trim(), ...(telling.length > 1 ? telling.slice(0, MAX_WORDS) : [])];
}

/**
 * How much a search counts in the fusion: the whole question's 1, the search by meaning
 * MEANING_WEIGHT, a word's 1 plus its inverse document frequency (0 for a word on every page,
 * 1 for a word on one page of many), and only the FUSED_WORDS words that match the fewest
 * pages: a rare word says more of what a question is about than a common one.
 */
function weights({ runs, pages }: SearchRuns): number[] {
  const words = runs
    .map((run, index) => ({ run, index }))
    .filter(({ run, index }) => index > 0 && !run.byMeaning)
    .sort((a, b) => (a.run.matches ?? 0) - (b.run.matches ?? 0))
    .slice(0, FUSED_WORDS);
  const fused = new Set(words.map(({ index }) => index));
  return runs.map((run, index) => {
    if (run.byMeaning) return MEANING_WEIGHT;
    if (index === 0) return 1;
    if (!fused.has(index)) return 0;
    const matches = run.matches ?? 0;
    return 1 + Math.log((pages + 1) / (matches + 1)) / Math.log(pages + 2);
  });
}

/**
 * The pages found by `searches` (searchEach's: the whole question's first), one entry per
 * page, ranked by weighted reciprocal rank fusion (see weights), best first; the first
 * `limit`.
 */
export function fusePages(searches: SearchRuns, limit: number): RetrievedPage[] {
  const pages = new Map<string, RetrievedPage>();
  const weightOf = weights(searches);
  searches.runs.forEach((search, index) => {
    const weight = weightOf[index];
    if (weight === 0) return;
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
  });
  return [...pages.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
