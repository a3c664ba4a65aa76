import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Removes the invite links to the collections and spaces given, when they leave their
 * organization (a transfer): the links belong to the old organization. Invites (a layer
 * above collections and spaces) own the table and supply it when they start.
 */
export type ContentInvitesRemover = (
  content: { collectionIds: string[]; spaceIds: string[] },
  manager: EntityManager,
) => Promise<void>;

/** The port through which collections and spaces drop the invite links to their content. */
@Injectable()
export class ContentInvites {
  private remover?: ContentInvitesRemover;

  register(remover: ContentInvitesRemover): void {
    if (this.remover) throw new Error('A remover of content invites is already registered');
    this.remover = remover;
  }

  /** Removes the invites to this content (ContentInvitesRemover). */
  remove(
    content: { collectionIds: string[]; spaceIds: string[] },
    manager: EntityManager,
  ): Promise<void> {
    if (!this.remover) throw new Error('No remover of content invites is registered');
    return this.remover(content, manager);
  }
}
