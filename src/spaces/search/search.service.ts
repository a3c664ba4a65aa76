import { Injectable } from '@nestjs/common';
import { invalidInput } from '../../platform/errors/domain-error';
import { DEFAULT_PAGE_SIZE } from '../../platform/pagination/page-query.dto';
import { decodeCursor, encodeCursor, PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { Role } from '../../platform/policy/roles';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type {
  ScoredSearchPageResultResponse,
  ScoredSearchSectionResultResponse,
  ScoredSearchSpaceResultResponse,
  SearchPageResultResponse,
  SearchSectionResultResponse,
} from './dto/search-content.dto';
import { searchTerms } from '../../content-engine/search/search-terms';
import { PositionedSectionRow, SearchRepository, SectionRow } from './search.repository';

export interface SearchRequest extends PageRequest {
  query: string;
}

/** A space with its best matching pages (GitBook's `SearchSpaceResult`). */
export interface SpaceSearchResult {
  id: string;
  title: string;
  pages: SearchPageResultResponse[];
}

/** Characters of a section's text shown in a hit. */
const BODY_EXCERPT = 500;

interface SpaceRef {
  id: string;
  organizationId: string;
}

/**
 * Full-text search over spaces' primary revisions (`page_search` and `page_sections`, kept by
 * the SearchIndexer). A page matches when every word of the query is on it, not necessarily
 * in one section. Hits are pages ranked by ts_rank over the page's vector (a match in the page
 * title weighs most, then in a heading, then in text), each with its sections that match any
 * of the words; only the shown pages' sections are read.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly search: SearchRepository,
  ) {}

  /** A page of the space's matching pages, best first. */
  async searchSpace(
    space: SpaceRef,
    request: SearchRequest,
  ): Promise<Page<SearchPageResultResponse>> {
    const terms = searchTerms(request.query);
    const after = request.page ? decodeCursor(request.page, 'space-search', 3) : null;
    if (after && after[2] !== space.id) {
      throw invalidInput('page is not a valid page identifier for this list.');
    }
    if (!terms) return { items: [], count: 0 };
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.search.matchedPagesInSpace(
      space.id,
      terms,
      after && { rank: after[0] as number, pageId: after[1] as string },
      limit + 1,
    );
    const count =
      rows.length > 0
        ? Number(rows[0].total)
        : after === null
          ? 0
          : await this.search.countMatchedPages(space.id, terms);
    const pageRows = rows.slice(0, limit);
    const sections = await this.search.sectionsOfPages(space.id, terms, {
      pageIds: pageRows.map((row) => row.page_id),
      ranks: pageRows.map((row) => row.rank),
    });
    const hits = this.pages(space, sections);
    const page: Page<SearchPageResultResponse> = {
      // Every word of a matching page is in one of its sections, so each page has a hit; the
      // filter only guards against a word the parser splits in two across two sections.
      items: pageRows.flatMap((row) => hits.get(row.page_id) ?? []),
      count,
    };
    if (rows.length > limit) {
      const last = pageRows[pageRows.length - 1];
      page.next = { page: encodeCursor([last.rank, last.page_id, space.id], 'space-search') };
    }
    return page;
  }

  /**
   * A page of the organization's live spaces with matches, best first, each with its best
   * pages. Members with a role search every space; guests (no role) the spaces granted to them.
   */
  async searchOrganization(
    organizationId: string,
    caller: { userId: string; role: Role | null },
    request: SearchRequest,
  ): Promise<Page<SpaceSearchResult>> {
    const terms = searchTerms(request.query);
    const after = request.page ? decodeCursor(request.page, 'org-search', 2) : null;
    if (!terms) return { items: [], count: 0 };
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const spaces = await this.search.matchedSpaces(
      { organizationId, userId: caller.userId, role: caller.role },
      terms,
      after && { rank: after[0] as number, spaceId: after[1] as string },
      limit + 1,
    );
    const shown = spaces.slice(0, limit);
    const sections = await this.search.sectionsOfSpaces(
      shown.map((space) => space.id),
      terms,
    );
    const items = shown.map((space) => {
      const own = sections.filter((row) => row.space_id === space.id);
      return {
        id: space.id,
        title: space.title,
        pages: [...this.pages({ id: space.id, organizationId }, own).values()],
      };
    });
    const page: Page<SpaceSearchResult> = {
      items,
      count: spaces.length > 0 ? Number(spaces[0].total) : 0,
    };
    if (spaces.length > limit) {
      const last = shown[shown.length - 1];
      page.next = { page: encodeCursor([last.rank, last.id], 'org-search') };
    }
    return page;
  }

  /**
   * A page of the live spaces among `spaceIds` with matches, best first, each with its best
   * pages, in GitBook's newer result shape: scored spaces, pages and sections, and each page's
   * `rank` among all the matching pages of those spaces (so it holds across pages of results).
   * Two statements whatever the number of spaces.
   */
  async searchSpaces(
    organizationId: string,
    spaceIds: string[],
    request: SearchRequest,
  ): Promise<Page<ScoredSearchSpaceResultResponse>> {
    const terms = searchTerms(request.query);
    const after = request.page ? decodeCursor(request.page, 'spaces-search', 2) : null;
    if (!terms || spaceIds.length === 0) return { items: [], count: 0 };
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const spaces = await this.search.matchedSpacesAmong(
      spaceIds,
      terms,
      after && { rank: after[0] as number, spaceId: after[1] as string },
      limit + 1,
    );
    const shown = spaces.slice(0, limit);
    const sections =
      shown.length === 0
        ? []
        : await this.search.positionedSectionsOfSpaces(
            spaceIds,
            shown.map((space) => space.id),
            terms,
          );
    const items = shown.map((space): ScoredSearchSpaceResultResponse => {
      const ref = { id: space.id, organizationId };
      const own = sections.filter((row) => row.space_id === space.id);
      const pages = this.group(
        own,
        (row: PositionedSectionRow): ScoredSearchPageResultResponse => ({
          ...this.pageHit(ref, row),
          description: '',
          score: row.page_rank,
          rank: Number(row.page_position),
          sections: [],
        }),
        (row): ScoredSearchSectionResultResponse => ({
          ...this.section(ref, row),
          score: row.rank,
        }),
      );
      return {
        type: 'space',
        id: space.id,
        title: space.title,
        score: space.rank,
        pages: [...pages.values()],
      };
    });
    const page: Page<ScoredSearchSpaceResultResponse> = {
      items,
      count: spaces.length > 0 ? Number(spaces[0].total) : 0,
    };
    if (spaces.length > limit) {
      const last = shown[shown.length - 1];
      page.next = { page: encodeCursor([last.rank, last.id], 'spaces-search') };
    }
    return page;
  }

  /** Matching sections grouped into page hits, in the order the rows first show each page. */
  private pages(space: SpaceRef, rows: SectionRow[]): Map<string, SearchPageResultResponse> {
    return this.group(
      rows,
      (row) => ({ ...this.pageHit(space, row), sections: [] }),
      (row) => this.section(space, row),
    );
  }

  /** Rows grouped by page: `page` makes a page's hit from its first row, `section` each row's. */
  private group<R extends SectionRow, P extends { sections?: S[] }, S>(
    rows: R[],
    page: (row: R) => P,
    section: (row: R) => S,
  ): Map<string, P> {
    const hits = new Map<string, P>();
    for (const row of rows) {
      let hit = hits.get(row.page_id);
      if (!hit) {
        hit = page(row);
        hits.set(row.page_id, hit);
      }
      (hit.sections ??= []).push(section(row));
    }
    return hits;
  }

  private pageHit(space: SpaceRef, row: SectionRow) {
    return {
      id: row.page_id,
      title: row.page_title,
      path: row.page_path,
      ancestors: row.ancestors,
      urls: { app: this.pageUrl(space, row.page_path) },
    };
  }

  private section(space: SpaceRef, row: SectionRow): SearchSectionResultResponse {
    const lead = row.section_id === '';
    const path = lead ? row.page_path : `${row.page_path}#${row.section_id}`;
    const pageUrl = this.pageUrl(space, row.page_path);
    return {
      id: lead ? row.page_id : row.section_id,
      title: row.section_title,
      path,
      body: excerpt(row.body),
      urls: { app: lead ? pageUrl : `${pageUrl}#${encodeURIComponent(row.section_id)}` },
    };
  }

  private pageUrl(space: SpaceRef, path: string): string {
    return this.urls.app('o', space.organizationId, 's', space.id, ...path.split('/'));
  }
}

function excerpt(body: string): string {
  return body.length <= BODY_EXCERPT ? body : `${body.slice(0, BODY_EXCERPT - 1)}…`;
}
