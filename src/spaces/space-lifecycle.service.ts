import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ContentTransfers } from '../collections/content-transfers';
import { ContentTree } from '../collections/content-tree';
import { ContentGrantsRepository } from '../collections/grants/content-grants.repository';
import { ContentEngine } from '../content-engine/content-engine';
import { Revision } from '../content-engine/entities/revision.entity';
import { PrimaryMovedListeners } from '../content-engine/writes/primary-moved-listeners';
import { Clock } from '../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { MoveContentDto, TransferContentDto } from './dto/space.dto';
import { Space } from './entities/space.entity';
import { SpaceAccess, SpaceAccessResolver } from './space-access.resolver';
import { ContentPlacement } from '../collections/content-placement';
import { userActor } from '../platform/events/event-outbox';
import { SpaceEvents } from './space-events';
import { SpacesRepository } from './spaces.repository';

/** How long a deleted space stays restorable before the purge removes it. */
export const TRASH_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `title (copy)`, cut to fit the 50 characters (code points, as PostgreSQL and JSON Schema count
 * them) a title may have. The cut falls between graphemes, never inside an emoji.
 */
export function copyTitle(title: string): string {
  const suffix = ' (copy)';
  const room = 50 - [...suffix].length;
  let kept = '';
  let length = 0;
  for (const { segment } of new Intl.Segmenter().segment(title)) {
    const size = [...segment].length;
    if (length + size > room) break;
    kept += segment;
    length += size;
  }
  return `${kept.trimEnd()}${suffix}`;
}

/**
 * A space's life after its creation: the trash (delete, restore, the purge of old ones), moves
 * in the content tree, the transfer to another organization and duplication.
 */
