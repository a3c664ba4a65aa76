import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { CollectionSpaces } from './collection-spaces';
import { CollectionsRepository } from './collections.repository';
import { ContentPointerDto, ContentPositionDto } from './dto/collection.dto';
import { lastPosition, placeAmong, Positioned } from './positions';

/** A collection or a space: what lives in the tree of an organization's content. */
export interface ContentItem {
  kind: 'collection' | 'space';
  id: string;
}

/**
 * A move or a creation names a parent collection that does not exist, or that the caller
 * cannot see: the seed's "invalid position or collection" (400), the same answer either way.
 */
export const unknownParentCollection = (parentId: string) =>
  invalidInput(`parent: no collection ${parentId} in this organization.`);
const key = (item: ContentItem) => `${item.kind}:${item.id}`;

/**
 * The tree of an organization's content: collections nest, spaces sit at the root or in a
 * collection, and the collections and (live) spaces of one parent share one order (`position`,
 * gapped integers, see positions.ts).
 */
@Injectable()
export class ContentTree {
  constructor(
    private readonly collections: CollectionsRepository,
    private readonly collectionSpaces: CollectionSpaces,
  ) {}

  /** The children of `parentId` (the root when null), ordered, keyed `kind:id`. */
  async siblings(
    manager: EntityManager,
    organizationId: string,
    parentId: string | null,
  ): Promise<Positioned[]> {
    const rows = await this.collections.siblings(organizationId, parentId, manager);
    return rows.map((row) => ({ id: `${row.kind}:${row.id}`, position: Number(row.position) }));
  }

  /** The position after every child of `parentId`. */
  async endOf(
    manager: EntityManager,
    organizationId: string,
    parentId: string | null,
  ): Promise<number> {
    return lastPosition(await this.siblings(manager, organizationId, parentId));
  }

  /**
   * Puts `item` under `parentId` at `position` (the end when absent): writes its parent and
   * position, renumbering siblings when no gap is left. 400 when the position's anchor is not a
   * child of the target; 409 when the item would stay where it is (unless `allowUnchanged`).
   */
  async place(
    manager: EntityManager,
    organizationId: string,
    item: ContentItem,
    parentId: string | null,
    position: ContentPositionDto | undefined,
    updatedAt: Date,
    options: { allowUnchanged?: boolean } = {},
  ): Promise<void> {
    const all = await this.siblings(manager, organizationId, parentId);
    const currentIndex = all.findIndex((sibling) => sibling.id === key(item));
    const others = all.filter((sibling) => sibling.id !== key(item));
    const placement = placeAmong(others, {
      before: pointerKey(position?.before),
      after: pointerKey(position?.after),
    });
    if (!placement.ok) {
      if (placement.reason === 'adjacent') {
        throw invalidInput('position: before and after are not next to each other.');
      }
      const pointer = position?.[placement.reason as 'before' | 'after'] as ContentPointerDto;
      throw invalidInput(
        `position.${placement.reason}: ${pointer.type} ${pointer[pointer.type]} is not in the target ${
          parentId === null ? 'organization root' : 'collection'
        }.`,
      );
    }
    if (currentIndex >= 0 && placement.index === currentIndex) {
      if (options.allowUnchanged) return;
      throw new DomainError('conflict', 'NothingToMove', 'The move would not change anything.');
    }
    for (const sibling of placement.renumbered) {
      const [kind, id] = sibling.id.split(':') as [ContentItem['kind'], string];
      if (kind === 'collection') await this.collections.setPosition(id, sibling.position, manager);
      else await this.collectionSpaces.spaces.setPosition(id, sibling.position, manager);
    }
    if (item.kind === 'collection') {
      await this.collections.place(item.id, parentId, placement.position, updatedAt, manager);
    } else {
      await this.collectionSpaces.spaces.place(
        item.id,
        parentId,
        placement.position,
        updatedAt,
        manager,
      );
    }
  }

  /** The collection and its ancestors' ids, nearest first. */
  ancestors(manager: EntityManager, collectionId: string): Promise<string[]> {
    return this.collections.ancestorIds(collectionId, manager);
  }

  /** The spaces (the trash included) in the collections `collectionIds`. */
  spacesIn(manager: EntityManager, collectionIds: string[]): Promise<string[]> {
    return this.collections.spaceIdsIn(collectionIds, manager);
  }

  /**
   * Why the content cannot change organization (412), or null: a space kept in sync with a Git
   * repository through the organization's Git installation cannot leave it until the sync is
   * removed. `collections` covers the spaces inside them.
   */
  async transferBlocker(
    manager: EntityManager,
    content: { collections?: string[]; spaces?: string[] },
  ): Promise<string | null> {
    const space = await this.collections.firstGitSyncedSpace(content, manager);
    if (!space) return null;
    return `Space "${space.title}" (${space.id}) is synchronised with a Git repository of this organization; remove its Git sync before transferring it.`;
  }

  /** The collection and its descendants' ids. */
  subtree(manager: EntityManager, collectionId: string): Promise<string[]> {
    return this.collections.subtreeIds(collectionId, manager);
  }
}

function pointerKey(pointer: ContentPointerDto | undefined): string | undefined {
  if (!pointer) return undefined;
  return `${pointer.type}:${pointer.type === 'space' ? pointer.space : pointer.collection}`;
}
