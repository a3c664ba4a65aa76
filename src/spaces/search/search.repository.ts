import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PageAncestor } from '../../content-engine/search/entities/page-section.entity';
import { lexiconKeeps } from '../../content-engine/search/search-index.repository';
import {
  type ContentViewer,
  visibleContentCondition,
} from '../../platform/policy/content-access/granted-content';
import { AppConfig } from '../../platform/config/app-config';
import { correctionThreshold } from './correction-threshold';
import { EXACT_TIER, type SearchQuery } from './search-query';

/** Pages shown per space in an organization-wide search. */
export const PAGES_PER_SPACE = 10;

/** Corrections kept per query term. */
const CORRECTIONS_PER_TERM = 3;

/** The spaces searched: SQL answering their ids, with its parameters. */
export interface SearchScope {
  sql: string;
  params: Record<string, unknown>;
  /**
   * Pages of those spaces left out (`withoutPages`: a site's visitor does not see them): no
   * hit, count, rank or typo decision includes them.
   */
  hidesPages?: boolean;
}

/**
 * The condition on `row` (a row with space_id and page_id, `pg`: a `page_search` row) that
 * leaves out the pages a scope hides.
 */
const shownPage = (scope: SearchScope, row = 'pg') =>
  scope.hidesPages
    ? `AND (${row}.space_id, ${row}.page_id) NOT IN (
         SELECT h.space_id, h.page_id
           FROM unnest(:hiddenSpaceIds::varchar[], :hiddenPageIds::varchar[]) AS h(space_id, page_id))`
    : '';

/**
 * A page's rank: in a tier above every other when it matches the query without corrections
 * (the tier only separates anything when corrections were added), in its space's language.
 */
const pageRank = (q: SearchQuery) => `(CASE WHEN pg.tsv @@ ${q.ownExact}
  THEN ${EXACT_TIER} + ts_rank(pg.tsv, ${q.ownExact}) ELSE ts_rank(pg.tsv, ${q.own}) END)::real`;

/**
 * Every matching page of the spaces of `scope`, with its rank, from `page_search` (one small
 * vector per page): a page matches when all the terms are on it, as its space's language
 * analyses them (the GIN index is asked for the pages matching in any language of the spaces
 * searched, then each page is held to its own).
 */
const matchedPagesSql = (scope: SearchScope, q: SearchQuery) => `
  SELECT pg.space_id, pg.page_id, ${pageRank(q)} AS rank
    FROM page_search pg
    ${q.perLanguage ? 'JOIN spaces s ON s.id = pg.space_id' : ''},
         (SELECT ${q.columns}) q
   WHERE pg.space_id IN (${scope.sql}) AND pg.tsv @@ q.query
     ${q.perLanguage ? `AND pg.tsv @@ ${q.own}` : ''}
     ${shownPage(scope)}`;

/**
 * Up to `limit` (SQL) of the pages of the spaces of `scope` whose `vector` (SQL over `pg`)
 * matches the query, held to their space's language, in the order the index finds them.
 */
const matchingPagesSql = (scope: SearchScope, q: SearchQuery, vector: string, limit: string) => `
  SELECT pg.space_id, pg.page_id
    FROM page_search pg
    ${q.perLanguage ? 'JOIN spaces s ON s.id = pg.space_id' : ''},
         (SELECT ${q.columns}) q
   WHERE pg.space_id IN (${scope.sql}) AND ${vector} @@ q.query
     ${q.perLanguage ? `AND pg.tsv @@ ${q.own}` : ''}
     ${shownPage(scope)}
   LIMIT ${limit}`;

/** The spaces `:spaceIds`, every page of them. */
const EVERY_PAGE_OF_SPACE_IDS: SearchScope = {
  sql: 'SELECT unnest(:spaceIds::varchar[])',
  params: {},
};

/** A page's title (weight A of its vector): the index `IDX_page_search_titles`. */
const TITLES = `ts_filter(pg.tsv, '{a}'::"char"[])`;

