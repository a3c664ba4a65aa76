import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { ContentPointerDto, ContentPositionDto } from './dto/collection.dto';
import { lastPosition, placeAmong, Positioned } from './positions';

/** A collection or a space: what lives in the tree of an organization's content. */
export interface ContentItem {
  kind: 'collection' | 'space';
  id: string;
}

const TABLES = { collection: 'collections', space: 'spaces' } as const;

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
  /** The children of `parentId` (the root when null), ordered, keyed `kind:id`. */
  async siblings(
    manager: EntityManager,
    organizationId: string,
    parentId: string | null,
  ): Promise<Positioned[]> {
    const rows: { kind: string; id: string; position: string }[] = await manager.query(
      `SELECT 'collection' AS kind, id, position FROM collections
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
       UNION ALL
       SELECT 'space', id, position FROM spaces
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       ORDER BY position, kind, id`,
      [organizationId, parentId],
    );
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
      await manager.query(`UPDATE ${TABLES[kind]} SET position = $2 WHERE id = $1`, [
        id,
        sibling.position,
      ]);
    }
    await manager.query(
      `UPDATE ${TABLES[item.kind]} SET parent_id = $2, position = $3, updated_at = $4 WHERE id = $1`,
      [item.id, parentId, placement.position, updatedAt],
    );
  }

  /** The collection and its ancestors' ids, nearest first. */
  async ancestors(manager: EntityManager, collectionId: string): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH RECURSIVE up AS (
         SELECT id, parent_id, 0 AS depth FROM collections WHERE id = $1
         UNION ALL
         SELECT p.id, p.parent_id, up.depth + 1 FROM collections p JOIN up ON p.id = up.parent_id
       ) SELECT id FROM up ORDER BY depth`,
      [collectionId],
    );
    return rows.map((row) => row.id);
  }

  /** The spaces (the trash included) in the collections `collectionIds`. */
  async spacesIn(manager: EntityManager, collectionIds: string[]): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM spaces WHERE parent_id = ANY($1::varchar[])`,
      [collectionIds],
    );
    return rows.map((row) => row.id);
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
    const rows: { id: string; title: string }[] = await manager.query(
      `SELECT id, title FROM spaces
        WHERE (id = ANY($1::varchar[]) OR parent_id = ANY($2::varchar[])) AND git_sync IS NOT NULL
        ORDER BY id LIMIT 1`,
      [content.spaces ?? [], content.collections ?? []],
    );
    if (rows.length === 0) return null;
    return `Space "${rows[0].title}" (${rows[0].id}) is synchronised with a Git repository of this organization; remove its Git sync before transferring it.`;
  }

  /** The collection and its descendants' ids. */
  async subtree(manager: EntityManager, collectionId: string): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH RECURSIVE down AS (
         SELECT id FROM collections WHERE id = $1
         UNION ALL
         SELECT k.id FROM collections k JOIN down ON k.parent_id = down.id
       ) SELECT id FROM down`,
      [collectionId],
    );
    return rows.map((row) => row.id);
  }
}

function pointerKey(pointer: ContentPointerDto | undefined): string | undefined {
  if (!pointer) return undefined;
  return `${pointer.type}:${pointer.type === 'space' ? pointer.space : pointer.collection}`;
}
