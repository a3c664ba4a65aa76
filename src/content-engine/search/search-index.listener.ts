import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { RevisionsRepository } from '../revisions.repository';
import { PrimaryMovedListeners, type PrimaryMoved } from '../writes/primary-moved-listeners';
import { SearchIndexCatchUp } from './search-index-catch-up';
import { SearchIndexer } from './search-indexer';

/**
 * Re-indexes a space's pages when its primary revision moves, in the transaction that moved
 * it; a bulk move (PrimaryMoved.bulk: a Git import) is queued there instead, and followed in
 * steps after it (SearchIndexCatchUp). Registers itself with the writer's
 * PrimaryMovedListeners when the module provides them.
 */
@Injectable()
export class SearchIndexListener implements OnModuleInit {
  constructor(
    private readonly indexer: SearchIndexer,
    private readonly revisions: RevisionsRepository,
    private readonly catchUp: SearchIndexCatchUp,
    @Optional() private readonly listeners?: PrimaryMovedListeners,
  ) {}

  onModuleInit(): void {
    this.listeners?.register((event) => this.primaryMoved(event));
  }

  async primaryMoved(event: PrimaryMoved): Promise<void> {
    const rows = await this.revisions.findTrees(
      [event.fromRevision, event.toRevision].filter((id) => id !== null),
      event.manager,
    );
    const treeOf = (id: string | null) => rows.find((row) => row.id === id)?.tree;
    const to = treeOf(event.toRevision);
    if (to === undefined) throw new Error(`Revision ${event.toRevision} not found`);
    if (event.bulk) {
      await this.catchUp.queue(event.manager, {
        spaceId: event.spaceId,
        from: treeOf(event.fromRevision) ?? null,
        to,
      });
      return;
    }
    await this.indexer.reindex(
      event.manager,
      event.spaceId,
      treeOf(event.fromRevision) ?? null,
      to,
    );
  }
}
