import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { foregroundIdle } from '../../platform/http/foreground-requests';
import { JobsService } from '../../platform/jobs/jobs.service';
import { ContentEngine } from '../content-engine';
import { ContentObjectsRepository } from '../content-objects.repository';
import { BatchedObjectStore } from '../reads/batched-object-store';
import { RevisionsRepository } from '../revisions.repository';
import { SearchIndexRepository } from './search-index.repository';
import { CachedObjectStore, type ObjectStore } from '../tree/object-store';
import { ContentHeads } from '../writes/content-heads';
import { indexChanges, type IndexedPage } from './index-diff';
import { SearchIndexer } from './search-indexer';
import { SectionEmbeddings } from './section-embeddings';

/** The queue of search index catch-ups after bulk moves of a primary revision. */
export const SEARCH_INDEX_CATCH_UP_QUEUE = 'search-index-catch-up';

/** Pages re-indexed per transaction: each holds the database for a short while. */
const PAGES_PER_STEP = 10;
/** The longest a step waits for the requests in flight to be answered before it runs. */
const GIVE_WAY_MS = 50;

export interface CatchUpJob {
  spaceId: string;
  /** The tree the rows describe (null: unknown, every page is re-indexed). */
  from: string | null;
  to: string;
}

/**
 * Brings a space's search index from one tree to the next after a bulk move of its primary
 * (PrimaryMoved.bulk, a Git import of thousands of pages), in short transactions of
 * PAGES_PER_STEP pages, instead of one as long as the whole re-index in the writer's. Queued
 * in the writer's transaction, it runs once that commits. Until it is done the rows of the
 * pages still to do describe them as they were; each step writes its pages as the primary has
 * them then, so that a later edit (which re-indexes what it changed itself) and a step agree.
 */
@Injectable()
export class SearchIndexCatchUp implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly indexer: SearchIndexer,
    private readonly engine: ContentEngine,
    private readonly objects: ContentObjectsRepository,
    private readonly heads: ContentHeads,
    private readonly revisions: RevisionsRepository,
    private readonly embeddings: SectionEmbeddings,
    private readonly index: SearchIndexRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.define<CatchUpJob>(SEARCH_INDEX_CATCH_UP_QUEUE, (job) => this.run(job));
  }

  /** Queues the catch-up in `manager`'s transaction: it runs once that commits. */
  async queue(manager: EntityManager, job: CatchUpJob): Promise<void> {
    await this.jobs.send(SEARCH_INDEX_CATCH_UP_QUEUE, job, { manager });
  }

  async run(job: CatchUpJob): Promise<void> {
    const { spaceId } = job;
    // Trees are immutable: what differs between them is read outside any transaction.
    const read = this.readStore();
    const state = await this.indexer.indexState(this.dataSource.manager, spaceId);
    let rebuild = !state.current;
    let target = job.to;
    const { changed, removed } = await indexChanges(read, rebuild ? null : job.from, target);
    let pages = new Map(changed.map((page) => [page.id, page]));
    const pending = [...new Set([...changed.map((page) => page.id), ...removed])];
    let language = state.language;
    while (pending.length > 0 || rebuild) {
      const ids = pending.slice(0, PAGES_PER_STEP);
      const stepPages = ids.flatMap((id) => pages.get(id) ?? []);
      // Analysed before the step's transaction (documents are immutable), which then holds
      // the database (on the embedded one, every other request) only to write the rows.
      let batches = await this.indexer.sectionBatches(this.dataSource.manager, stepPages, language);
      const outcome = await this.dataSource.transaction(async (manager) => {
        // Shared with readers, exclusive of a writer: the primary cannot move during a step.
        const head = await this.heads.spaces.findHead(spaceId, 'FOR SHARE', manager);
        if (!head || head.deletedAt !== null) return { done: true };
        const [row] = await this.revisions.findTrees([head.revisionId], manager);
        if (row && row.tree !== target) return { movedTo: row.tree };
        if (head.language !== language) {
          // The space's language changed meanwhile: analysed again, in it.
          language = head.language;
          batches = await this.indexer.sectionBatches(manager, stepPages, language);
        }
        await this.indexer.rewriteSections(manager, spaceId, ids, batches, { rebuild, language });
        return {};
      });
      if (outcome.done) return;
      if (outcome.movedTo) {
        // The primary moved on: the pages still to do are written as it has them now.
        target = outcome.movedTo;
        pages = await this.pagesOf(read, target);
        continue;
      }
      rebuild = false;
      pending.splice(0, ids.length);
      await nextTurn();
      await foregroundIdle(GIVE_WAY_MS);
    }
    // A bulk move changes the index by thousands of pages: its GIN indexes take in what the
    // inserts left pending, and the planner learns of it, now.
    await this.index.maintain();
    await this.embeddings.queue(spaceId);
  }

  /** Every indexed page of a tree, by id. */
  private async pagesOf(read: ObjectStore, tree: string): Promise<Map<string, IndexedPage>> {
    const { changed } = await indexChanges(read, null, tree);
    return new Map(changed.map((page) => [page.id, page]));
  }

  private readStore(): ObjectStore {
    const manager = this.dataSource.manager;
    return new CachedObjectStore(
      new BatchedObjectStore(
        manager,
        (kind, data) => this.engine.put(manager, kind, data),
        this.objects,
      ),
      { maxEntries: 20_000 },
    );
  }
}
