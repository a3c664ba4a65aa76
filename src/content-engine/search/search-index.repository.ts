import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Positions kept per lexeme and weight in a page's `page_search` vector. */
const PAGE_POSITIONS = 2;

/** The tables of the index, in the order their rows are deleted. */
const SEARCH_TABLES = ['page_sections', 'page_search'] as const;

/**
 * Inserts a batch of whole pages' sections and each page's `page_search` row: every lexeme of
 * its sections once, with its first positions in each weight (the vector is written as text,
 * so the lexeme is quoted as tsvector input wants).
 */
const INSERT_SQL = `
  WITH sections AS (
  INSERT INTO page_sections (space_id, page_id, section_id, document_hash, page_title, page_path,
                             section_title, body, tsv, ancestors, position, indexed_at)
  SELECT $1, r.page_id, r.section_id, r.document_hash, r.page_title, r.page_path,
         r.section_title, r.body,
         setweight(to_tsvector('english', r.lead_title), 'A')
           || setweight(to_tsvector('simple', r.lead_title), 'A')
           || setweight(to_tsvector('english', r.section_title), 'B')
           || setweight(to_tsvector('simple', r.section_title), 'B')
           || setweight(to_tsvector('english', r.body), 'C')
           || setweight(to_tsvector('simple', r.body), 'C'),
         r.ancestors::jsonb, r.position, $2
    FROM unnest($3::varchar[], $4::varchar[], $5::varchar[], $6::text[], $7::text[], $8::text[],
                $9::text[], $10::text[], $11::text[], $12::int[])
      AS r(page_id, section_id, document_hash, page_title, lead_title, page_path, section_title,
           body, ancestors, position)
  RETURNING page_id, position, tsv)
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
   GROUP BY page_id`;

/**
 * Sections of whole pages, column by column (the same index in every array is one section):
 * what `insertPages` writes. A page's sections are all in the same batch.
 */
export interface SectionColumns {
  pageIds: string[];
  sectionIds: string[];
  documentHashes: (string | null)[];
  pageTitles: string[];
  /** The page title on its lead section, '' on the others. */
  leadTitles: string[];
  paths: string[];
  sectionTitles: string[];
  bodies: string[];
  /** Each section's page's ancestors, as JSON. */
  ancestors: string[];
  positions: number[];
}

/** The `page_sections` and `page_search` tables: the search index of primary revisions. */
@Injectable()
export class SearchIndexRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Deletes every row of the space's index. */
  async deleteSpace(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (const table of SEARCH_TABLES) {
      await manager.query(`DELETE FROM ${table} WHERE space_id = $1`, [spaceId]);
    }
  }

  /** Deletes the rows of the space's pages `pageIds`. */
  async deletePages(
    spaceId: string,
    pageIds: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (const table of SEARCH_TABLES) {
      await manager.query(
        `DELETE FROM ${table} WHERE space_id = $1 AND page_id = ANY($2::varchar[])`,
        [spaceId, pageIds],
      );
    }
  }

  /** Inserts whole pages' sections and, from them, each page's `page_search` row. */
  async insertPages(
    spaceId: string,
    indexedAt: Date,
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
      sections.leadTitles,
      sections.paths,
      sections.sectionTitles,
      sections.bodies,
      sections.ancestors,
      sections.positions,
    ]);
  }
}
