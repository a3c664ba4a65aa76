import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { invalidInput } from '../../platform/errors/domain-error';
import { DEFAULT_PAGE_SIZE } from '../../platform/pagination/page-query.dto';
import { decodeCursor, encodeCursor, PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { Role } from '../../platform/policy/roles';
import type {
  ScoredSearchPageResultResponse,
  ScoredSearchSectionResultResponse,
  ScoredSearchSpaceResultResponse,
  SearchPageResultResponse,
  SearchSectionResultResponse,
} from './dto/search-content.dto';
import { textSearchConfig } from '../../content-engine/search/search-languages';
import {
  correctable,
  type QueryTerm,
  searchTerms,
  tsqueryText,
} from '../../content-engine/search/search-terms';
import { SectionEmbeddings } from '../../content-engine/search/section-embeddings';
import { SearchHits, type SpaceRef } from './search-hits';
import { maxEdits, SearchPlanner } from './search-planner';
import type { SearchQuery } from './search-query';
import {
  MatchedPageRow,
  MatchedSpaceRow,
  PositionedSectionRow,
  type RankedTerm,
  SearchRepository,
  type SearchScope,
  type SectionRow,
} from './search.repository';

/** Sections nearest in meaning to a question that an answer's search by meaning reads. */
const MEANING_SECTIONS = 30;

/** One list of pages an answer's retrieval fuses (SearchService.retrieve). */
export interface SearchRun {
  query: string;
  items: ScoredSearchSpaceResultResponse[];
  /** The pages nearest in meaning to the query (searchSpacesByMeaning). */
  byMeaning?: boolean;
}

/** retrieve's answer: the pages its words find, then those nearest in meaning, if any. */
export interface SearchRuns {
  runs: SearchRun[];
}

/**
 * A question's word that is on no page is also searched as its nearest words of the lexicon
 * (a typo, or a word of another language whose cognate the pages use), and then weighs this
 * much of its weight.
 */
const CORRECTED_WORD_WEIGHT = 0.5;

export interface SearchRequest extends PageRequest {
  query: string;
  /** Organization search: page through this space's matching pages only. */
  spaceId?: string;
}

/** A space with its best matching pages (GitBook's `SearchSpaceResult`). */
export interface SpaceSearchResult {
  id: string;
  title: string;
  pages: SearchPageResultResponse[];
}

/** A keyset position in a list of results, and whether its query was corrected for typos. */
type After<K extends string> = ({ rank: number; corrected: boolean } & Record<K, string>) | null;

/**
 * Full-text search over spaces' primary revisions (`page_search` and `page_sections`, kept by
 * the SearchIndexer), in the language of each space (folding, segmentation, stemming: see
 * content-engine/search). A page matches when every term of the query is on it, not
 * necessarily in one section. Hits are pages ranked by ts_rank over the page's vector (a match
 * in the page title weighs most, then in a heading, then in text), exact matches above those
 * only typo corrections find (SearchPlanner), each page with its sections that match any term,
 * as excerpts around their hits (SearchHits); only the shown pages' sections are read.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly search: SearchRepository,
    private readonly planner: SearchPlanner,
    private readonly hits: SearchHits,
    private readonly embeddings: SectionEmbeddings,
    private readonly config: AppConfig,
  ) {}

  /** A page of the space's matching pages, best first. */
  async searchSpace(
    space: SpaceRef,
    request: SearchRequest,
  ): Promise<Page<SearchPageResultResponse>> {
    const after = pageCursor(request.page, 'space-search', space.id);
    const exact = this.planner.exact(request.query, [space.language]);
    if (!exact) return { items: [], count: 0 };
    return this.pagesOf(
      this.search.spaceScope(space.id),
      space,
      exact,
      after,
      request,
      'space-search',
    );
  }

  /**
   * A page of the organization's live spaces with matches, best first (by their best page),
   * each with its best pages; with `spaceId`, that space alone (when the caller may read it)
   * with a page of its matching pages, `limit` and `next` paging through them. Members with a
   * role search every space; guests (no role) the spaces granted to them.
   */
  async searchOrganization(
    organizationId: string,
    caller: { userId: string; role: Role | null },
    request: SearchRequest,
  ): Promise<Page<SpaceSearchResult>> {
    const viewer = { organizationId, userId: caller.userId, role: caller.role };
    if (request.spaceId !== undefined) {
      return this.searchOrganizationSpace(organizationId, viewer, request, request.spaceId);
    }
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const found = await this.rankedSpaces(
      this.search.organizationScope(viewer),
      request,
      'org-search',
    );
    if (!found) return { items: [], count: 0 };
    const { spaces, q } = found;
    const shown = spaces.slice(0, limit);
    const sections = await this.search.sectionsOfSpaces(
      shown.map((space) => space.id),
      q,
    );
    const items = shown.map((space) => {
      const ref = { id: space.id, organizationId, language: space.language };
      const own = sections.filter((row) => row.space_id === space.id);
      return { id: space.id, title: space.title, pages: this.hits.pages(ref, own, q, 'markdown') };
    });
    return withNext({ items, count: spacesFound(spaces) }, spaces, limit, (last) =>
      encodeCursor([last.rank, last.id, q.corrected], 'org-search'),
    );
  }

  /**
   * A page of the live spaces among `spaceIds` with matches, best first, each with its best
   * pages, in GitBook's newer result shape: scored spaces, pages and sections, and each page's
   * `rank` among all the matching pages of those spaces (so it holds across pages of results).
   * Excerpts are not marked: the site renderer calling it highlights the query itself.
   * `hidden`: pages of those spaces, by space id, that are not searched (those a site's visitor
   * does not see): they are left out in the statements, so counts and ranks leave them out too.
   */
  async searchSpaces(
    organizationId: string,
    spaceIds: string[],
    request: SearchRequest,
    hidden: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<Page<ScoredSearchSpaceResultResponse>> {
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const scope = this.search.withoutPages(this.search.liveSpacesScope(spaceIds), hidden);
    const found = await this.rankedSpaces(scope, request, 'spaces-search');
    if (!found) return { items: [], count: 0 };
    const { spaces, q } = found;
    const shown = spaces.slice(0, limit);
    const sections =
      shown.length === 0
        ? []
        : await this.search.positionedSectionsOfSpaces(
            scope,
            shown.map((space) => space.id),
            q,
          );
    const items = shown.map((space): ScoredSearchSpaceResultResponse => {
      const ref = { id: space.id, organizationId, language: space.language };
      const own = sections.filter((row) => row.space_id === space.id);
      const pages = this.hits.group(
        own,
        (row: PositionedSectionRow): ScoredSearchPageResultResponse => ({
          ...this.hits.pageHit(ref, row),
          description: '',
          score: row.page_rank,
          rank: Number(row.page_position),
          sections: [],
        }),
        (row): ScoredSearchSectionResultResponse => ({
          ...this.hits.section(ref, row, q, 'none'),
          score: row.rank,
        }),
      );
      return { type: 'space', id: space.id, title: space.title, score: space.rank, pages };
    });
    return withNext({ items, count: spacesFound(spaces) }, spaces, limit, (last) =>
      encodeCursor([last.rank, last.id, q.corrected], 'spaces-search'),
    );
  }

  /**
   * What an answer draws from, over the live spaces among `spaceIds` (`hidden` left out, as
   * for searchSpaces): the `limit` pages that best match the question's telling `words`
   * (searchSpacesByWords), and when sections are embedded (AI_EMBEDDING_MODEL) the pages
   * nearest in meaning to `question` (searchSpacesByMeaning), two lists that
   * answers/retrieval.ts fuses.
   */
  async retrieve(
    organizationId: string,
    spaceIds: string[],
    question: string,
    words: string[],
    limit: number,
    hidden: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<SearchRuns> {
    const byWords = this.searchSpacesByWords(organizationId, spaceIds, words, limit, hidden).then(
      (items): SearchRun => ({ query: question, items }),
    );
    const byMeaning = this.embeddings.enabled
      ? [
          this.searchSpacesByMeaning(
            organizationId,
            spaceIds,
            question,
            MEANING_SECTIONS,
            hidden,
          ).then((items): SearchRun => ({ query: question, items, byMeaning: true })),
        ]
      : [];
    return { runs: await Promise.all([byWords, ...byMeaning]) };
  }

  /**
   * The `limit` pages of the live spaces among `spaceIds` that best match any of `words` (a
   * question's telling words), in the result shape of searchSpaces, best first: each word
   * weighs as rare as it is among those spaces' pages, and a page scores as its best
   * matching section and as a whole, each by BM25 (SearchRepository.rankByTerms). When a
   * word is on no page, the search runs again with it matching its nearest words of the
   * lexicon too, weighing CORRECTED_WORD_WEIGHT. `hidden` as for searchSpaces.
   */
  async searchSpacesByWords(
    organizationId: string,
    spaceIds: string[],
    words: string[],
    limit: number,
    hidden: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<ScoredSearchSpaceResultResponse[]> {
    if (spaceIds.length === 0 || words.length === 0) return [];
    const scope = this.search.withoutPages(this.search.liveSpacesScope(spaceIds), hidden);
    const spaces = await this.search.spaces(scope);
    const analysed = analyseWords(spaces, words);
    let terms = termsOf(analysed);
    let weights = words.map(() => 1);
    const found = await this.search.wordPages(scope, terms, words.length);
    const absent = analysed.filter(({ n }) => !found[n].stopWord && found[n].pages === 0);
    const texts = [
      ...new Set(
        absent.flatMap(({ terms: own }) => own.filter(correctable).map((term) => term.text)),
      ),
    ];
    if (texts.length > 0) {
      const corrections = await this.search.corrections(
        scope,
        texts.map((text) => ({ text, maxEdits: maxEdits(text) })),
      );
      const corrected = new Set(
        absent
          .filter(({ terms: own }) => own.some((term) => corrections.get(term.text)?.length))
          .map(({ n }) => n),
      );
      if (corrected.size > 0) {
        terms = termsOf(analysed, corrections);
        weights = words.map((_word, n) => (corrected.has(n) ? CORRECTED_WORD_WEIGHT : 1));
      }
    }
    const rows = await this.search.rankByTerms(scope, terms, weights, limit);
    const excerpts = this.planner.exact(words.join(' '), [
      ...new Set(spaces.map((space) => space.language)),
    ]);
    return this.scoredSpaces(organizationId, spaces, rows, (ref, row) =>
      excerpts ? this.hits.section(ref, row, excerpts, 'none') : this.hits.sectionOpening(ref, row),
    );
  }

  /**
   * The pages of the live spaces among `spaceIds` whose sections mean what `question` asks
   * (their embeddings nearest to its: SectionEmbeddings), in the result shape of searchSpaces,
   * spaces and pages best first, from the `sections` nearest sections; none when sections are
   * not embedded here. `hidden` as for searchSpaces.
   */
  async searchSpacesByMeaning(
    organizationId: string,
    spaceIds: string[],
    question: string,
    sections: number,
    hidden: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<ScoredSearchSpaceResultResponse[]> {
    if (!this.embeddings.enabled || spaceIds.length === 0) return [];
    const embedded = await this.embeddings.embedQuestion(question);
    if (!embedded) return [];
    const scope = this.search.withoutPages(this.search.liveSpacesScope(spaceIds), hidden);
    const rows = await this.search.nearestSections(
      scope,
      embedded.model,
      embedded.vector,
      this.config.AI_EMBEDDING_MIN_SIMILARITY,
      sections,
    );
    const spaces = await this.search.spaces(this.search.liveSpacesScope(spaceIds));
    return this.scoredSpaces(organizationId, spaces, rows, (ref, row) =>
      this.hits.sectionOpening(ref, row),
    );
  }

  /**
   * Section rows of ranked pages (best page first), as the spaces among `spaces` that have
   * any, each with its pages and their sections (`section` makes a section's hit), best
   * first, every page with its position among them all.
   */
  private scoredSpaces(
    organizationId: string,
    spaces: { id: string; title: string; language: string | null }[],
    rows: SectionRow[],
    section: (ref: SpaceRef, row: SectionRow) => SearchSectionResultResponse,
  ): ScoredSearchSpaceResultResponse[] {
    const positions = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.space_id}/${row.page_id}`;
      if (!positions.has(key)) positions.set(key, positions.size + 1);
    }
    const results: ScoredSearchSpaceResultResponse[] = [];
    for (const space of spaces) {
      const own = rows.filter((row) => row.space_id === space.id);
      if (own.length === 0) continue;
      const ref = { id: space.id, organizationId, language: space.language };
      const pages = this.hits.group(
        own,
        (row): ScoredSearchPageResultResponse => ({
          ...this.hits.pageHit(ref, row),
          description: '',
          score: row.page_rank,
          rank: positions.get(`${row.space_id}/${row.page_id}`) ?? 0,
          sections: [],
        }),
        (row): ScoredSearchSectionResultResponse => ({ ...section(ref, row), score: row.rank }),
      );
      results.push({
        type: 'space',
        id: space.id,
        title: space.title,
        score: own[0].page_rank,
        pages,
      });
    }
    return results.sort((a, b) => b.score - a.score);
  }

  /**
   * One more than `limit` of the spaces of `scope` with matches after the cursor (`cursor`
   * names its kind), best first, and the query that found them (corrected for typos when the
   * exact one found little); null when the query has no term.
   */
  private async rankedSpaces(
    scope: SearchScope,
    request: SearchRequest,
    cursor: string,
  ): Promise<{ spaces: MatchedSpaceRow[]; q: SearchQuery } | null> {
    const after = spaceCursor(request.page, cursor);
    const exact = this.planner.exact(request.query, await this.search.languages(scope));
    if (!exact) return null;
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const { result: spaces, q } = await this.planner.withTypos(
      scope,
      exact,
      after?.corrected ?? false,
      (query) => this.search.rankedSpaces(scope, query, after, limit + 1),
      pagesFound,
    );
    return { spaces, q };
  }

  /** Organization search paging into one space: that space, with a page of its pages. */
  private async searchOrganizationSpace(
    organizationId: string,
    viewer: { organizationId: string; userId: string; role: Role | null },
    request: SearchRequest,
    spaceId: string,
  ): Promise<Page<SpaceSearchResult>> {
    const after = pageCursor(request.page, 'org-space-search', spaceId);
    const scope = this.search.organizationScope(viewer, spaceId);
    const [space] = await this.search.spaces(scope);
    if (!space) return { items: [], count: 0 };
    const exact = this.planner.exact(request.query, [space.language]);
    if (!exact) return { items: [], count: 0 };
    const ref = { id: space.id, organizationId, language: space.language };
    const pages = await this.pagesOf(scope, ref, exact, after, request, 'org-space-search');
    if (pages.count === 0) return { items: [], count: 0 };
    return {
      items: [{ id: space.id, title: space.title, pages: pages.items }],
      count: pages.count,
      ...(pages.next ? { next: pages.next } : {}),
    };
  }

  /** A page of the matching pages of `scope` (one space), with `next` as `cursor` names it. */
  private async pagesOf(
    scope: SearchScope,
    space: SpaceRef,
    exact: SearchQuery,
    after: After<'pageId'>,
    request: SearchRequest,
    cursor: string,
  ): Promise<Page<SearchPageResultResponse>> {
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const { result: rows, q } = await this.planner.withTypos(
      scope,
      exact,
      after?.corrected ?? false,
      (query) => this.search.matchedPages(scope, query, after, limit + 1),
      (found: MatchedPageRow[]) => (found.length > 0 ? Number(found[0].total) : 0),
    );
    const count =
      rows.length > 0
        ? Number(rows[0].total)
        : after === null
          ? 0
          : await this.search.countMatchedPages(scope, q);
    const pageRows = rows.slice(0, limit);
    const sections = await this.search.sectionsOfPages(space.id, q, {
      pageIds: pageRows.map((row) => row.page_id),
      ranks: pageRows.map((row) => row.rank),
    });
    const hits = new Map(
      this.hits.pages(space, sections, q, 'markdown').map((hit) => [hit.id, hit]),
    );
    // Every term of a matching page is in one of its sections, so each page has a hit; the
    // filter only guards against a word the parser splits in two across two sections.
    const items = pageRows.flatMap((row) => hits.get(row.page_id) ?? []);
    return withNext({ items, count }, rows, limit, (last) =>
      encodeCursor([last.rank, last.page_id, space.id, q.corrected], cursor),
    );
  }
}

/** Matching pages in all the spaces ranked. */
const pagesFound = (spaces: MatchedSpaceRow[]) => (spaces.length > 0 ? Number(spaces[0].pages) : 0);
const spacesFound = (spaces: MatchedSpaceRow[]) =>
  spaces.length > 0 ? Number(spaces[0].total) : 0;

/** `page` with `next` when `rows` (fetched with one more than `limit`) holds more. */
function withNext<T, R>(
  page: Page<T>,
  rows: R[],
  limit: number,
  cursor: (last: R) => string,
): Page<T> {
  if (rows.length > limit) page.next = { page: cursor(rows[limit - 1]) };
  return page;
}

/** A cursor over one space's pages: (rank, page id, space id, corrected). */
function pageCursor(page: string | undefined, kind: string, spaceId: string): After<'pageId'> {
  if (!page) return null;
  const [rank, pageId, cursorSpace, corrected] = decodeCursor(page, kind, 4);
  if (
    cursorSpace !== spaceId ||
    typeof rank !== 'number' ||
    typeof pageId !== 'string' ||
    typeof corrected !== 'boolean'
  ) {
    throw invalidInput('page is not a valid page identifier for this list.');
  }
  return { rank, pageId, corrected };
}

/** A cursor over spaces: (rank, space id, corrected). */
function spaceCursor(page: string | undefined, kind: string): After<'spaceId'> {
  if (!page) return null;
  const [rank, spaceId, corrected] = decodeCursor(page, kind, 3);
  if (typeof rank !== 'number' || typeof spaceId !== 'string' || typeof corrected !== 'boolean') {
    throw invalidInput('page is not a valid page identifier for this list.');
  }
  return { rank, spaceId, corrected };
}

/** A question's words analysed for each language of the spaces searched (`searchTerms`). */
interface AnalysedWord {
  n: number;
  config: string;
  terms: QueryTerm[];
  spaceIds: string[];
}

/** Each of `words` analysed as the spaces' languages analyse it, whole words (no prefix). */
function analyseWords(
  spaces: { id: string; language: string | null }[],
  words: string[],
): AnalysedWord[] {
  const analysed = new Map<string, AnalysedWord>();
  words.forEach((word, n) => {
    for (const space of spaces) {
      const terms = searchTerms(word, space.language).map((term) => ({ ...term, prefix: false }));
      if (terms.length === 0) continue;
      const config = textSearchConfig(space.language);
      const key = `${n} ${config} ${JSON.stringify(terms)}`;
      const same = analysed.get(key);
      if (same) same.spaceIds.push(space.id);
      else analysed.set(key, { n, config, terms, spaceIds: [space.id] });
    }
  });
  return [...analysed.values()];
}

/** The words as rankByTerms searches them, each term also matching its `corrections`. */
function termsOf(
  analysed: AnalysedWord[],
  corrections: ReadonlyMap<string, string[]> = new Map(),
): RankedTerm[] {
  return analysed.map(({ n, config, terms, spaceIds }) => ({
    n,
    config,
    query: tsqueryText(terms, corrections).words,
    spaceIds,
  }));
}
