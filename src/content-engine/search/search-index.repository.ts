import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SectionColumns } from './section-columns';

/** The GIN indexes of the search index's tables. */
const GIN_INDEXES = [
  'IDX_page_search_tsv',
  'IDX_page_search_titles',
  'IDX_page_sections_tsv',
  'IDX_search_lexicon_trgm',
];

/** Positions kept per lexeme and weight in a page's `page_search` vector. */
const PAGE_POSITIONS = 2;

/**
 * The SQL condition that lexeme `word` is one the lexicon keeps: any of at most 64 characters
 * (longer ones are identifiers, hashes or URLs), short ones too (CJK bigrams are two), so that
 * a question's words are counted from it; corrections are made of words of three characters
 * or more only. A word it keeps and has no row for is on no page.
 */
export const lexiconKeeps = (word: string) => `length(${word}) <= 64`;
const LEXICON_WORD = lexiconKeeps('w');

/**
 * Inserts a batch of whole pages' sections, each page's `page_search` row (every lexeme of its
 * sections once, with its first positions in each weight; the vector is written as text, so
 * the lexeme is quoted as tsvector input wants), and adds the pages to the space's page count
 * (`search_index_state.pages`: its state is saved before any page is written) and their words
 * to its lexicon. Sections arrive analysed (folded and segmented: `indexText`) in the `*_terms`
 * columns; `$13` is the configuration that stems them. Each is indexed stemmed and unstemmed,
 * so that a prefix also finds words the stemmer shortened.
 */
const INSERT_SQL = `
  WITH sections AS (
  INSERT INTO page_sections (space_id, page_id, section_id, document_hash, page_title, page_path,
                             section_title, body, tsv, ancestors, position, indexed_at)
  SELECT $1, r.page_id, r.section_id, r.document_hash, r.page_title, r.page_path,
         r.section_title, r.body,
         setweight(to_tsvector($13::regconfig, r.lead_terms), 'A')
           || setweight(to_tsvector('simple', r.lead_terms), 'A')
           || setweight(to_tsvector($13::regconfig, r.title_terms), 'B')
           || setweight(to_tsvector('simple', r.title_terms), 'B')
           || setweight(to_tsvector($13::regconfig, r.body_terms), 'C')
           || setweight(to_tsvector('simple', r.body_terms), 'C'),
         r.ancestors::jsonb, r.position, $2
    FROM unnest($3::varchar[], $4::varchar[], $5::varchar[], $6::text[], $7::text[], $8::text[],
                $9::text[], $10::text[], $11::text[], $12::int[], $14::text[], $15::text[])
      AS r(page_id, section_id, document_hash, page_title, lead_terms, page_path, section_title,
           body, ancestors, position, title_terms, body_terms)
  RETURNING page_id, position, tsv),
  pages AS (
  INSERT INTO page_search (space_id, page_id, tsv)
  SELECT $1, page_id, string_agg(entry, ' ')::tsvector
    FROM (SELECT page_id,
                 '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':'
                   || string_agg(pos::text || weight, ',') AS entry
            FROM (SELECT s.page_id, u.lexeme, p.pos, p.weight,
                         row_number() OVER (PARTITION BY s.page_id, u.lexeme, p.weight
                                            ORDER BY p.pos, s.position) AS n
                    FROM sections s, unnest(s.tsv) u,
                         unnest(u.positions, u.weights) p(pos, weight)) occurrences
           WHERE n <= ${PAGE_POSITIONS}
           GROUP BY page_id, lexeme) entries
   GROUP BY page_id
  RETURNING tsv),
  counted AS (
  UPDATE search_index_state SET pages = pages + (SELECT count(*) FROM pages) WHERE space_id = $1)
  INSERT INTO search_lexicon (space_id, word, pages)
  SELECT $1, w, count(*) FROM pages, unnest(tsvector_to_array(tsv)) w
   WHERE ${LEXICON_WORD}
   GROUP BY w
  ON CONFLICT (space_id, word) DO UPDATE SET pages = search_lexicon.pages + excluded.pages`;

/**
 * Deletes pages' `page_search` rows and takes them off the space's page count, and their words
 * off its lexicon (a word left in no page keeps its row with 0 pages, read as absent, until the
 * next rebuild).
 */
const DELETE_PAGES_SQL = `
  WITH gone AS (
  DELETE FROM page_search WHERE space_id = $1 AND page_id = ANY($2::varchar[]) RETURNING tsv),
  counted AS (
  UPDATE search_index_state SET pages = pages - (SELECT count(*) FROM gone) WHERE space_id = $1),
  words AS (
  SELECT w, count(*)::int AS n FROM gone, unnest(tsvector_to_array(tsv)) w
   WHERE ${LEXICON_WORD}
   GROUP BY w)
  UPDATE search_lexicon l SET pages = l.pages - words.n
    FROM words WHERE l.space_id = $1 AND l.word = words.w`;

/** How a space's index was written (`search_index_state`). */
export interface IndexState {
  analyzer: number;
  language: string | null;
}

/**
 * The `page_sections`, `page_search`, `search_lexicon` and `search_index_state` tables: the
 * search index of primary revisions.
 */
