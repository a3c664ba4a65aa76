import type { ScoredSearchSpaceResultResponse } from '../spaces/search/dto/search-content.dto';

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

/** Words a question is asked with that say nothing of what it is about (English). */
const FILLER = new Set(
  (
    'a an and are as at be can could do does did for from get got have has how i if in into is ' +
    'it its me my of on or our please should so that the their them then there these this to ' +
    'use using was we what when where which who why will with would you your'
  ).split(' '),
);
/** Searches made for one question, the whole question included. */
const MAX_QUERIES = 6;
/** GitBook's reciprocal-rank constant: a page's score is the sum of 1 / (K + its rank). */
const RRF_K = 60;

/**
 * What to search for a question: the question itself (every word must be on a page, so it
 * finds the pages that speak of all of it), then each of its telling words alone, longest
 * first, so a page that answers it in other words is found too.
 */
export function searchesFor(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}_-]+/u)
    .filter((word) => word.length >= 3 && !FILLER.has(word));
  const telling = [...new Set(words)].sort((a, b) => b.length - a.length);
  const queries = [question.trim(), ...(telling.length > 1 ? telling : [])];
  return queries.slice(0, MAX_QUERIES);
}

/**
 * The pages found by `results` (one list of results per search, the first the whole
 * question's), one entry per page, ranked by reciprocal rank fusion (the whole question's
 * search counts twice), best first; the first `limit`.
 */
export function fusePages(
  results: ScoredSearchSpaceResultResponse[][],
  limit: number,
): RetrievedPage[] {
  const pages = new Map<string, RetrievedPage>();
  results.forEach((spaces, search) => {
    const weight = search === 0 ? 2 : 1;
    const ranked = spaces
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
