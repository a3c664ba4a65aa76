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
} from './dto/search-content.dto';
import { SectionEmbeddings } from '../../content-engine/search/section-embeddings';
import { SearchHits, type SpaceRef } from './search-hits';
import { SearchPlanner } from './search-planner';
import type { SearchQuery } from './search-query';
import {
  MatchedPageRow,
  MatchedSpaceRow,
  PositionedSectionRow,
  SearchRepository,
  type SearchScope,
} from './search.repository';

/** Sections nearest in meaning to a question that an answer's search by meaning reads. */
const MEANING_SECTIONS = 30;

/** One search of searchEach: its results, and how many pages it matched in all. */
export interface SearchRun {
  query: string;
  items: ScoredSearchSpaceResultResponse[];
  /** Pages matching the query's words in all the spaces searched (not by meaning). */
  matches?: number;
  /** The pages nearest in meaning to the query (searchSpacesByMeaning). */
  byMeaning?: boolean;
}

/** searchEach's answer: each search, and the number of pages of the spaces searched. */
export interface SearchRuns {
  runs: SearchRun[];
  pages: number;
}

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
    return (await this.searchSpacesCounted(organizationId, spaceIds, request, hidden)).page;
  }

  /** searchSpaces, with the number of pages matching in all the spaces searched. */
  private async searchSpacesCounted(
    organizationId: string,
    spaceIds: string[],
    request: SearchRequest,
    hidden: ReadonlyMap<string, readonly string[]>,
  ): Promise<{ page: Page<ScoredSearchSpaceResultResponse>; matches: number }> {
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const scope = this.search.withoutPages(this.search.liveSpacesScope(spaceIds), hidden);
    const found = await this.rankedSpaces(scope, request, 'spaces-search');
    if (!found) return { page: { items: [], count: 0 }, matches: 0 };
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
    const page = withNext({ items, count: spacesFound(spaces) }, spaces, limit, (last) =>
      encodeCursor([last.rank, last.id, q.corrected], 'spaces-search'),
    );
    return { page, matches: spaces.length > 0 ? Number(spaces[0].pages) : 0 };
  }

  /**
   * Each of `queries` searched over the live spaces among `spaceIds` (searchSpaces: the first
   * `limit` spaces of each, `hidden` left out) with the number of pages it matches, and when
   * sections are embedded (AI_EMBEDDING_MODEL) one more list: the pages nearest in meaning to
   * the first query (searchSpacesByMeaning); and how many pages the spaces hold. For answers,
   * which search several phrasings of one question and fuse the lists (answers/retrieval.ts).
   */
  async searchEach(
    organizationId: string,
    spaceIds: string[],
    queries: string[],
    limit: number,
    hidden: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<SearchRuns> {
    const byWords = queries.map(async (query): Promise<SearchRun> => {
      const { page, matches } = await this.searchSpacesCounted(
        organizationId,
        spaceIds,
        { query, limit },
        hidden,
      );
      return { query, items: page.items, matches };
    });
    const byMeaning =
      this.embeddings.enabled && queries.length > 0
        ? [
            this.searchSpacesByMeaning(
              organizationId,
              spaceIds,
              queries[0],
              MEANING_SECTIONS,
              hidden,
            ).then((items): SearchRun => ({ query: queries[0], items, byMeaning: true })),
          ]
        : [];
    const [runs, pages] = await Promise.all([
      Promise.all([...byWords, ...byMeaning]),
      this.search.pageCount(this.search.liveSpacesScope(spaceIds)),
    ]);
    return { runs, pages };
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
    const results: ScoredSearchSpaceResultResponse[] = [];
    let rank = 0;
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
          rank: ++rank,
          sections: [],
        }),
        (row): ScoredSearchSectionResultResponse => ({
          ...this.hits.sectionOpening(ref, row),
          score: row.rank,
        }),
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
