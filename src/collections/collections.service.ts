import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Organization } from '../orgs/entities/organization.entity';
import { Clock } from '../platform/clock/clock';
import { DomainError, forbidden, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { ResolvedAccess } from '../platform/policy/access';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { atLeast, type Role } from '../platform/policy/roles';
import { CollectionAccessResolver } from './collection-access.resolver';
import {
  ContentPointerDto,
  CreateCollectionDto,
  ListCollectionsQueryDto,
  MoveCollectionDto,
  TransferCollectionDto,
  UpdateCollectionDto,
} from './dto/collection.dto';
import { CollectionSpaceResponse } from './dto/collection.response';
import { Collection } from './entities/collection.entity';
import { lastPosition, placeAmong, Positioned } from './positions';

/** A collection and the caller's effective role on it. */
export type CollectionAccess = ResolvedAccess<Collection> & { entity: Collection };

const collectionNotFound = () => notFound('Collection');

/**
 * Collections of an organization: a tree (parent_id) whose siblings are ordered by `position`.
 * Access is decided by CollectionAccessResolver; grants live in `content_grants`.
 */
@Injectable()
export class CollectionsService {
  constructor(
    @InjectRepository(Collection) private readonly collections: Repository<Collection>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: CollectionAccessResolver,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a collection at the end of its siblings. At the root it needs the `create` role in
   * the organization; in a parent, `create` on that parent.
   */
  create(
    organization: Organization,
    organizationRole: Role | null,
    userId: string,
    input: CreateCollectionDto,
  ): Promise<CollectionAccess> {
    return this.dataSource.transaction(async (manager) => {
      const parentId = input.parent ?? null;
      if (parentId !== null) {
        const parent = (await this.access.resolveMany(userId, [parentId], manager)).get(parentId);
        if (!parent || parent.organizationId !== organization.id) {
          throw invalidInput(`parent: no collection ${parentId} in this organization.`);
        }
        if (!atLeast(parent.role, 'create')) {
          throw forbidden('Creating a collection here needs the create role on the parent.');
        }
      } else if (!atLeast(organizationRole, 'create')) {
        throw forbidden('Creating a collection needs the create role in the organization.');
      }
      const now = this.clock.now();
      const collection = manager.create(Collection, {
        id: newId(),
        organizationId: organization.id,
        parentId,
        title: input.title || 'Untitled',
        description: null,
        defaultLevel: 'inherit',
        position: String(lastPosition(await this.siblings(manager, organization.id, parentId))),
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(Collection, collection);
      return this.reload(manager, userId, collection.id);
    });
  }

  /**
   * The organization's collections the caller can see, oldest first: all of them for a member
   * with a role; for a guest, those granted to it or a team of its, directly or through an
   * ancestor.
   */
  async list(
    organizationId: string,
    organizationRole: Role | null,
    userId: string,
    request: ListCollectionsQueryDto,
  ): Promise<Page<CollectionAccess>> {
    const query = this.collections
      .createQueryBuilder('c')
      .where('c.organization_id = :organizationId', { organizationId });
    if (request.nested === false) query.andWhere('c.parent_id IS NULL');
    if (organizationRole === null) {
      query.andWhere(
        `c.id IN (
          WITH RECURSIVE visible AS (
            SELECT g.resource_id AS id FROM content_grants g
             WHERE g.organization_id = :organizationId AND g.resource_type = 'collection'
               AND (g.user_id = :userId OR g.team_id IN (
                     SELECT tm.team_id FROM team_members tm
                      WHERE tm.organization_id = :organizationId AND tm.user_id = :userId))
            UNION
            SELECT k.id FROM collections k JOIN visible v ON k.parent_id = v.id
          )
          SELECT id FROM visible)`,
        { userId },
      );
    }
    const page = await paginate(query, request, {
      keys: [
        { sql: 'c.created_at', of: (collection) => collection.createdAt },
        { sql: 'c.id', of: (collection) => collection.id },
      ],
      direction: 'ASC',
    });
    const accesses = await this.access.resolveMany(
      userId,
      page.items.map((collection) => collection.id),
    );
    return {
      ...page,
      items: page.items.map(
        (collection) =>
          (accesses.get(collection.id) as CollectionAccess | undefined) ?? {
            resource: 'collection',
            id: collection.id,
            organizationId,
            role: organizationRole,
            entity: collection,
          },
      ),
    };
  }

  /** Absent fields unchanged; `description: null` clears it. */
  async update(
    access: CollectionAccess,
    userId: string,
    input: UpdateCollectionDto,
  ): Promise<CollectionAccess> {
    const changes: Partial<Collection> = {};
    if (input.title !== undefined) changes.title = input.title;
    if (input.description !== undefined) changes.description = input.description;
    if (input.defaultLevel !== undefined) changes.defaultLevel = input.defaultLevel;
    if (Object.keys(changes).length === 0) return access;
    changes.updatedAt = this.clock.now();
    await this.collections.update(
      { id: access.id, organizationId: access.organizationId },
      changes,
    );
    // The default level may change the caller's own role.
    return this.reload(this.dataSource.manager, userId, access.id);
  }

  /**
   * Deletes the collection and, by cascade, its sub-collections and their grants' targets.
   * Nothing (204) when the caller cannot see it: absent and invisible are the same answer.
   */
  async remove(userId: string, collectionId: string): Promise<void> {
    const access = await this.access.resolve(userId, collectionId);
    if (!access) return;
    if (!atLeast(access.role, 'admin')) {
      throw forbidden('Deleting a collection needs the admin role on it.');
    }
    await this.dataSource.transaction(async (manager) => {
      const ids = await this.subtree(manager, collectionId);
      // #4 spaces: move the spaces of `ids` to the trash (soft delete) before the rows go.
      await manager.query(
        `DELETE FROM content_grants WHERE resource_type = 'collection' AND resource_id = ANY($1::varchar[])`,
        [ids],
      );
      await manager.delete(Collection, { id: collectionId, organizationId: access.organizationId });
    });
  }

  /**
   * Moves the collection under `parent` (null: the organization root; absent: where it is) at
   * `position` (the end when absent). 409 when it would stay where it is.
   */
  move(
    access: CollectionAccess,
    userId: string,
    input: MoveCollectionDto,
  ): Promise<CollectionAccess> {
    if (input.parent === undefined && input.position === undefined) {
      throw invalidInput('Give parent, position or both.');
    }
    const collection = access.entity;
    return this.dataSource.transaction(async (manager) => {
      const parentId = input.parent === undefined ? collection.parentId : input.parent;
      if (parentId === null) {
        const role = await this.organizationRole(manager, collection.organizationId, userId);
        if (!atLeast(role, 'create')) {
          throw forbidden('Moving to the organization root needs the create role in it.');
        }
      } else {
        const parent = (await this.access.resolveMany(userId, [parentId], manager)).get(parentId);
        if (!parent || parent.organizationId !== collection.organizationId) {
          throw collectionNotFound();
        }
        const ancestors = await this.ancestors(manager, parentId);
        if (ancestors.includes(collection.id)) {
          throw invalidInput('parent: a collection cannot move into itself or a sub-collection.');
        }
        if (!atLeast(parent.role, 'create')) {
          throw forbidden('Moving here needs the create role on the target collection.');
        }
      }

      const all = await this.siblings(manager, collection.organizationId, parentId);
      const currentIndex = all.findIndex((sibling) => sibling.id === collection.id);
      const others = all.filter((sibling) => sibling.id !== collection.id);
      const placement = placeAmong(others, {
        before: this.anchor(input.position?.before, 'position.before'),
        after: this.anchor(input.position?.after, 'position.after'),
      });
      if (!placement.ok) {
        throw invalidInput(
          placement.reason === 'adjacent'
            ? 'position: before and after are not next to each other.'
            : `position.${placement.reason}: collection ${
                input.position?.[placement.reason as 'before' | 'after']?.collection
              } is not in the target collection.`,
        );
      }
      if (currentIndex >= 0 && placement.index === currentIndex) {
        throw new DomainError('conflict', 'NothingToMove', 'The move would not change anything.');
      }
      for (const sibling of placement.renumbered) {
        await manager.update(
          Collection,
          { id: sibling.id },
          { position: String(sibling.position) },
        );
      }
      await manager.update(
        Collection,
        { id: collection.id },
        { parentId, position: String(placement.position), updatedAt: this.clock.now() },
      );
      return this.reload(manager, userId, collection.id);
    });
  }

  /**
   * Moves the collection and its sub-collections to the root of another organization (the
   * caller must be an admin of both) and drops their grants, which name members and teams of
   * the old organization.
   */
  transfer(
    access: CollectionAccess,
    userId: string,
    input: TransferCollectionDto,
  ): Promise<CollectionAccess> {
    const collection = access.entity;
    if (input.organization === collection.organizationId) {
      throw new DomainError(
        'conflict',
        'NothingToTransfer',
        'The collection already belongs to this organization.',
      );
    }
    return this.dataSource.transaction(async (manager) => {
      const targetRole = await this.organizationRole(manager, input.organization, userId);
      if (targetRole === undefined) throw notFound('Organization');
      const sourceRole = await this.organizationRole(manager, collection.organizationId, userId);
      if (!atLeast(sourceRole, 'admin') || !atLeast(targetRole, 'admin')) {
        throw forbidden('Transferring a collection needs the admin role in both organizations.');
      }
      const ids = await this.subtree(manager, collection.id);
      const blocker = this.transferBlocker(ids);
      if (blocker) throw new DomainError('precondition_failed', 'CannotTransfer', blocker);
      await manager.query(
        `DELETE FROM content_grants WHERE resource_type = 'collection' AND resource_id = ANY($1::varchar[])`,
        [ids],
      );
      const position = lastPosition(await this.siblings(manager, input.organization, null));
      const now = this.clock.now();
      await manager.query(
        `UPDATE collections SET organization_id = $2, updated_at = $3 WHERE id = ANY($1::varchar[])`,
        [ids, input.organization, now],
      );
      await manager.update(
        Collection,
        { id: collection.id },
        { parentId: null, position: String(position) },
      );
      return this.reload(manager, userId, collection.id);
    });
  }

  /**
   * The spaces of a collection. Spaces do not exist yet: issue #4 (spaces) fills this list
   * with the spaces of the collection the caller can see.
   */
  listSpaces(_collectionId: string, _request: PageQueryDto): Page<CollectionSpaceResponse> {
    return { items: [], count: 0 };
  }

  /**
   * Why the collections `ids` cannot change organization (412), or null. Nothing blocks a
   * transfer yet; with spaces (#4) this is where a space that cannot leave its organization
   * (e.g. published in a site of it, or synced with a Git installation of it) would stop it.
   */
  private transferBlocker(_ids: string[]): string | null {
    return null;
  }

  private anchor(pointer: ContentPointerDto | undefined, field: string): string | undefined {
    if (!pointer) return undefined;
    if (pointer.type === 'space') {
      // Sibling spaces arrive with #4: until then no space is in any collection.
      throw invalidInput(`${field}: space ${pointer.space} is not in the target collection.`);
    }
    return pointer.collection;
  }

  private async reload(
    manager: EntityManager,
    userId: string,
    collectionId: string,
  ): Promise<CollectionAccess> {
    const access = (await this.access.resolveMany(userId, [collectionId], manager)).get(
      collectionId,
    );
    if (!access) throw collectionNotFound();
    return access as CollectionAccess;
  }

  /** The children of `parentId` (the root when null), ordered. */
  private async siblings(
    manager: EntityManager,
    organizationId: string,
    parentId: string | null,
  ): Promise<Positioned[]> {
    const rows: { id: string; position: string }[] = await manager.query(
      `SELECT id, position FROM collections
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
        ORDER BY position, id`,
      [organizationId, parentId],
    );
    return rows.map((row) => ({ id: row.id, position: Number(row.position) }));
  }

  /** The collection and its ancestors' ids. */
  private async ancestors(manager: EntityManager, collectionId: string): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH RECURSIVE up AS (
         SELECT id, parent_id FROM collections WHERE id = $1
         UNION ALL
         SELECT p.id, p.parent_id FROM collections p JOIN up ON p.id = up.parent_id
       ) SELECT id FROM up`,
      [collectionId],
    );
    return rows.map((row) => row.id);
  }

  /** The collection and its descendants' ids. */
  private async subtree(manager: EntityManager, collectionId: string): Promise<string[]> {
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

  /** The caller's role in the organization: null a guest, undefined not an (enabled) member. */
  private async organizationRole(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<Role | null | undefined> {
    const rows: { role: Role | null }[] = await manager.query(
      `SELECT role FROM organization_members
        WHERE organization_id = $1 AND user_id = $2 AND NOT disabled`,
      [organizationId, userId],
    );
    return rows.length === 0 ? undefined : rows[0].role;
  }
}
