import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Content leaving its organization for `organizationId` (a transfer): collections and spaces. */
export interface TransferredContent {
  collectionIds: string[];
  spaceIds: string[];
  organizationId: string;
}

/**
 * What a module above collections and spaces does, in the transfer's transaction, when content
 * leaves its organization: invites drop the links to it (they belong to the old organization),
 * change requests follow their spaces.
 */
export type ContentTransferListener = (
  content: TransferredContent,
  manager: EntityManager,
) => Promise<void>;

/**
 * The port through which collections and spaces tell the modules above them (which own those
 * tables) that content changed organization. Those modules register when they start.
 */
@Injectable()
export class ContentTransfers {
  private readonly listeners: ContentTransferListener[] = [];

  register(listener: ContentTransferListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener, one after the other, on the transfer's transaction. */
  async transferred(content: TransferredContent, manager: EntityManager): Promise<void> {
    for (const listener of this.listeners) await listener(content, manager);
  }
}
