import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { contentAccessSql } from '../platform/policy/content-access/effective-role';
import {
  type ContentViewer,
  whereVisibleTo,
} from '../platform/policy/content-access/granted-content';
import { Collection } from './entities/collection.entity';

/** A child of a collection (or of the organization root) in the content tree. */
export interface TreeChildRow {
  kind: 'collection' | 'space';
  id: string;
  position: string;
}

/** A space that keeps a collection or itself from leaving its organization. */
export interface TransferBlockerRow {
  id: string;
  title: string;
}

/** A collection read under a share lock: its organization (never in a trash). */
export interface SharedCollectionRow {
  organizationId: string;
  inTrash: boolean;
}

/** Every requested collection with what decides the caller's role on it (contentAccessSql). */
const COLLECTIONS_ACCESS_SQL = contentAccessSql('collection');

/** The `collections` table, with the reads of the content tree that spaces share. */
@Injectable()
export class CollectionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The rows that decide `userId`'s role on each of `collectionIds` it may see, with the
   * collections' columns: the access statement, prepared (every collection request runs it).
   */
  accessRows(
    collectionIds: string[],
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Record<string, unknown>[]> {
    // Reads organizations, organization_members and team_members, owned by orgs: the role is
    // decided in one statement on every collection request (contentAccessSql).
    return preparedQuery(manager, 'bindery_resolve_collections', COLLECTIONS_ACCESS_SQL, [
      collectionIds,
      userId,
    ]);
  }

  /** The collections and live spaces directly under `parentId` (the root when null), ordered. */
  siblings(
    organizationId: string,
    parentId: string | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TreeChildRow[]> {
    // Reads spaces, owned by spaces: collections and spaces share one order among siblings,
    // read in one statement.
    return manager.query(
      `SELECT 'collection' AS kind, id, position FROM collections
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
       UNION ALL
       SELECT 'space', id, position FROM spaces
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       ORDER BY position, kind, id`,
      [organizationId, parentId],
    );
  }

  /** Sets the collection's position among the children of its parent. */
  async setPosition(
    collectionId: string,
    position: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`UPDATE collections SET position = $2 WHERE id = $1`, [
      collectionId,
      position,
    ]);
  }

  /** Puts the collection under `parentId` (null: the root) at `position`. */
  async place(
    collectionId: string,
    parentId: string | null,
    position: number,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE collections SET parent_id = $2, position = $3, updated_at = $4 WHERE id = $1`,
      [collectionId, parentId, position, updatedAt],
    );
  }

  /** The collection and its ancestors' ids, nearest first. */
  async ancestorIds(
    collectionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
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

  /** The collection and its descendants' ids. */
  async subtreeIds(
    collectionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
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

  /** The ids of the spaces (the trash included) in the collections `collectionIds`. */
  async spaceIdsIn(
    collectionIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    // Reads spaces, owned by spaces (a layer above): which spaces a collection holds is part
    // of the content tree collections keep.
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM spaces WHERE parent_id = ANY($1::varchar[])`,
      [collectionIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The first space (by id) of `spaces` or in `collections` that is kept in sync with a Git
   * repository; null when there is none.
   */
  async firstGitSyncedSpace(
    content: { collections?: string[]; spaces?: string[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TransferBlockerRow | null> {
    // Reads spaces, owned by spaces (a layer above): a transfer of a collection checks the
    // spaces in it, one statement for the collection's and a space's transfer.
    const rows: TransferBlockerRow[] = await manager.query(
      `SELECT id, title FROM spaces
        WHERE (id = ANY($1::varchar[]) OR parent_id = ANY($2::varchar[])) AND git_sync IS NOT NULL
        ORDER BY id LIMIT 1`,
      [content.spaces ?? [], content.collections ?? []],
    );
    return rows[0] ?? null;
  }

  /** Gives the collections `collectionIds` to the organization `organizationId`. */
  async moveToOrganization(
    collectionIds: string[],
    organizationId: string,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE collections SET organization_id = $2, updated_at = $3 WHERE id = ANY($1::varchar[])`,
      [collectionIds, organizationId, updatedAt],
    );
  }

  /**
   * A page of the organization's collections that `viewer` may see (optionally only those at
   * the root), oldest first.
   */
  pageVisible(
    viewer: ContentViewer,
    filter: { rootOnly: boolean },
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Collection>> {
    const query = manager
      .getRepository(Collection)
      .createQueryBuilder('c')
      .where('c.organization_id = :organizationId', { organizationId: viewer.organizationId });
    if (filter.rootOnly) query.andWhere('c.parent_id IS NULL');
    whereVisibleTo(query, 'collection', 'c.id', viewer);
    return paginate(query, request, {
      keys: [
        { sql: 'c.created_at', of: (collection) => collection.createdAt },
        { sql: 'c.id', of: (collection) => collection.id },
      ],
      direction: 'ASC',
    });
  }

  /** Whether the organization has this collection. */
  async exists(
    organizationId: string,
    collectionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM collections WHERE id = $1 AND organization_id = $2`,
      [collectionId, organizationId],
    );
    return rows.length > 0;
  }

  /** The collection's organization, its row share-locked; null: none. */
  async lockShared(
    collectionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SharedCollectionRow | null> {
    const rows: { organization_id: string; in_trash: boolean }[] = await manager.query(
      `SELECT organization_id, false AS in_trash FROM collections WHERE id = $1 FOR SHARE`,
      [collectionId],
    );
    if (rows.length === 0) return null;
    return { organizationId: rows[0].organization_id, inTrash: rows[0].in_trash };
  }
}