/**
 * CTEs ending in `ranked`: the pages of `scope` (one space) a search ranks, with their rank.
 * When at most :rankLimit pages match, every one (`first` holds them all): ranking and count
 * are exact. When more match, ranking them all would read every match's vector, so :rankLimit
 * candidates are ranked instead: the first pages the title index finds with every term in
 * their title (`titled`; when there are more than :rankLimit of them, no other match is
 * read), then, if they are fewer, other matching pages (those `first` holds, by id).
 * The candidates are the same from one request to the next while the space's index does not
 * change (the statement runs without sequential scans, `withIndexScans`, whose starting point
 * varies), so that later pages of results page through the same list; should they change
 * between two pages, the (rank, page id) cursor still shows no page twice.
 */
export const rankedPagesCtes = (scope: SearchScope, q: SearchQuery) => `
  WITH titled AS MATERIALIZED (${matchingPagesSql(scope, q, TITLES, ':rankLimit::int + 1')}),
  first AS MATERIALIZED (
    SELECT * FROM (${matchingPagesSql(scope, q, 'pg.tsv', ':rankLimit::int + 1')}) f
     WHERE (SELECT count(*) FROM titled) <= :rankLimit::int),
  large AS (SELECT (SELECT count(*) FROM titled) > :rankLimit::int
                   OR (SELECT count(*) FROM first) > :rankLimit::int AS yes),
  candidates AS (
    SELECT space_id, page_id FROM first WHERE NOT (SELECT yes FROM large)
    UNION ALL
    (SELECT space_id, page_id
       FROM (SELECT space_id, page_id, 0 AS tier FROM titled
             UNION ALL
             SELECT space_id, page_id, 1 AS tier FROM first
              WHERE page_id NOT IN (SELECT page_id FROM titled)) c
      WHERE (SELECT yes FROM large)
      ORDER BY tier, page_id
      LIMIT :rankLimit::int)),
  ranked AS (
    SELECT pg.space_id, pg.page_id, ${pageRank(q)} AS rank
      FROM candidates c
      JOIN page_search pg ON pg.space_id = c.space_id AND pg.page_id = c.page_id
      ${q.perLanguage ? 'JOIN spaces s ON s.id = pg.space_id' : ''},
           (SELECT ${q.columns}) q)`;

/**
 * The sections of the pages `pages` (SQL of space_id, page_id, rank, and `pageColumns`) that
 * match any of the terms, with their rank and their page's, in the order of their pages (best
 * first), then best section first.
 */
const sectionsSql = (q: SearchQuery, pages: string, pageColumns = '') => `
  WITH shown AS (${pages})
  SELECT ps.space_id, ps.page_id, ps.section_id, ps.page_title, ps.page_path, ps.section_title,
         ps.body, ps.ancestors, ps.position, ts_rank(ps.tsv, q.query) AS rank,
         p.rank AS page_rank${pageColumns}
    FROM shown p
    JOIN page_sections ps ON ps.space_id = p.space_id AND ps.page_id = p.page_id,
         (SELECT ${q.columns}) q
   WHERE ps.tsv @@ q.any
   ORDER BY p.rank DESC, p.page_id DESC, rank DESC, ps.position`;

/**
 * How `rankByTerms` scores a page for a question's words: BM25 (k1, b) with fields, over the
 * whole page (weighing `pageWeight`) and over its best matching section (weighing 1) plus
 * `otherSections` of its other matching sections' scores. A term's frequency is ts_rank_cd of
 * that term alone, the sum of its occurrences' weights (weights `{D, C, B, A}`: text 1, a
 * heading's words `heading`, the page title `title`; ts_rank_cd takes weights of at most 1,
 * so they are divided by the largest and the sum multiplied back). A section's length is its
 * text's, in bytes; a page's the number of distinct words of its vector (`page_search` keeps
 * two positions per word and weight); each is compared with an average typical of
 * documentation, not the site's own, which would read the whole index per question. Chosen
 * on the tuning half of bench/answers-quality.js's questions (bench/README.md).
 *
 * What it reads is bounded whatever the site's size: a word's pages are counted exactly up to
 * `countCap` (beyond, the lexicon's count); the candidates are the pages of the rarest words,
 * up to `candidates` pages (words are taken rarest first while the pages of those already
 * taken are fewer), every word is scored on them from their page vectors, and sections are
 * read of the best `sectionPages` of them only.
 */