@Injectable()
export class SearchIndexRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Deletes every row of the space's index. */
  async deleteSpace(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (const table of ['page_sections', 'page_search', 'search_lexicon']) {
      await manager.query(`DELETE FROM ${table} WHERE space_id = $1`, [spaceId]);
    }
    await manager.query(`UPDATE search_index_state SET pages = 0 WHERE space_id = $1`, [spaceId]);
  }

  /** Deletes the rows of the space's pages `pageIds`, and their words from its lexicon. */
  async deletePages(
    spaceId: string,
    pageIds: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM page_sections WHERE space_id = $1 AND page_id = ANY($2::varchar[])`,
      [spaceId, pageIds],
    );
    await manager.query(DELETE_PAGES_SQL, [spaceId, pageIds]);
  }

  /**
   * Inserts whole pages' sections and, from them, each page's `page_search` row and its words
   * in the lexicon; `config` (a text-search configuration) stems them.
   */
  async insertPages(
    spaceId: string,
    indexedAt: Date,
    config: string,
    sections: SectionColumns,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(INSERT_SQL, [
      spaceId,
      indexedAt,
      sections.pageIds,
      sections.sectionIds,
      sections.documentHashes,
      sections.pageTitles,
      sections.leadTerms,
      sections.paths,
      sections.sectionTitles,
      sections.bodies,
      sections.ancestors,
      sections.positions,
      config,
      sections.titleTerms,
      sections.bodyTerms,
    ]);
  }

  /**
   * What vacuum would keep for the index, which autovacuum never does on the embedded database
   * (and may not on a server): its GIN indexes' pending lists emptied and its tables analyzed
   * when out of date. Run after bulk writes and now and then.
   */
  async maintain(
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ pendingPages: number; analyzed: boolean }> {
    const pendingPages = await this.cleanPendingLists(manager);
    return { pendingPages, analyzed: await this.analyzeIfStale(manager) };
  }

  /**
   * Analyzes the index's tables when the planner's idea of them is out of date: when the rows
   * PostgreSQL last counted in `page_search` (`pg_class.reltuples`; -1 never) are off from the
   * pages the index holds (`search_index_state.pages`) by more than 50 + 10% (autovacuum's
   * default rule). Without statistics the planner guesses how many pages a word is on, and a
   * question's statements take twice as long at 10,000 pages; autovacuum, which would keep
   * them, never runs on the embedded database and may be off on a server. Answers whether it
   * analyzed.
   */
  async analyzeIfStale(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const [row]: { estimated: number; pages: number }[] = await manager.query(
      `SELECT (SELECT reltuples FROM pg_class WHERE oid = 'page_search'::regclass)::float8
                AS estimated,
              (SELECT coalesce(sum(pages), 0) FROM search_index_state)::float8 AS pages`,
    );
    const estimated = Math.max(0, row.estimated);
    if (Math.abs(row.pages - estimated) <= 50 + 0.1 * Math.max(row.pages, estimated)) return false;
    await manager.query(`ANALYZE page_search, page_sections, search_lexicon, search_index_state`);
    return true;
  }

  /**
   * Moves the entries that inserts left in the pending lists of the index's GIN indexes
   * (`fastupdate`) into the indexes proper; answers the pending pages there were. Until then
   * every search scans the pending list whole (up to `gin_pending_list_limit`, 4 MB: 5 ms for
   * a word on one page of 10,000, against 0.1 ms), and the planner, seeing it, reads tables
   * in order instead. Vacuum would do it; autovacuum never runs on the embedded database.
   */
  async cleanPendingLists(manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row]: { pages: string }[] = await manager.query(
      `SELECT (${GIN_INDEXES.map((name) => `gin_clean_pending_list('"${name}"'::regclass)`).join(
        ' + ',
      )})::text AS pages`,
    );
    return Number(row.pages);
  }

  /** How the space's index was written; undefined when it never was (or before versions). */
  async findState(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IndexState | undefined> {
    const rows: IndexState[] = await manager.query(
      `SELECT analyzer, language FROM search_index_state WHERE space_id = $1`,
      [spaceId],
    );
    return rows[0];
  }

  async saveState(
    spaceId: string,
    state: IndexState,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO search_index_state (space_id, analyzer, language) VALUES ($1, $2, $3)
       ON CONFLICT (space_id) DO UPDATE SET analyzer = excluded.analyzer,
                                            language = excluded.language`,
      [spaceId, state.analyzer, state.language],
    );
  }

  /**
   * Up to `limit` live spaces whose index was not written by `analyzer` (older, or never
   * recorded): what the upgrade job rebuilds. Reads `spaces`, owned by the spaces module, for
   * the live spaces with a primary revision.
   */
  async findOutdatedSpaces(
    analyzer: number,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT s.id FROM spaces s
         LEFT JOIN search_index_state st ON st.space_id = s.id
        WHERE s.deleted_at IS NULL
          AND (st.analyzer IS NULL OR st.analyzer <> $1)
        ORDER BY s.id LIMIT $2`,
      [analyzer, limit],
    );
    return rows.map((row) => row.id);
  }
}
