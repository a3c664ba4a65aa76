import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { ContentEngine } from '../content-engine';
import { ContentObjectsRepository } from '../content-objects.repository';
import type { JSONDocument } from '../documents/document';
import { RevisionsRepository } from '../revisions.repository';
import { CachedObjectStore } from '../tree/object-store';
import { ContentHeads } from '../writes/content-heads';
import { documentSections } from './document-sections';
import { indexChanges, type IndexedPage } from './index-diff';
import { SearchIndexRepository } from './search-index.repository';
import { textSearchConfig } from './search-languages';
import { addPageSections, emptyColumns, type SectionColumns } from './section-columns';

/**
 * The version of how text is analysed for the index (folding, segmentation, stemming by
 * language, the lexicon). An index written by another version is rebuilt, not updated: bump
 * it whenever `indexText` or the insert statement would write other rows for the same page.
 */
export const SEARCH_ANALYZER = 3;

export interface ReindexResult {
  /** Pages whose sections were (re)written. */
  indexed: number;
  /** Pages whose sections were deleted without replacement. */
  removed: number;
}

/** Sections per insert, at least: a batch ends after the page that reaches it. */
const INSERT_BATCH = 500;
const READ_BATCH = 500;

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
    private readonly index: SearchIndexRepository,
    private readonly objects: ContentObjectsRepository,
    private readonly revisions: RevisionsRepository,
    private readonly heads: ContentHeads,
    private readonly clock: Clock,
  ) {}

  /**
   * Brings the space's rows from the tree `fromRootHash` (what they were indexed from; null =
   * unknown, rebuild everything) to the tree `toRootHash`. Run it in the transaction that moves
   * the primary so that the index never describes another revision than the space's. Rows
   * written by another analyzer version or for another language than the space's are
   * rebuilt whole.
   */
  async reindex(
    manager: EntityManager,
    spaceId: string,
    fromRootHash: string | null,
    toRootHash: string,
  ): Promise<ReindexResult> {
    const head = await this.heads.spaces.findHead(spaceId, '', manager);
    const language = head?.language ?? null;
    const state = await this.index.findState(spaceId, manager);
    const current = state?.analyzer === SEARCH_ANALYZER && state.language === language;
    const from = current ? fromRootHash : null;
    if (from === toRootHash) return { indexed: 0, removed: 0 };
    const store = new CachedObjectStore(this.engine.objectStore(manager));
    const { changed, removed } = await indexChanges(store, from, toRootHash);
    if (!current) {
      await this.index.saveState(spaceId, { analyzer: SEARCH_ANALYZER, language }, manager);
    }
    if (from === null) {
      await this.index.deleteSpace(spaceId, manager);
    } else if (changed.length + removed.length > 0) {
      await this.index.deletePages(
        spaceId,
        [...changed.map((page) => page.id), ...removed],
        manager,
      );
    }
    await this.insert(manager, spaceId, language, changed);
    const reindexed = new Set(changed.map((page) => page.id));
    return {
      indexed: changed.length,
      removed: new Set(removed.filter((id) => !reindexed.has(id))).size,
    };
  }

  /**
   * How the space's rows are written now: whether by this analyzer in the space's language
   * (else they are rebuilt whole), and the language.
   */
  async indexState(
    manager: EntityManager,
    spaceId: string,
  ): Promise<{ current: boolean; language: string | null }> {
    const head = await this.heads.spaces.findHead(spaceId, '', manager);
    const language = head?.language ?? null;
    const state = await this.index.findState(spaceId, manager);
    return {
      current: state?.analyzer === SEARCH_ANALYZER && state.language === language,
      language,
    };
  }

  /**
   * One step of a catch-up (SearchIndexCatchUp): the rows of the pages `ids` rewritten as
   * `batches` has them (sectionBatches' for `options.language`; pages it lacks lose theirs),
   * so that the step's transaction only deletes and inserts rows; `rebuild` first deletes
   * every row of the space and records this analyzer and language.
   */
  async rewriteSections(
    manager: EntityManager,
    spaceId: string,
    ids: readonly string[],
    batches: SectionColumns[],
    options: { rebuild: boolean; language: string | null },
  ): Promise<void> {
    if (options.rebuild) {
      await this.index.saveState(
        spaceId,
        { analyzer: SEARCH_ANALYZER, language: options.language },
        manager,
      );
      await this.index.deleteSpace(spaceId, manager);
    } else {
      await this.index.deletePages(spaceId, ids, manager);
    }
    await this.write(manager, spaceId, options.language, batches);
  }

  /**
   * The sections of `pages`, their text analysed for `language`, in batches of INSERT_BATCH
   * sections or a few more (a page's sections are in one batch); their documents read through
   * `manager` (documents are immutable: outside a transaction too).
   */
  async sectionBatches(
    manager: EntityManager,
    pages: IndexedPage[],
    language: string | null,
  ): Promise<SectionColumns[]> {
    const documents = await this.readDocuments(
      manager,
      pages.map((page) => page.documentHash).filter((hash): hash is string => hash !== null),
    );
    const batches: SectionColumns[] = [];
    let batch = emptyColumns();
    for (const page of pages) {
      const document = page.documentHash === null ? null : documents.get(page.documentHash);
      addPageSections(batch, page, documentSections(document), language);
      if (batch.pageIds.length >= INSERT_BATCH) {
        batches.push(batch);
        batch = emptyColumns();
      }
    }
    if (batch.pageIds.length > 0) batches.push(batch);
    return batches;
  }

  /** Rebuilds the space's rows from its current primary revision. */
  async rebuild(manager: EntityManager, spaceId: string): Promise<ReindexResult> {
    // Held until the transaction ends: a commit's re-index of the same pages cannot interleave.
    const head = await this.heads.spaces.findHead(spaceId, 'FOR SHARE', manager);
    const [primary] = head ? await this.revisions.findTrees([head.revisionId], manager) : [];
    if (!primary) throw new Error(`Space ${spaceId} has no primary revision`);
    return this.reindex(manager, spaceId, null, primary.tree);
  }

  private async insert(
    manager: EntityManager,
    spaceId: string,
    language: string | null,
    pages: IndexedPage[],
  ): Promise<void> {
    await this.write(
      manager,
      spaceId,
      language,
      await this.sectionBatches(manager, pages, language),
    );
  }

  /** Writes `batches` (sectionBatches'), each in one statement with their pages' page_search rows. */
  private async write(
    manager: EntityManager,
    spaceId: string,
    language: string | null,
    batches: SectionColumns[],
  ): Promise<void> {
    const config = textSearchConfig(language);
    for (const batch of batches) {
      await this.index.insertPages(spaceId, this.clock.now(), config, batch, manager);
    }
  }

  /** Documents by hash, read in a few queries rather than one per page. */
  private async readDocuments(
    manager: EntityManager,
    hashes: string[],
  ): Promise<Map<string, JSONDocument>> {
    const unique = [...new Set(hashes)];
    const documents = new Map<string, JSONDocument>();
    for (let i = 0; i < unique.length; i += READ_BATCH) {
      const rows = await this.objects.findMany<JSONDocument>(
        unique.slice(i, i + READ_BATCH),
        manager,
      );
      for (const row of rows) documents.set(row.hash, row.data);
    }
    return documents;
  }
}