export const TERM_RANKING = {
  section: { k1: 2, b: 0.5, title: 2, heading: 2, averageLength: 500 },
  page: { k1: 2, b: 0.75, title: 5, heading: 2, averageLength: 300 },
  pageWeight: 2,
  otherSections: 0.1,
  countCap: 1000,
  candidates: 100,
  sectionPages: 30,
} as const;

/** ts_rank_cd's weights `{D, C, B, A}` (at most 1) for fields, and what to multiply back. */
function rankWeights(fields: { title: number; heading: number }): {
  weights: number[];
  scale: number;
} {
  const scale = Math.max(1, fields.title, fields.heading);
  return { weights: [0, 1 / scale, fields.heading / scale, fields.title / scale], scale };
}

/** One of a question's words as `rankByTerms` searches it in the spaces of one language. */
export interface RankedTerm {
  /** The word's number in the question (the same for every language it is analysed for). */
  n: number;
  /** The text-search configuration of those spaces (TEXT_SEARCH_CONFIGS). */
  config: string;
  /** `to_tsquery` input (`tsqueryText(…).words`). */
  query: string;
  /** The spaces of that language. */
  spaceIds: string[];
}

/**
 * `column = word` for a lexicon lookup, written as a range that only the lexicon's primary key
 * (a btree on space and word) serves: its trigram index (for corrections) supports `=` too,
 * and the planner, which cannot estimate a GIN scan for a value known only as the statement
 * runs, took it: some 500 index pages read per word rather than 3 (6 ms a word at 10,000
 * pages).
 */
const LEXICON_WORD_IS = (column: string, word: string) => `${column} BETWEEN ${word} AND ${word}`;

/**
 * CTEs `terms` (a question's words as tsqueries, one row per word and space: `RankedTerm`s
 * passed as the :term… arrays) and `term_pages` (by word number n, the pages it is on: the
 * lexicon's count of its words, the largest when it has several; or when one of them is a word
 * the lexicon does not keep (over 64 characters) the pages matching it, counted up to
 * :countCap; none for stop words).
 */
const termPagesCtes = (scope: SearchScope) => `
       terms AS MATERIALIZED (
         SELECT t.n, t.space_id, to_tsquery(t.config::regconfig, t.query) AS query
           FROM unnest(:termNos::int[], :termSpaceIds::varchar[], :termConfigs::text[],
                       :termQueries::text[]) AS t(n, space_id, config, query)
          WHERE t.space_id IN (${scope.sql})),
       term_pages AS MATERIALIZED (
         SELECT t.n, sum(coalesce(l.pages, c.pages))::int AS pages
           FROM terms t
           CROSS JOIN LATERAL (
             SELECT CASE WHEN bool_and(${lexiconKeeps('w.word')})
                         THEN coalesce(max(l.pages), 0) END AS pages
               FROM (SELECT (regexp_matches(t.query::text, '''([^'']+)''', 'g'))[1]
                              COLLATE "C" AS word) w
               LEFT JOIN search_lexicon l
                 ON l.space_id = t.space_id AND ${LEXICON_WORD_IS('l.word', 'w.word')}
           ) l
           CROSS JOIN LATERAL (
             SELECT count(*)::int AS pages
               FROM (SELECT 1 FROM page_search pg
                      WHERE l.pages IS NULL AND numnode(t.query) > 0
                        AND pg.space_id = t.space_id AND pg.tsv @@ t.query ${shownPage(scope)}
                      LIMIT :countCap) m) c
          GROUP BY t.n)`;

/** The :term… parameters of `termPagesCtes`. */
function termParams(terms: RankedTerm[]): Record<string, unknown> {
  const rows = terms.flatMap((term) => term.spaceIds.map((spaceId) => ({ ...term, spaceId })));
  return {
    termNos: rows.map((row) => row.n),
    termSpaceIds: rows.map((row) => row.spaceId),
    termConfigs: rows.map((row) => row.config),
    termQueries: rows.map((row) => row.query),
    countCap: TERM_RANKING.countCap,
  };
}

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

