import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { ContentEngine } from '../content-engine';
import type { JSONDocument } from '../documents/document';
import { CachedObjectStore } from '../tree/object-store';
import { documentSections } from './document-sections';
import { indexChanges, type IndexedPage } from './index-diff';

export interface ReindexResult {
  /** Pages whose sections were (re)written. */
  indexed: number;
  /** Pages whose sections were deleted without replacement. */
  removed: number;
}

/** Longest body stored per section; a section longer than this is searchable by its start only. */
const MAX_BODY = 100_000;
/** Sections per insert, at least: a batch ends after the page that reaches it. */
const INSERT_BATCH = 500;
const READ_BATCH = 500;

/** Positions kept per lexeme and weight in a page's `page_search` vector. */
const PAGE_POSITIONS = 2;

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
 * Keeps `page_sections` (and `page_search`, one row per indexed page) in step with a space's
 * primary revision. Re-indexing from one tree to the next walks both trees together, skipping
 * the subtrees they share (see `indexChanges`), and rewrites only the pages whose document,
 * title, path or ancestors' titles changed, and deletes the rows of pages that are gone.
 * Document pages are indexed (groups, links and computed pages have no body of their own;
 * their titles appear as ancestors).
 */
@Injectable()
export class SearchIndexer {
  constructor(
    private readonly engine: ContentEngine,
    private readonly clock: Clock,
  ) {}

  /**
   * Brings the space's rows from the tree `fromRootHash` (what they were indexed from; null =
   * unknown, rebuild everything) to the tree `toRootHash`. Run it in the transaction that moves
   * the primary so that the index never describes another revision than the space's.
   */
  async reindex(
    manager: EntityManager,
    spaceId: string,
    fromRootHash: string | null,
    toRootHash: string,
  ): Promise<ReindexResult> {
    if (fromRootHash === toRootHash) return { indexed: 0, removed: 0 };
    const store = new CachedObjectStore(this.engine.objectStore(manager));
    const { changed, removed } = await indexChanges(store, fromRootHash, toRootHash);
    for (const table of ['page_sections', 'page_search']) {
      if (fromRootHash === null) {
        await manager.query(`DELETE FROM ${table} WHERE space_id = $1`, [spaceId]);
      } else if (changed.length + removed.length > 0) {
        await manager.query(
          `DELETE FROM ${table} WHERE space_id = $1 AND page_id = ANY($2::varchar[])`,
          [spaceId, [...changed.map((page) => page.id), ...removed]],
        );
      }
    }
    await this.insert(manager, spaceId, changed);
    const reindexed = new Set(changed.map((page) => page.id));
    return {
      indexed: changed.length,
      removed: new Set(removed.filter((id) => !reindexed.has(id))).size,
    };
  }

  /** Rebuilds the space's rows from its current primary revision. */
  async rebuild(manager: EntityManager, spaceId: string): Promise<ReindexResult> {
    const rows: { tree: string }[] = await manager.query(
      `SELECT r.tree FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1`,
      [spaceId],
    );
    if (rows.length === 0) throw new Error(`Space ${spaceId} has no primary revision`);
    return this.reindex(manager, spaceId, null, rows[0].tree);
  }

  private async insert(
    manager: EntityManager,
    spaceId: string,
    pages: IndexedPage[],
  ): Promise<void> {
    const documents = await readDocuments(
      manager,
      pages.map((page) => page.documentHash).filter((hash): hash is string => hash !== null),
    );
    const batch = {
      pageIds: [] as string[],
      sectionIds: [] as string[],
      documentHashes: [] as (string | null)[],
      pageTitles: [] as string[],
      leadTitles: [] as string[],
      paths: [] as string[],
      sectionTitles: [] as string[],
      bodies: [] as string[],
      ancestors: [] as string[],
      positions: [] as number[],
    };
    const flush = async () => {
      if (batch.pageIds.length === 0) return;
      const columns = Object.values(batch) as unknown[][];
      await manager.query(INSERT_SQL, [spaceId, this.clock.now(), ...columns]);
      for (const column of columns) column.length = 0;
    };
    for (const page of pages) {
      const document = page.documentHash === null ? null : documents.get(page.documentHash);
      const ancestors = JSON.stringify(page.ancestors);
      for (const [position, section] of documentSections(document).entries()) {
        batch.pageIds.push(page.id);
        batch.sectionIds.push(section.id);
        batch.documentHashes.push(page.documentHash);
        batch.pageTitles.push(page.title);
        // The page title counts for the lead section only, so a title match is one hit.
        batch.leadTitles.push(position === 0 ? page.title : '');
        batch.paths.push(page.path);
        batch.sectionTitles.push(section.title || page.title);
        batch.bodies.push(section.body.slice(0, MAX_BODY));
        batch.ancestors.push(ancestors);
        batch.positions.push(position);
      }
      // A page's sections go in one statement, which writes its page_search row from them.
      if (batch.pageIds.length >= INSERT_BATCH) await flush();
    }
    await flush();
  }
}

/** Documents by hash, read in a few queries rather than one per page. */
async function readDocuments(
  manager: EntityManager,
  hashes: string[],
): Promise<Map<string, JSONDocument>> {
  const unique = [...new Set(hashes)];
  const documents = new Map<string, JSONDocument>();
  for (let i = 0; i < unique.length; i += READ_BATCH) {
    const rows: { hash: string; data: JSONDocument }[] = await manager.query(
      'SELECT hash, data FROM content_objects WHERE hash = ANY($1::char(64)[])',
      [unique.slice(i, i + READ_BATCH)],
    );
    for (const row of rows) documents.set(row.hash, row.data);
  }
  return documents;
}
