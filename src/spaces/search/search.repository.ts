import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SearchTerms } from '../../content-engine/search/search-terms';
import type { PageAncestor } from '../../content-engine/search/entities/page-section.entity';
import {
  type ContentViewer,
  visibleContentCondition,
} from '../../platform/policy/content-access/granted-content';

/** Pages shown per space in an organization-wide search. */
export const PAGES_PER_SPACE = 10;
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
 * The sections of the pages `pages` (SQL of space_id, page_id, rank, and `pageColumns`) that
 * match any of the words, with their rank and their page's, in the order of their pages (best
 * first), then best section first.
 */
const sectionsSql = (pages: string, pageColumns = '') => `
  WITH shown AS (${pages})
  SELECT ps.space_id, ps.page_id, ps.section_id, ps.page_title, ps.page_path, ps.section_title,
         ps.body, ps.ancestors, ps.position, ts_rank(ps.tsv, q.query) AS rank,
         p.rank AS page_rank${pageColumns}
    FROM shown p
    JOIN page_sections ps ON ps.space_id = p.space_id AND ps.page_id = p.page_id,
         (SELECT ${TSQUERY} AS query, ${ANY_WORD} AS words) q
   WHERE ps.tsv @@ ANY(q.words)
   ORDER BY p.rank DESC, p.page_id DESC, rank DESC, ps.position`;

/** The live spaces among `:spaceIds`: a search over a list of spaces never reads the trash. */
const LIVE_AMONG = `SELECT s.id FROM spaces s
  WHERE s.id = ANY(:spaceIds::varchar[]) AND s.deleted_at IS NULL`;

export interface SectionRow {
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
  /** The rank of the section's page. */
  page_rank: number;
}

/** A section row with its page's position among every matching page searched (from 1). */
export interface PositionedSectionRow extends SectionRow {
  page_position: string;
}

/** A matching page and its rank, with the number of matching pages of the space. */
export interface MatchedPageRow {
  page_id: string;
  rank: number;
  total: string;
}

/** A space with matches, its best page's rank, with the number of spaces with matches. */
export interface MatchedSpaceRow {
  id: string;
  title: string;
  rank: number;
  total: string;
}