/** A matching page and its rank, with the number of matching pages searched. */
export interface MatchedPageRow {
  page_id: string;
  rank: number;
  total: string;
}

/**
 * A space with matches, its best page's rank, with the number of spaces with matches and of
 * matching pages in them all.
 */
export interface MatchedSpaceRow {
  id: string;
  title: string;
  language: string | null;
  rank: number;
  total: string;
  pages: string;
}

/**
 * The search reads: the content engine's search index (`page_search`, `page_sections`,
 * `search_lexicon`, and `search_index_state`'s page counts) joined to the `spaces` searched.
 * Statements take named parameters (`:name`), which the driver numbers.
 */
@Injectable()
export class SearchRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** One space (whatever its state: the caller was granted it). */
  spaceScope(spaceId: string): SearchScope {
    return { sql: 'SELECT :scopeSpaceId::varchar', params: { scopeSpaceId: spaceId } };
  }

  /** The live spaces among `spaceIds`: a search over a list of spaces never reads the trash. */
  liveSpacesScope(spaceIds: string[]): SearchScope {
    return {
      sql: `SELECT s.id FROM spaces s
             WHERE s.id = ANY(:scopeSpaceIds::varchar[]) AND s.deleted_at IS NULL`,
      params: { scopeSpaceIds: spaceIds },
    };
  }

  /**
   * `scope` without `hidden`, pages of its spaces by space id: a site's visitor searches only
   * the pages it sees. `scope` as it is when none is hidden.
   */
  withoutPages(scope: SearchScope, hidden: ReadonlyMap<string, readonly string[]>): SearchScope {
    const spaceIds: string[] = [];
    const pageIds: string[] = [];
    for (const [spaceId, ids] of hidden) {
      for (const pageId of ids) {
        spaceIds.push(spaceId);
        pageIds.push(pageId);
      }
    }
    if (pageIds.length === 0) return scope;
    return {
      sql: scope.sql,
      params: { ...scope.params, hiddenSpaceIds: spaceIds, hiddenPageIds: pageIds },
      hidesPages: true,
    };
  }

  /**
   * The organization's live spaces that `viewer` may see (or only `spaceId` among them), as
   * the content-access rules decide for lists.
   */
  organizationScope(viewer: ContentViewer, spaceId?: string): SearchScope {
    const visible = visibleContentCondition('space', 's.id', viewer);
    return {
      sql: `SELECT s.id FROM spaces s
             WHERE s.organization_id = :scopeOrganizationId AND s.deleted_at IS NULL
             ${spaceId !== undefined ? 'AND s.id = :scopeSpaceId' : ''}
             ${visible ? `AND ${visible.sql}` : ''}`,
      params: {
        ...visible?.params,
        scopeOrganizationId: viewer.organizationId,
        ...(spaceId !== undefined ? { scopeSpaceId: spaceId } : {}),
      },
    };
  }

  /** The spaces of `scope`, with their title and language. */
  spaces(
    scope: SearchScope,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ id: string; title: string; language: string | null }[]> {
    return this.query(
      manager,
      `SELECT id, title, language FROM spaces WHERE id IN (${scope.sql}) ORDER BY id`,
      scope.params,
    );
  }

  /** The languages of the spaces of `scope` (null: none set). */
  async languages(
    scope: SearchScope,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<(string | null)[]> {
    const rows = await this.query<{ language: string | null }>(
      manager,
      `SELECT DISTINCT language FROM spaces WHERE id IN (${scope.sql})`,
      scope.params,
    );
    return rows.map((row) => row.language);
  }

  /**
   * For each of `terms`, up to CORRECTIONS_PER_TERM other words of the lexicons of the spaces
   * of `scope` within `maxEdits` of it (Levenshtein; found by trigram similarity first, so
   * through the trigram index), nearest and most similar first.
   */
  async corrections(
    scope: SearchScope,
    terms: { text: string; maxEdits: number }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string[]>> {
    // Reads search_lexicon, owned by the content engine: the words its index holds.
    const rows = await manager.transaction(async (inner) => {
      // Lowers the threshold of `%` for this transaction only, and has it read through the
      // trigram index: the planner, which counts a trigram comparison as cheap, would compare
      // the question's word with every word of the lexicon (15 ms at 10,000 words).
      await inner.query(
        `SELECT set_config('pg_trgm.similarity_threshold', $1, true),
                set_config('enable_seqscan', 'off', true)`,
        [String(correctionThreshold(terms))],
      );
      return this.query<{ term: string; word: string }>(
        inner,
        `SELECT t.term, c.word
               FROM unnest(:terms::text[], :maxEdits::int[]) AS t(term, max_edits)
               CROSS JOIN LATERAL (
                 SELECT l.word, levenshtein_less_equal(l.word, t.term, t.max_edits) AS edits,
                        similarity(l.word, t.term) AS similarity
                   FROM search_lexicon l
                  WHERE l.space_id IN (${scope.sql}) AND l.word % t.term AND l.pages > 0
                    AND l.word <> t.term AND length(l.word) >= 3) c
              WHERE c.edits <= t.max_edits
              ORDER BY t.term, c.edits, c.similarity DESC, c.word`,
        {
          ...scope.params,
          terms: terms.map((term) => term.text),
          maxEdits: terms.map((term) => term.maxEdits),
        },
      );
    });
    const corrections = new Map<string, string[]>();
    for (const row of rows) {
      const words = corrections.get(row.term) ?? [];
      if (words.length < CORRECTIONS_PER_TERM && !words.includes(row.word)) words.push(row.word);
      corrections.set(row.term, words);
    }
    return corrections;
  }

  /**
   * Up to `limit` of the pages of `scope` (one space) that the search ranks (every matching
   * page, or SEARCH_EXACT_RANK_LIMIT candidates when more match: `rankedPagesCtes`) after
   * `after` (rank, page id), best first, each with the number of pages ranked.
   */
  matchedPages(
    scope: SearchScope,
    q: SearchQuery,
    after: { rank: number; pageId: string } | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MatchedPageRow[]> {
    // Reads page_search, owned by the content engine: the search index is read as it was
    // written, for the space's matches.
    return this.withIndexScans(manager, (inner) =>
      this.query<MatchedPageRow>(
        inner,
        `${rankedPagesCtes(scope, q)}
       SELECT page_id, rank, (SELECT count(*) FROM ranked) AS total FROM ranked
        WHERE :first OR (rank, page_id) < (:afterRank::real, :afterPage)
        ORDER BY rank DESC, page_id DESC
        LIMIT :limit`,
        {
          ...q.params,
          ...scope.params,
          rankLimit: this.config.SEARCH_EXACT_RANK_LIMIT,
          first: after === null,
          afterRank: after?.rank ?? 0,
          afterPage: after?.pageId ?? '',
          limit,
        },
      ),
    );
  }

  /** The number of pages of `scope` (one space) that the search ranks (as `matchedPages`). */
  async countMatchedPages(
    scope: SearchScope,
    q: SearchQuery,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    // Reads page_search, owned by the content engine (as above).
    const rows = await this.withIndexScans(manager, (inner) =>
      this.query<{ total: string }>(
        inner,
        `${rankedPagesCtes(scope, q)} SELECT count(*) AS total FROM ranked`,
        { ...q.params, ...scope.params, rankLimit: this.config.SEARCH_EXACT_RANK_LIMIT },
      ),
    );
    return Number(rows[0].total);
  }

  /** The sections of the space's pages `pageIds` (of ranks `ranks`) that match any term. */
  sectionsOfPages(
    spaceId: string,
    q: SearchQuery,
    pages: { pageIds: string[]; ranks: number[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    // Reads page_sections, owned by the content engine: the sections to show of the pages
    // found, in one statement.
    return this.query<SectionRow>(
      manager,
      sectionsSql(
        q,
        `SELECT :spaceId::varchar AS space_id, page_id, rank
           FROM unnest(:pageIds::varchar[], :ranks::real[]) AS r(page_id, rank)`,
      ),
      { ...q.params, spaceId, pageIds: pages.pageIds, ranks: pages.ranks },
    );
  }

  /**
   * Up to `limit` of the spaces of `scope` that have matching pages, after `after` (rank,
   * space id), ranked by their best page, each with the number of them and of matching pages.
   */
  rankedSpaces(
    scope: SearchScope,
    q: SearchQuery,
    after: { rank: number; spaceId: string } | null,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MatchedSpaceRow[]> {
    // Reads page_search, owned by the content engine: the spaces are ranked by their pages'
    // matches in one statement.
    return this.query<MatchedSpaceRow>(
      manager,
      `WITH ranked AS (SELECT space_id, max(rank) AS rank, count(*) AS pages
                         FROM (${matchedPagesSql(scope, q)}) m GROUP BY space_id)
       SELECT r.space_id AS id, s.title, s.language, r.rank, (SELECT count(*) FROM ranked) AS total,
              (SELECT sum(pages) FROM ranked) AS pages
         FROM ranked r JOIN spaces s ON s.id = r.space_id
        WHERE :first OR (r.rank, r.space_id) < (:afterRank::real, :afterSpace)
        ORDER BY r.rank DESC, r.space_id DESC
        LIMIT :limit`,
      {
        ...q.params,
        ...scope.params,
        first: after === null,
        afterRank: after?.rank ?? 0,
        afterSpace: after?.spaceId ?? '',
        limit,
      },
    );
  }

  /**
   * The matching sections of the best PAGES_PER_SPACE matching pages of each of `shownIds`,
   * with each page's position among all the matching pages of `scope` (best first), in one
   * statement over all of them.
   */
  positionedSectionsOfSpaces(
    scope: SearchScope,
    shownIds: string[],
    q: SearchQuery,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PositionedSectionRow[]> {
    // Reads page_search and page_sections, owned by the content engine (as above).
    return this.query<PositionedSectionRow>(
      manager,
      sectionsSql(
        q,
        `SELECT space_id, page_id, rank, page_position
           FROM (SELECT m.*,
                        row_number() OVER (ORDER BY rank DESC, space_id DESC, page_id DESC)
                          AS page_position,
                        row_number() OVER (PARTITION BY space_id
                                           ORDER BY rank DESC, page_id DESC) AS n
                   FROM (${matchedPagesSql(scope, q)}) m) p
          WHERE n <= ${PAGES_PER_SPACE} AND space_id = ANY(:shownIds::varchar[])`,
        ', p.page_position',
      ),
      { ...q.params, ...scope.params, shownIds },
    );
  }

  /**
   * The `limit` sections of the spaces of `scope` whose embedding by `model` is nearest to
   * `vector` (cosine distance, pgvector) and at least `minSimilarity` similar to it, each with
   * its rank (the similarity, 1 − distance) and its page's (its best section's), best page
   * first. Reads `section_embeddings` and `page_sections`.
   */
  nearestSections(
    scope: SearchScope,
    model: string,
    vector: number[],
    minSimilarity: number,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    return this.query<SectionRow>(
      manager,
      `WITH nearest AS (
         SELECT e.space_id, e.page_id, e.section_id,
                CAST(e.embedding AS vector) <=> CAST(:question AS vector) AS distance
           FROM section_embeddings e
          WHERE e.space_id IN (${scope.sql}) AND e.model = :model
            AND cardinality(e.embedding) = :dimensions
            ${shownPage(scope, 'e')}
          ORDER BY distance LIMIT :limit)
       SELECT * FROM (
         SELECT ps.space_id, ps.page_id, ps.section_id, ps.page_title, ps.page_path,
                ps.section_title, ps.body, ps.ancestors, ps.position,
                (1 - n.distance)::real AS rank,
                max(1 - n.distance) OVER (PARTITION BY n.space_id, n.page_id)::real AS page_rank
           FROM nearest n
           JOIN page_sections ps ON ps.space_id = n.space_id AND ps.page_id = n.page_id
                                AND ps.section_id = n.section_id
          WHERE n.distance <= 1 - :minSimilarity::real) r
        ORDER BY page_rank DESC, space_id, page_id, rank DESC`,
      {
        ...scope.params,
        model,
        question: `[${vector.join(',')}]`,
        dimensions: vector.length,
        minSimilarity,
        limit,
      },
    );
  }

  /**
   * The `limit` pages of the spaces of `scope` that best match any of `terms` (a question's
   * words: TERM_RANKING), each word weighing its `weights[n]` times its inverse document
   * frequency among the pages of `scope`, with their sections that match any word, best page
   * first, then best section; and, by word, the pages it matched and whether it is only stop
   * words. One statement, through the GIN index of `page_search` and the keys of
   * `page_search`, `page_sections` and `search_lexicon`.
   */
  async rankByTerms(
    scope: SearchScope,
    terms: RankedTerm[],
    weights: number[],
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    const { section, page } = TERM_RANKING;
    const sectionWeights = rankWeights(section);
    const pageWeights = rankWeights(page);
    /** A term's BM25 score in `vector` (of `length`), `t.query` the term, `i.idf` its weight. */
    const bm25 = (
      vector: string,
      length: string,
      { k1, b, averageLength }: { k1: number; b: number; averageLength: number },
      { weights: rankBy, scale }: { weights: string; scale: number },
    ) => {
      const tf = `(${scale} * ts_rank_cd(${rankBy}, ${vector}, t.query, 0))`;
      return `i.idf * ${tf} * ${k1 + 1}
                / (${tf} + ${k1} * (${1 - b} + ${b} * ${length} / ${averageLength}))`;
    };
    const pageScore = bm25('pg.tsv', 'length(pg.tsv)', page, {
      weights: ':pageWeights::real[]',
      scale: pageWeights.scale,
    });
    const sectionScore = bm25('ps.tsv', 'octet_length(ps.body)', section, {
      weights: ':sectionWeights::real[]',
      scale: sectionWeights.scale,
    });
    // Reads page_search, page_sections, search_lexicon and search_index_state, owned by the
    // content engine: the pages matching a question's words, ranked in one statement.
    return this.query<SectionRow>(
      manager,
      `WITH ${termPagesCtes(scope)},
       total AS MATERIALIZED (
         SELECT coalesce(sum(pages), 0)::int AS pages
           FROM search_index_state WHERE space_id IN (${scope.sql})),
       idf AS MATERIALIZED (
         SELECT tp.n, tp.pages,
                (:weights::real[])[tp.n + 1]
                  * ln(1 + greatest(total.pages - tp.pages, 0) / (tp.pages + 0.5)) AS idf
           FROM term_pages tp, total),
       selective AS MATERIALIZED (
         SELECT n FROM (
           SELECT n, sum(pages) OVER (ORDER BY pages, n ROWS BETWEEN UNBOUNDED PRECEDING
                                                          AND 1 PRECEDING) AS before
             FROM idf WHERE pages > 0) r
          WHERE coalesce(before, 0) < :candidates),
       candidates AS MATERIALIZED (
         SELECT DISTINCT t.space_id, m.page_id
           FROM terms t
           JOIN selective USING (n)
           CROSS JOIN LATERAL (
             SELECT pg.page_id FROM page_search pg
              WHERE pg.space_id = t.space_id AND pg.tsv @@ t.query ${shownPage(scope)}
              LIMIT :candidates) m),
       page_scores AS MATERIALIZED (
         SELECT c.space_id, c.page_id, s.score
           FROM candidates c
           JOIN page_search pg ON pg.space_id = c.space_id AND pg.page_id = c.page_id
           CROSS JOIN LATERAL (
             SELECT sum(${pageScore}) AS score
               FROM terms t JOIN idf i ON i.n = t.n
              WHERE t.space_id = c.space_id AND pg.tsv @@ t.query) s
          ORDER BY s.score DESC, c.space_id, c.page_id
          LIMIT :sectionPages),
       section_scores AS MATERIALIZED (
         SELECT ps.space_id, ps.page_id, ps.section_id, s.score
           FROM page_scores p
           JOIN page_sections ps ON ps.space_id = p.space_id AND ps.page_id = p.page_id
           CROSS JOIN LATERAL (
             SELECT sum(${sectionScore}) AS score
               FROM terms t JOIN idf i ON i.n = t.n
              WHERE t.space_id = ps.space_id AND ps.tsv @@ t.query) s
          WHERE s.score IS NOT NULL),
       ranked AS MATERIALIZED (
         SELECT space_id, page_id, sum(score) AS rank
           FROM (SELECT space_id, page_id, ${TERM_RANKING.pageWeight} * score AS score
                   FROM page_scores
                 UNION ALL
                 SELECT space_id, page_id,
                        max(score) + ${TERM_RANKING.otherSections} * (sum(score) - max(score))
                   FROM section_scores GROUP BY space_id, page_id) parts
          GROUP BY space_id, page_id
          ORDER BY rank DESC, space_id, page_id
          LIMIT :limit)
       SELECT ps.space_id, ps.page_id, ps.section_id, ps.page_title, ps.page_path,
              ps.section_title, ps.body, ps.ancestors, ps.position, s.score::real AS rank,
              r.rank::real AS page_rank
         FROM ranked r
         JOIN section_scores s ON s.space_id = r.space_id AND s.page_id = r.page_id
         JOIN page_sections ps ON ps.space_id = s.space_id AND ps.page_id = s.page_id
                              AND ps.section_id = s.section_id
        ORDER BY r.rank DESC, r.space_id, r.page_id, s.score DESC, ps.position`,
      {
        ...scope.params,
        ...termParams(terms),
        weights,
        pageWeights: pageWeights.weights,
        sectionWeights: sectionWeights.weights,
        candidates: TERM_RANKING.candidates,
        sectionPages: TERM_RANKING.sectionPages,
        limit,
      },
    );
  }

  /**
   * By word number (0 to `words` − 1), the pages of the spaces of `scope` a question's word is
   * on (`termPagesCtes`; 0 when it is not searched in any of them), and whether it is only
   * stop words there.
   */
  async wordPages(
    scope: SearchScope,
    terms: RankedTerm[],
    words: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ pages: number; stopWord: boolean }[]> {
    // Reads search_lexicon and page_search, owned by the content engine (as above).
    const rows = await this.query<{ n: number; pages: number; stop_word: boolean }>(
      manager,
      `WITH ${termPagesCtes(scope)}
       SELECT tp.n, tp.pages, w.stop_word
         FROM term_pages tp
         JOIN (SELECT n, bool_and(numnode(query) = 0) AS stop_word FROM terms GROUP BY n) w
           ON w.n = tp.n`,
      { ...scope.params, ...termParams(terms) },
    );
    const byWord = new Map(rows.map((row) => [row.n, row]));
    return Array.from({ length: words }, (_word, n) => ({
      pages: byWord.get(n)?.pages ?? 0,
      stopWord: byWord.get(n)?.stop_word ?? true,
    }));
  }

  /** The matching sections of the best PAGES_PER_SPACE matching pages of each space. */
  sectionsOfSpaces(
    spaceIds: string[],
    q: SearchQuery,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SectionRow[]> {
    // Reads page_search and page_sections, owned by the content engine (as above).
    return this.query<SectionRow>(
      manager,
      sectionsSql(
        q,
        `SELECT space_id, page_id, rank
           FROM (SELECT m.*, row_number() OVER (PARTITION BY space_id
                                               ORDER BY rank DESC, page_id DESC) AS n
                   FROM (${matchedPagesSql(EVERY_PAGE_OF_SPACE_IDS, q)}) m) p
          WHERE n <= ${PAGES_PER_SPACE}`,
      ),
      { ...q.params, spaceIds },
    );
  }

  /**
   * Runs `read` in a transaction without sequential scans: a scan stopping at a limit then
   * reads through the indexes, in the same order every time, rather than through the table
   * from wherever a concurrent scan is (synchronized scans), and reads only matching rows
   * (the planner, seeing a common word, would otherwise scan the table).
   */
  private withIndexScans<T>(
    manager: EntityManager,
    read: (inner: EntityManager) => Promise<T>,
  ): Promise<T> {
    return manager.transaction(async (inner) => {
      await inner.query(`SELECT set_config('enable_seqscan', 'off', true)`);
      return read(inner);
    });
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
