import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ContentHeads,
  type SpaceHead,
  type SpaceHeadLock,
  type SpaceHeads,
} from '../content-engine/writes/content-heads';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { contentAccessSql } from '../platform/policy/content-access/effective-role';
import {
  type ContentViewer,
  whereVisibleTo,
} from '../platform/policy/content-access/granted-content';
import { Space } from './entities/space.entity';

/** The counters a space row keeps of its change requests and open comments (column names). */
export type SpaceCounter =
  'comments' | 'change_requests' | 'change_requests_open' | 'change_requests_draft';

/** How much each counter moves (absent: unchanged). */
export type SpaceCounterDeltas = Partial<Record<SpaceCounter, number>>;

const COUNTERS: readonly SpaceCounter[] = [
  'comments',
  'change_requests',
  'change_requests_open',
  'change_requests_draft',
];

/** A live space's primary revision and organization, as a counter update returns them. */
export interface SpaceHeadRow {
  revisionId: string;
  organizationId: string;
}

/** What a list reads of a space before the access query loads the spaces themselves. */
export interface SpaceKey {
  id: string;
  createdAt: Date;
}

/** A space (or a collection: see CollectionsRepository.lockShared) read under a share lock. */
export interface SharedContentRow {
  organizationId: string;
  inTrash: boolean;
}

/**
 * Every requested space with what decides the caller's role on it (contentAccessSql): the
 * space's own default level unless it is `inherit`, then the nearest collection's above it;
 * grants on the space and on every collection above it.
 */
const SPACES_ACCESS_SQL = contentAccessSql('space');

/**
 * The `spaces` table. Its head columns (`revision_id`, `edit_mode`, `deleted_at`), as the
 * content writer reads and moves them, are the engine's SpaceHeads: registered with its
 * ContentHeads when the module starts.
 */
