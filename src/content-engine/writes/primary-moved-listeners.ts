import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A space's primary revision moved from one revision to another (one commit, or a merge), or
 * was set for the first time (`fromRevision` null: a new or duplicated space).
 */
export interface PrimaryMoved {
  spaceId: string;
  fromRevision: string | null;
  toRevision: string;
  /** Who made the revision it moved to; null for Bindery itself (an import, a template). */
  authorId: string | null;
  /** The transaction that moved it: what a listener writes commits or rolls back with it. */
  manager: EntityManager;
  /**
   * Many pages changed (a Git import): a listener whose work grows with them may queue it, in
   * the transaction, to do after it in short transactions of its own, rather than hold the
   * writer's (the embedded database runs one transaction at a time, and every request waits).
   */
  bulk?: boolean;
}

export type PrimaryMovedListener = (event: PrimaryMoved) => Promise<void> | void;

/**
 * Who wants to know when a primary revision moves (the search index re-indexes the pages that
 * changed). Listeners run in order, inside the writer's transaction, after the compare-and-swap
 * succeeded: a listener that throws undoes the whole write.
 */
@Injectable()
export class PrimaryMovedListeners {
  private readonly listeners: PrimaryMovedListener[] = [];

  register(listener: PrimaryMovedListener): void {
    this.listeners.push(listener);
  }

  async notify(event: PrimaryMoved): Promise<void> {
    for (const listener of this.listeners) {
      await listener(event);
    }
  }
}