@Injectable()
export class SpaceLifecycle {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: SpaceAccessResolver,
    private readonly placement: ContentPlacement,
    private readonly tree: ContentTree,
    private readonly content: ContentEngine,
    private readonly primaryMoved: PrimaryMovedListeners,
    private readonly clock: Clock,
    private readonly spaces: SpacesRepository,
    private readonly grants: ContentGrantsRepository,
    private readonly transfers: ContentTransfers,
    private readonly events: SpaceEvents,
  ) {}

  /** Moves the space (one not in the trash, as `access` found it) to the trash. */
  async remove(access: SpaceAccess, userId: string): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      const { affected } = await manager.update(
        Space,
        { id: access.id, deletedAt: IsNull() },
        { deletedAt: now, updatedAt: now },
      );
      if (!affected) return;
      const deleted = Object.assign(new Space(), access.entity, { deletedAt: now, updatedAt: now });
      await this.events.record(manager, 'space_deleted', deleted, userActor(userId));
    });
  }

  /**
   * Takes the space out of the trash, at the end of its collection (at the root when that
   * collection is gone). A space not in the trash is answered as it is.
   */
  restore(access: SpaceAccess, userId: string): Promise<SpaceAccess> {
    const space = access.entity;
    if (space.deletedAt === null) return Promise.resolve(access);
    return this.dataSource.transaction(async (manager) => {
      const position = await this.tree.endOf(manager, space.organizationId, space.parentId);
      const visibility =
        space.parentId === null && space.visibility === 'in-collection'
          ? 'private'
          : space.visibility;
      await manager.update(
        Space,
        { id: space.id },
        { deletedAt: null, position: String(position), visibility, updatedAt: this.clock.now() },
      );
      const restored = await this.access.reload(manager, userId, space.id);
      await this.events.record(manager, 'space_restored', restored.entity, userActor(userId));
      return restored;
    });
  }

  /**
   * Moves the space under `parent` (null: the root; absent: where it is) at `position` (the
   * end when absent). Needs create on the target. A space leaving collections for the root
   * loses the `in-collection` visibility, which becomes `private`.
   */
  move(access: SpaceAccess, userId: string, input: MoveContentDto): Promise<SpaceAccess> {
    if (input.parent === undefined && input.position === undefined) {
      throw invalidInput('Give parent, position or both.');
    }
    const space = access.entity;
    return this.dataSource.transaction(async (manager) => {
      const parentId = input.parent === undefined ? space.parentId : input.parent;
      await this.placement.requireCreateRoleAt(
        manager,
        space.organizationId,
        userId,
        parentId,
        'Moving a space',
      );
      const now = this.clock.now();
      await this.tree.place(
        manager,
        space.organizationId,
        { kind: 'space', id: space.id },
        parentId,
        input.position,
        now,
      );
      if (parentId === null && space.visibility === 'in-collection') {
        await manager.update(Space, { id: space.id }, { visibility: 'private' });
      }
      const moved = await this.access.reload(manager, userId, space.id);
      await this.events.updated(manager, space, moved.entity, userActor(userId));
      return moved;
    });
  }

  /**
   * Moves the space to the root of another organization (the caller must be an admin of
   * both) and drops its grants and invite links, which belong to the old organization.
   */
  transfer(access: SpaceAccess, userId: string, input: TransferContentDto): Promise<SpaceAccess> {
    const space = access.entity;
    if (input.organization === space.organizationId) {
      throw new DomainError(
        'conflict',
        'NothingToTransfer',
        'The space already belongs to this organization.',
      );
    }
    return this.dataSource.transaction(async (manager) => {
      await this.placement.requireAdminOfBoth(
        manager,
        userId,
        space.organizationId,
        input.organization,
        'Transferring a space',
      );
      const blocker = await this.tree.transferBlocker(manager, { spaces: [space.id] });
      if (blocker) throw new DomainError('precondition_failed', 'CannotTransfer', blocker);
      // Grants and invite links belong to the old organization.
      await this.grants.deleteOn('space', [space.id], manager);
      await this.transfers.transferred(
        { collectionIds: [], spaceIds: [space.id], organizationId: input.organization },
        manager,
      );
      const position = await this.tree.endOf(manager, input.organization, null);
      await manager.update(
        Space,
        { id: space.id },
        {
          organizationId: input.organization,
          parentId: null,
          position: String(position),
          visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
          updatedAt: this.clock.now(),
        },
      );
      const transferred = await this.access.reload(manager, userId, space.id);
      await this.events.updated(manager, space, transferred.entity, userActor(userId));
      return transferred;
    });
  }

  /**
   * A copy of the space next to it: same settings and the same content (its first revision
   * points at the source's tree, nothing is copied), titled `… (copy)`, private (or
   * in-collection, as it stays in the same collection), with no grant of its own (the
   * organization's defaults apply). Needs create where the copy goes.
   */
  duplicate(access: SpaceAccess, userId: string): Promise<SpaceAccess> {
    return this.dataSource.transaction((manager) => this.duplicateIn(manager, access, userId));
  }

  /**
   * {@link duplicate} in a transaction already under way (`duplicateSiteSpace`: the copy and its
   * place in the site are one write).
   */
  async duplicateIn(
    manager: EntityManager,
    access: SpaceAccess,
    userId: string,
  ): Promise<SpaceAccess> {
    const source = access.entity;
    await this.placement.requireCreateRoleAt(
      manager,
      source.organizationId,
      userId,
      source.parentId,
      'Duplicating a space',
      { unknownParent: () => notFound('Space') },
    );
    const revision = await manager.findOneByOrFail(Revision, { id: source.revisionId });
    const now = this.clock.now();
    const copy = manager.create(Space, {
      ...source,
      id: newId(),
      title: copyTitle(source.title),
      visibility: source.visibility === 'in-collection' ? 'in-collection' : 'private',
      defaultLevel: 'inherit',
      gitSync: null,
      visitorAuth: null,
      revisionId: newId(),
      position: String(await this.tree.endOf(manager, source.organizationId, source.parentId)),
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await manager.insert(Space, copy);
    await this.content.forkRevision(manager, {
      id: copy.revisionId,
      spaceId: copy.id,
      authorId: userId,
      source: revision,
    });
    await this.primaryMoved.notify({
      spaceId: copy.id,
      fromRevision: null,
      toRevision: copy.revisionId,
      authorId: userId,
      manager,
    });
    await this.tree.place(
      manager,
      source.organizationId,
      { kind: 'space', id: copy.id },
      source.parentId,
      { after: { type: 'space', space: source.id } },
      now,
      { allowUnchanged: true },
    );
    const duplicated = await this.access.reload(manager, userId, copy.id);
    await this.events.record(manager, 'space_created', duplicated.entity, userActor(userId));
    return duplicated;
  }

  /**
   * Removes for good the spaces deleted more than seven days ago, with their revisions and
   * grants, in batches; returns how many went. The content objects they pointed at stay (other
   * revisions may share them).
   */
  async purge(batchSize = 500): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - TRASH_RETENTION_DAYS * DAY_MS);
    let purged = 0;
    for (;;) {
      const count = await this.dataSource.transaction(async (manager) => {
        const ids = await this.spaces.lockTrashedBefore(cutoff, batchSize, manager);
        if (ids.length === 0) return 0;
        await this.grants.deleteOn('space', ids, manager);
        await this.spaces.deleteByIds(ids, manager);
        return ids.length;
      });
      purged += count;
      if (count < batchSize) return purged;
    }
  }
}