@Injectable()
export class SpacesRepository implements SpaceHeads, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contentHeads: ContentHeads,
  ) {}

  onModuleInit(): void {
    this.contentHeads.registerSpaces(this);
  }

  /**
   * The rows that decide `userId`'s role on each of `spaceIds` it may see (trash included),
   * with the spaces' columns: the access statement, prepared (every space request runs it).
   */
  accessRows(
    spaceIds: string[],
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Record<string, unknown>[]> {
    // Reads collections and content_grants, owned by collections, and organizations,
    // organization_members and team_members, owned by orgs: the role is decided in one
    // statement on every space request (contentAccessSql, shared with collections).
    return preparedQuery(manager, 'bindery_resolve_spaces', SPACES_ACCESS_SQL, [spaceIds, userId]);
  }

  /** The space's head, its row locked as `lock` says; undefined when there is no such space. */
  async findHead(
    spaceId: string,
    lock: SpaceHeadLock,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpaceHead | undefined> {
    const rows: {
      revision_id: string;
      edit_mode: string;
      deleted_at: Date | null;
      language: string | null;
    }[] = await manager.query(
      `SELECT revision_id, edit_mode, deleted_at, language FROM spaces WHERE id = $1 ${lock}`,
      [spaceId],
    );
    const row = rows[0];
    return (
      row && {
        revisionId: row.revision_id,
        editMode: row.edit_mode,
        deletedAt: row.deleted_at,
        language: row.language,
      }
    );
  }

  /** The organization of the space, trash included; undefined when there is no such space. */
  async organizationOf(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const rows: { organization_id: string }[] = await manager.query(
      'SELECT organization_id FROM spaces WHERE id = $1',
      [spaceId],
    );
    return rows[0]?.organization_id;
  }

  /**
   * Locks the space's row FOR UPDATE until the transaction ends: the lock that serializes the
   * numbering, counts and merges of its change requests.
   */
  async lockForUpdate(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`SELECT 1 FROM spaces WHERE id = $1 FOR UPDATE`, [spaceId]);
  }

  /** Moves the primary revision from `expected` to `next`; false when it was not `expected`. */
  async compareAndSwap(
    spaceId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [moved]: { count: number }[] = await manager.query(
      `WITH moved AS (
         UPDATE spaces SET revision_id = $1, updated_at = $2
          WHERE id = $3 AND revision_id = $4 RETURNING id)
       SELECT count(*)::int AS count FROM moved`,
      [next, at, spaceId, expected],
    );
    return moved.count === 1;
  }

  /** Moves the space's counters by `deltas` (`column = column + delta`, atomically). */
  async adjustCounters(
    spaceId: string,
    deltas: SpaceCounterDeltas,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const { sets, params } = counterSets(deltas, 2);
    if (sets.length === 0) return;
    await manager.query(`UPDATE spaces SET ${sets.join(', ')} WHERE id = $1`, [spaceId, ...params]);
  }

  /**
   * Moves the counters of the space if it is live (not in the trash), which locks its row until
   * the transaction ends; its primary revision and organization, or null when no live space.
   */
  async adjustLiveCounters(
    spaceId: string,
    deltas: SpaceCounterDeltas,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpaceHeadRow | null> {
    const { sets, params } = counterSets(deltas, 2);
    // `query` answers an UPDATE with [rows, affected count].
    const [rows]: [{ revision_id: string; organization_id: string }[], number] =
      await manager.query(
        `UPDATE spaces SET ${sets.join(', ')}
          WHERE id = $1 AND deleted_at IS NULL
          RETURNING revision_id, organization_id`,
        [spaceId, ...params],
      );
    if (rows.length === 0) return null;
    return { revisionId: rows[0].revision_id, organizationId: rows[0].organization_id };
  }

  /**
   * A page of the ids of the organization's live spaces that `viewer` may see (optionally only
   * those directly in the collection `parentId`), by creation. Keys only: the access query
   * that follows reads the whole rows anyway (hydrating entities here cost more CPU than both
   * queries).
   */
  pageLiveVisible(
    viewer: ContentViewer,
    filter: { parentId?: string },
    request: PageRequest,
    direction: 'ASC' | 'DESC',
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<SpaceKey>> {
    const query = manager
      .getRepository(Space)
      .createQueryBuilder('s')
      .where('s.organization_id = :organizationId', { organizationId: viewer.organizationId })
      .andWhere('s.deleted_at IS NULL');
    whereVisibleTo(query, 'space', 's.id', viewer);
    if (filter.parentId !== undefined) {
      query.andWhere('s.parent_id = :parentId', { parentId: filter.parentId });
    }
    return paginate<Space, SpaceKey>(query, request, {
      keys: [
        { sql: 's.created_at', of: (space) => space.createdAt },
        { sql: 's.id', of: (space) => space.id },
      ],
      direction,
      fetch: async (rows) => {
        const raw: { id: string; created_at: Date }[] = await rows
          .select('s.id', 'id')
          .addSelect('s.created_at', 'created_at')
          .getRawMany();
        return raw.map((row) => ({ id: row.id, createdAt: row.created_at }));
      },
    });
  }

  /** Whether the organization has this space, out of the trash. */
  async existsLive(
    organizationId: string,
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL`,
      [spaceId, organizationId],
    );
    return rows.length > 0;
  }

  /** The space's organization and whether it is in the trash, its row share-locked; null: none. */
  async lockShared(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SharedContentRow | null> {
    const rows: { organization_id: string; in_trash: boolean }[] = await manager.query(
      `SELECT organization_id, deleted_at IS NOT NULL AS in_trash
         FROM spaces WHERE id = $1 FOR SHARE`,
      [spaceId],
    );
    if (rows.length === 0) return null;
    return { organizationId: rows[0].organization_id, inTrash: rows[0].in_trash };
  }

  /** Sets the space's position among the children of its parent. */
  async setPosition(
    spaceId: string,
    position: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`UPDATE spaces SET position = $2 WHERE id = $1`, [spaceId, position]);
  }

  /** Puts the space under `parentId` (null: the root) at `position`. */
  async place(
    spaceId: string,
    parentId: string | null,
    position: number,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE spaces SET parent_id = $2, position = $3, updated_at = $4 WHERE id = $1`,
      [spaceId, parentId, position, updatedAt],
    );
  }

  /** Moves the live spaces of the collections `collectionIds` to the trash. */
  async trashInCollections(
    collectionIds: string[],
    deletedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE spaces SET deleted_at = $2, updated_at = $2
        WHERE parent_id = ANY($1::varchar[]) AND deleted_at IS NULL`,
      [collectionIds, deletedAt],
    );
  }

  /** Gives the spaces `spaceIds` to the organization `organizationId` (where they are). */
  async moveToOrganization(
    spaceIds: string[],
    organizationId: string,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE spaces SET organization_id = $2, updated_at = $3 WHERE id = ANY($1::varchar[])`,
      [spaceIds, organizationId, updatedAt],
    );
  }

  /**
   * Up to `limit` ids of spaces deleted before `cutoff`, oldest deletion first, locked (rows
   * another purge holds are skipped).
   */
  async lockTrashedBefore(
    cutoff: Date,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM spaces WHERE deleted_at < $1 ORDER BY deleted_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes the spaces for good (their revisions and grants go by cascade or before). */
  async deleteByIds(
    spaceIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`DELETE FROM spaces WHERE id = ANY($1::varchar[])`, [spaceIds]);
  }

  /** Of `userIds`, those that are enabled members of the organization. */
  async enabledMemberIds(
    organizationId: string,
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    // Reads organization_members, owned by orgs: merge rules of a space name members, and orgs
    // has no public method that checks enabled members by id.
    const rows: { user_id: string }[] = await manager.query(
      `SELECT user_id FROM organization_members
        WHERE organization_id = $1 AND user_id = ANY($2::varchar[]) AND NOT disabled`,
      [organizationId, userIds],
    );
    return rows.map((row) => row.user_id);
  }
}

/** `column = column + $n` for each counter that moves, parameters numbered from `first`. */
function counterSets(
  deltas: SpaceCounterDeltas,
  first: number,
): { sets: string[]; params: number[] } {
  const sets: string[] = [];
  const params: number[] = [];
  for (const counter of COUNTERS) {
    const delta = deltas[counter];
    if (delta === undefined || delta === 0) continue;
    params.push(delta);
    sets.push(`${counter} = ${counter} + $${first + params.length - 1}`);
  }
  return { sets, params };
}
