import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The writes of space rows that collections make: spaces sit in the content tree beside
 * collections, go to the trash with their collection and leave with it for another
 * organization. Spaces (a layer above) own the table and supply the writer when they start.
 */
export interface CollectionSpacesWriter {
  /** Sets the space's position among the children of its parent. */
  setPosition(spaceId: string, position: number, manager: EntityManager): Promise<void>;
  /** Puts the space under `parentId` (null: the root) at `position`. */
  place(
    spaceId: string,
    parentId: string | null,
    position: number,
    updatedAt: Date,
    manager: EntityManager,
  ): Promise<void>;
  /** Moves the live spaces of the collections to the trash. */
  trashInCollections(
    collectionIds: string[],
    deletedAt: Date,
    manager: EntityManager,
  ): Promise<void>;
  /** Gives the spaces to another organization. */
  moveToOrganization(
    spaceIds: string[],
    organizationId: string,
    updatedAt: Date,
    manager: EntityManager,
  ): Promise<void>;
}

/** The port through which collections write space rows (see CollectionSpacesWriter). */
@Injectable()
export class CollectionSpaces {
  private writer?: CollectionSpacesWriter;

  register(writer: CollectionSpacesWriter): void {
    if (this.writer) throw new Error('A writer of spaces is already registered');
    this.writer = writer;
  }

  /** The registered writer; spaces always start with collections. */
  get spaces(): CollectionSpacesWriter {
    if (!this.writer) throw new Error('No writer of spaces is registered');
    return this.writer;
  }
}
