import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Organization } from '../orgs/entities/organization.entity';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { ResolvedAccess } from '../platform/policy/access';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { CollectionAccessResolver } from './collection-access.resolver';
import { ContentPlacement } from './content-placement';
import { ContentTree } from './content-tree';
import {
  CreateCollectionDto,
  ListCollectionsQueryDto,
  MoveContentDto,
  TransferContentDto,
  UpdateCollectionDto,
} from './dto/collection.dto';
import { Collection } from './entities/collection.entity';
import { CollectionSpaces } from './collection-spaces';
import { CollectionsRepository } from './collections.repository';
import { ContentTransfers } from './content-transfers';
import { ContentGrantsRepository } from './grants/content-grants.repository';

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
    private readonly tree: ContentTree,
    private readonly clock: Clock,
    private readonly repository: CollectionsRepository,
    private readonly grants: ContentGrantsRepository,
    private readonly collectionSpaces: CollectionSpaces,
    private readonly transfers: ContentTransfers,
    private readonly placement: ContentPlacement,
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
      await this.placement.requireCreateRoleAt(
        manager,
        organization.id,
        userId,
        parentId,
        'Creating a collection',
        { organizationRole },
      );
      const now = this.clock.now();
      const collection = manager.create(Collection, {
        id: newId(),
        organizationId: organization.id,
        parentId,
        title: input.title || 'Untitled',
        description: null,
        defaultLevel: 'inherit',
        position: String(await this.tree.endOf(manager, organization.id, parentId)),
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
    const page = await this.repository.pageVisible(
      { organizationId, userId, role: organizationRole },
      { rootOnly: request.nested === false },
      request,
    );
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
   * Deletes the collection and, by cascade, its sub-collections and their grants; the spaces
   * in them go to the trash (restorable for seven days, at the organization root).
   */
  async remove(access: CollectionAccess): Promise<void> {
    const collectionId = access.id;
    await this.dataSource.transaction(async (manager) => {
      const ids = await this.tree.subtree(manager, collectionId);
      await this.collectionSpaces.spaces.trashInCollections(ids, this.clock.now(), manager);
      await this.grants.deleteOn('collection', ids, manager);
      await manager.delete(Collection, { id: collectionId, organizationId: access.organizationId });
    });
  }

  /**
   * Moves the collection under `parent` (null: the organization root; absent: where it is) at
   * `position` (the end when absent). 409 when it would stay where it is.
   */
  move(access: CollectionAccess, userId: string, input: MoveContentDto): Promise<CollectionAccess> {
    if (input.parent === undefined && input.position === undefined) {
      throw invalidInput('Give parent, position or both.');
    }
    const collection = access.entity;
    return this.dataSource.transaction(async (manager) => {
      const parentId = input.parent === undefined ? collection.parentId : input.parent;
      const { organizationId } = collection;
      const target = await this.placement.target(manager, organizationId, userId, parentId);
      if (target && (await this.tree.ancestors(manager, target.id)).includes(collection.id)) {
        throw invalidInput('parent: a collection cannot move into itself or a sub-collection.');
      }
      await this.placement.requireCreateRole(
        manager,
        organizationId,
        userId,
        target,
        'Moving a collection',
      );

      await this.tree.place(
        manager,
        collection.organizationId,
        { kind: 'collection', id: collection.id },
        parentId,
        input.position,
        this.clock.now(),
      );
      return this.reload(manager, userId, collection.id);
    });
  }

  /**
   * Moves the collection, its sub-collections and their spaces to the root of another
   * organization (the caller must be an admin of both) and drops their grants, which name
   * members and teams of the old organization, and their invite links. 412 when a space in it
   * cannot leave.
   */
  transfer(
    access: CollectionAccess,
    userId: string,
    input: TransferContentDto,
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
      await this.placement.requireAdminOfBoth(
        manager,
        userId,
        collection.organizationId,
        input.organization,
        'Transferring a collection',
      );
      const ids = await this.tree.subtree(manager, collection.id);
      const blocker = await this.tree.transferBlocker(manager, { collections: ids });
      if (blocker) throw new DomainError('precondition_failed', 'CannotTransfer', blocker);
      const spaceIds = await this.tree.spacesIn(manager, ids);
      await this.grants.deleteOnContent(ids, spaceIds, manager);
      await this.transfers.transferred(
        { collectionIds: ids, spaceIds, organizationId: input.organization },
        manager,
      );
      const position = await this.tree.endOf(manager, input.organization, null);
      const now = this.clock.now();
      await this.repository.moveToOrganization(ids, input.organization, now, manager);
      await this.collectionSpaces.spaces.moveToOrganization(
        spaceIds,
        input.organization,
        now,
        manager,
      );
      await manager.update(
        Collection,
        { id: collection.id },
        { parentId: null, position: String(position) },
      );
      return this.reload(manager, userId, collection.id);
    });
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
}