/**
 * The search reads: the content engine's search index (`page_search`, `page_sections`) joined
 * to the `spaces` searched. Statements take named parameters (`:name`), which the driver
 * numbers.
 */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` of the space's matching pages after `after` (rank, page id), best first, each
   * with the number of matching pages.
   */
  matchedPagesInSpace(
    spaceId: string,
    terms: SearchTerms,
    after: { rank: number; pageId: string } | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MatchedPageRow[]> {
    // Reads page_search, owned by the content engine: the search index is read as it was
    // written, for the space's matches.
    return this.query<MatchedPageRow>(
      manager,
      `WITH pages AS (${matchedPagesSql(':spaceId')})
       SELECT page_id, rank, (SELECT count(*) FROM pages) AS total FROM pages
        WHERE :first OR (rank, page_id) < (:afterRank::real, :afterPage)
        ORDER BY rank DESC, page_id DESC
        LIMIT :limit`,
      {
        ...terms,
        spaceId,
        first: after === null,
        afterRank: after?.rank ?? 0,
        afterPage: after?.pageId ?? '',
        limit,
      },
    );
  }

  /** The number of the space's matching pages. */
  async countMatchedPages(
    spaceId: string,
    terms: SearchTerms,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    // Reads page_search, owned by the content engine (as above).
    const rows = await this.query<{ total: string }>(
      manager,
      `SELECT count(*) AS total FROM (${matchedPagesSql(':spaceId')}) m`,
      { ...terms, spaceId },
    );
    return Number(rows[0].total);
  }

  /** The sections of the space's pages `pageIds` (of ranks `ranks`) that match any word. */
  sectionsOfPages(
    spaceId: string,
    terms: SearchTerms,
    pages: { pageIds: string[]; ranks: number[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    // Reads page_sections, owned by the content engine: the sections to show of the pages
    // found, in one statement.
    return this.query<SectionRow>(
      manager,
      sectionsSql(`SELECT :spaceId::varchar AS space_id, page_id, rank
                     FROM unnest(:pageIds::varchar[], :ranks::real[]) AS r(page_id, rank)`),
      { ...terms, spaceId, pageIds: pages.pageIds, ranks: pages.ranks },
    );
  }

  /**
   * Up to `limit` of the organization's live spaces that `viewer` may see and that have
   * matching pages, after `after` (rank, space id), best first, each with the number of them.
   */
  matchedSpaces(
    viewer: ContentViewer,
    terms: SearchTerms,
    after: { rank: number; spaceId: string } | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MatchedSpaceRow[]> {
    const visible = visibleContentCondition('space', 's.id', viewer);
    const scope = `SELECT s.id FROM spaces s
      WHERE s.organization_id = :organizationId AND s.deleted_at IS NULL
      ${visible ? `AND ${visible.sql}` : ''}`;
    return this.rankedSpaces(manager, scope, terms, after, limit, {
      ...visible?.params,
      organizationId: viewer.organizationId,
    });
  }

  /**
   * Up to `limit` of the live spaces among `spaceIds` that have matching pages, after `after`
   * (rank, space id), best first, each with the number of them.
   */
  matchedSpacesAmong(
    spaceIds: string[],
    terms: SearchTerms,
    after: { rank: number; spaceId: string } | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MatchedSpaceRow[]> {
    return this.rankedSpaces(manager, LIVE_AMONG, terms, after, limit, { spaceIds });
  }

  /**
   * The matching sections of the best PAGES_PER_SPACE matching pages of each of `shownIds`,
   * with each page's position among all the matching pages of the live spaces among
   * `spaceIds` (best first), in one statement over all of them.
   */
  positionedSectionsOfSpaces(
    spaceIds: string[],
    shownIds: string[],
    terms: SearchTerms,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PositionedSectionRow[]> {
    // Reads page_search and page_sections, owned by the content engine (as above).
    return this.query<PositionedSectionRow>(
      manager,
      sectionsSql(
        `SELECT space_id, page_id, rank, page_position
           FROM (SELECT m.*,
                        row_number() OVER (ORDER BY rank DESC, space_id DESC, page_id DESC)
                          AS page_position,
                        row_number() OVER (PARTITION BY space_id
                                           ORDER BY rank DESC, page_id DESC) AS n
                   FROM (${matchedPagesSql(LIVE_AMONG)}) m) p
          WHERE n <= ${PAGES_PER_SPACE} AND space_id = ANY(:shownIds::varchar[])`,
        ', p.page_position',
      ),
      { ...terms, spaceIds, shownIds },
    );
  }

  /** Spaces of `scope` (SQL of space ids) ranked by their best matching page, as above. */
  private rankedSpaces(
    manager: EntityManager,
    scope: string,
    terms: SearchTerms,
    after: { rank: number; spaceId: string } | null,
    limit: number,
    params: Record<string, unknown>,
  ): Promise<MatchedSpaceRow[]> {
    // Reads page_search, owned by the content engine: the spaces are ranked by their pages'
    // matches in one statement.
    return this.query<MatchedSpaceRow>(
      manager,
      `WITH ranked AS (SELECT space_id, max(rank) AS rank
                         FROM (${matchedPagesSql(scope)}) m GROUP BY space_id)
       SELECT r.space_id AS id, s.title, r.rank, (SELECT count(*) FROM ranked) AS total
         FROM ranked r JOIN spaces s ON s.id = r.space_id
        WHERE :first OR (r.rank, r.space_id) < (:afterRank::real, :afterSpace)
        ORDER BY r.rank DESC, r.space_id DESC
        LIMIT :limit`,
      {
        ...terms,
        ...params,
        first: after === null,
        afterRank: after?.rank ?? 0,
        afterSpace: after?.spaceId ?? '',
        limit,
      },
    );
  }

  /** The matching sections of the best PAGES_PER_SPACE matching pages of each space. */
  sectionsOfSpaces(
    spaceIds: string[],
    terms: SearchTerms,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    // Reads page_search and page_sections, owned by the content engine (as above).
    return this.query<SectionRow>(
      manager,
      sectionsSql(`SELECT space_id, page_id, rank
                     FROM (SELECT m.*, row_number() OVER (PARTITION BY space_id
                                                         ORDER BY rank DESC, page_id DESC) AS n
                             FROM (${matchedPagesSql('SELECT unnest(:spaceIds::varchar[])')}) m) p
                    WHERE n <= ${PAGES_PER_SPACE}`),
      { ...terms, spaceIds },
    );
  }

  private query<T>(
    manager: EntityManager,
    sql: string,
    params: Record<string, unknown>,
  ): Promise<T[]> {
    const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, params);
    return manager.query(text, values);
  }
}
