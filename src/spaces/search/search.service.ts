import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { invalidInput } from '../../platform/errors/domain-error';
import { DEFAULT_PAGE_SIZE } from '../../platform/pagination/page-query.dto';
import { decodeCursor, encodeCursor, PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { Role } from '../../platform/policy/roles';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { GUEST_VISIBLE_SPACES_SQL } from '../../platform/policy/content-access/granted-content';
import type {
  SearchPageResultResponse,
  SearchSectionResultResponse,
} from './dto/search-content.dto';
import type { PageAncestor } from '../../content-engine/search/entities/page-section.entity';
import { searchTerms } from '../../content-engine/search/search-terms';

export interface SearchRequest extends PageRequest {
  query: string;
}

/** A space with its best matching pages (GitBook's `SearchSpaceResult`). */
export interface SpaceSearchResult {
  id: string;
  title: string;
  pages: SearchPageResultResponse[];
}

/** Pages shown per space in an organization-wide search. */
export const PAGES_PER_SPACE = 10;
/** Characters of a section's text shown in a hit. */
const BODY_EXCERPT = 500;

/**
 * The tsquery of `:words` (whole words, stemmed) and `:prefix` (the last word, as a prefix of
 * a stemmed or an unstemmed word). Both parameters hold letters and digits only (searchTerms),
 * so the tsquery syntax around `:prefix` is ours alone.
 */
const TSQUERY = `(plainto_tsquery('english', :words)
  && (to_tsquery('english', :prefix || ':*') || to_tsquery('simple', :prefix || ':*')))`;

/**
 * The tsqueries of the words one by one (the last as a prefix), for the sections to show of a
 * matching page: those that match any of the words.
 */
const ANY_WORD = `(ARRAY(SELECT plainto_tsquery('english', w)
                     FROM unnest(string_to_array(:words, ' ')) w)
  || (to_tsquery('english', :prefix || ':*') || to_tsquery('simple', :prefix || ':*')))`;

/**
 * Every matching page of the spaces `scope` (SQL of space ids), with its rank, from
 * `page_search` (one small vector per page): a page matches when all the words are on it.
 */
const matchedPagesSql = (scope: string) => `
  SELECT pg.space_id, pg.page_id, ts_rank(pg.tsv, q.query) AS rank
    FROM page_search pg, (SELECT ${TSQUERY} AS query) q
   WHERE pg.space_id IN (${scope}) AND pg.tsv @@ q.query`;

/**
 * The sections of the pages `pages` (SQL of space_id, page_id, rank) that match any of the
 * words, with their rank, in the order of their pages (best first), then best section first.
 */
const sectionsSql = (pages: string) => `
  WITH shown AS (${pages})
  SELECT ps.space_id, ps.page_id, ps.section_id, ps.page_title, ps.page_path, ps.section_title,
         ps.body, ps.ancestors, ps.position, ts_rank(ps.tsv, q.query) AS rank
    FROM shown p
    JOIN page_sections ps ON ps.space_id = p.space_id AND ps.page_id = p.page_id,
         (SELECT ${TSQUERY} AS query, ${ANY_WORD} AS words) q
   WHERE ps.tsv @@ ANY(q.words)
   ORDER BY p.rank DESC, p.page_id DESC, rank DESC, ps.position`;

interface SectionRow {
  space_id: string;
  page_id: string;
  section_id: string;
  page_title: string;
  page_path: string;
  section_title: string;
  body: string;
  ancestors: PageAncestor[];
  position: number;
  rank: number;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly urls: UrlBuilder,
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
    const rows = await this.query<{ page_id: string; rank: number; total: string }>(
      `WITH pages AS (${matchedPagesSql(':spaceId')})
       SELECT page_id, rank, (SELECT count(*) FROM pages) AS total FROM pages
        WHERE :first OR (rank, page_id) < (:afterRank::real, :afterPage)
        ORDER BY rank DESC, page_id DESC
        LIMIT :limit`,
      {
        ...terms,
        spaceId: space.id,
        first: after === null,
        afterRank: after?.[0] ?? 0,
        afterPage: after?.[1] ?? '',
        limit: limit + 1,
      },
    );
    const count =
      rows.length > 0
        ? Number(rows[0].total)
        : after === null
          ? 0
          : await this.countPages(space, terms);
    const pageRows = rows.slice(0, limit);
    const sections = await this.query<SectionRow>(
      sectionsSql(`SELECT :spaceId::varchar AS space_id, page_id, rank
                     FROM unnest(:pageIds::varchar[], :ranks::real[]) AS r(page_id, rank)`),
      {
        ...terms,
        spaceId: space.id,
        pageIds: pageRows.map((row) => row.page_id),
        ranks: pageRows.map((row) => row.rank),
      },
    );
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
    const scope = `SELECT s.id FROM spaces s
      WHERE s.organization_id = :organizationId AND s.deleted_at IS NULL
      ${caller.role === null ? `AND s.id IN (${GUEST_VISIBLE_SPACES_SQL})` : ''}`;
    const params = { ...terms, organizationId, userId: caller.userId };
    const spaces = await this.query<{ id: string; title: string; rank: number; total: string }>(
      `WITH ranked AS (SELECT space_id, max(rank) AS rank
                         FROM (${matchedPagesSql(scope)}) m GROUP BY space_id)
       SELECT r.space_id AS id, s.title, r.rank, (SELECT count(*) FROM ranked) AS total
         FROM ranked r JOIN spaces s ON s.id = r.space_id
        WHERE :first OR (r.rank, r.space_id) < (:afterRank::real, :afterSpace)
        ORDER BY r.rank DESC, r.space_id DESC
        LIMIT :limit`,
      {
        ...params,
        first: after === null,
        afterRank: after?.[0] ?? 0,
        afterSpace: after?.[1] ?? '',
        limit: limit + 1,
      },
    );
    const shown = spaces.slice(0, limit);
    const sections = await this.query<SectionRow>(
      sectionsSql(`SELECT space_id, page_id, rank
                     FROM (SELECT m.*, row_number() OVER (PARTITION BY space_id
                                                         ORDER BY rank DESC, page_id DESC) AS n
                             FROM (${matchedPagesSql('SELECT unnest(:spaceIds::varchar[])')}) m) p
                    WHERE n <= ${PAGES_PER_SPACE}`),
      { ...terms, spaceIds: shown.map((space) => space.id) },
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

  /** Matching sections grouped into page hits, in the order the rows first show each page. */
  private pages(space: SpaceRef, rows: SectionRow[]): Map<string, SearchPageResultResponse> {
    const hits = new Map<string, SearchPageResultResponse>();
    for (const row of rows) {
      let hit = hits.get(row.page_id);
      if (!hit) {
        hit = {
          id: row.page_id,
          title: row.page_title,
          path: row.page_path,
          sections: [],
          ancestors: row.ancestors,
          urls: { app: this.pageUrl(space, row.page_path) },
        };
        hits.set(row.page_id, hit);
      }
      hit.sections!.push(this.section(space, row));
    }
    return hits;
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

  /** The total when the requested page is past the end (no row to read it from). */
  private async countPages(space: SpaceRef, terms: object): Promise<number> {
    const rows = await this.query<{ total: string }>(
      `SELECT count(*) AS total FROM (${matchedPagesSql(':spaceId')}) m`,
      { ...terms, spaceId: space.id },
    );
    return Number(rows[0].total);
  }

  private query<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
    const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, params);
    return this.dataSource.query(text, values);
  }
}

function excerpt(body: string): string {
  return body.length <= BODY_EXCERPT ? body : `${body.slice(0, BODY_EXCERPT - 1)}…`;
}
