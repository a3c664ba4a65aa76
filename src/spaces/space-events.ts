import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContentDiff } from '../content-engine/diff/content-diff';
import type { TreeChange } from '../content-engine/diff/tree-changes';
import {
  type PrimaryMoved,
  PrimaryMovedListeners,
} from '../content-engine/writes/primary-moved-listeners';
import { type EventInput, EventOutbox, userActor } from '../platform/events/event-outbox';
import type { EventActor } from '../platform/events/outbox-event.entity';
import { UsersPresenter } from '../users/users.presenter';
import { UsersService } from '../users/users.service';
import type { Space } from './entities/space.entity';
import { SpacesPresenter } from './spaces.presenter';
import { SpacesRepository } from './spaces.repository';

type SpaceEventType = 'space_created' | 'space_updated' | 'space_deleted' | 'space_restored';

/** The fields of a space an update may change, as `space_updated` names them. */
const UPDATABLE: (keyof Space)[] = [
  'title',
  'emoji',
  'icon',
  'visibility',
  'editMode',
  'defaultLevel',
  'language',
  'mergeRules',
  'parentId',
  'organizationId',
];

/** The API's names of the fields whose entity names differ. */
const FIELD_NAMES: Partial<Record<keyof Space, string>> = {
  parentId: 'parent',
  organizationId: 'organization',
};

/**
 * The events of spaces, recorded in the transaction of their change: created, updated (and
 * GitBook's `space_visibility_updated`), deleted, restored, and GitBook's
 * `space_content_updated` whenever the primary content moves (with the pages and files that
 * changed). Each carries the space as an admin sees it.
 */
@Injectable()
export class SpaceEvents implements OnModuleInit {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly presenter: SpacesPresenter,
    private readonly primaryMoved: PrimaryMovedListeners,
    private readonly diff: ContentDiff,
    private readonly spaces: SpacesRepository,
    private readonly users: UsersService,
    private readonly usersPresenter: UsersPresenter,
  ) {}

  onModuleInit(): void {
    this.primaryMoved.register((event) => this.contentUpdated(event));
  }

  async record(
    manager: EntityManager,
    type: SpaceEventType,
    space: Space,
    actor: EventActor,
  ): Promise<void> {
    await this.outbox.record(manager, this.event(type, space, actor, {}));
  }

  /** `space_updated` with what changed, and `space_visibility_updated` when its visibility did. */
  async updated(
    manager: EntityManager,
    before: Space,
    after: Space,
    actor: EventActor,
  ): Promise<void> {
    const changed = UPDATABLE.filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    ).map((field) => FIELD_NAMES[field] ?? field);
    if (changed.length === 0) return;
    const events: EventInput[] = [this.event('space_updated', after, actor, { changed })];
    if (before.visibility !== after.visibility) {
      events.push({
        ...this.event('space_visibility_updated', after, actor, {}),
        fields: {
          spaceId: after.id,
          previousVisibility: before.visibility,
          visibility: after.visibility,
        },
      });
    }
    await this.outbox.record(manager, ...events);
  }

  private event(
    type: string,
    space: Space,
    actor: EventActor,
    fields: Record<string, unknown>,
  ): EventInput {
    return {
      type,
      organizationId: space.organizationId,
      resource: { type: 'space', id: space.id },
      spaceId: space.id,
      actor,
      fields: { spaceId: space.id, ...fields, space: this.presenter.present(space, 'admin') },
    };
  }

  /** GitBook's `space_content_updated`, once the primary moved from one revision to another. */
  private async contentUpdated(event: PrimaryMoved): Promise<void> {
    const { spaceId, fromRevision, toRevision, authorId, manager } = event;
    if (fromRevision === null || fromRevision === toRevision) return;
    const [organizationId, changes, author] = await Promise.all([
      this.spaces.organizationOf(spaceId, manager),
      this.diff.changesWithin(manager, spaceId, fromRevision, toRevision),
      authorId === null ? null : this.users.find(authorId, manager),
    ]);
    if (organizationId === undefined) return;
    await this.outbox.record(manager, {
      type: 'space_content_updated',
      organizationId,
      resource: { type: 'space', id: spaceId },
      spaceId,
      actor: authorId === null ? { kind: 'system' } : userActor(authorId),
      fields: {
        spaceId,
        revisionId: toRevision,
        previousRevisionId: fromRevision,
        updatedBy: author ? [this.usersPresenter.user(author)] : [],
        changes: summarize(changes),
      },
    });
  }
}

/** What changed, by page and file: their ids, titles and paths, not their content. */
function summarize(changes: TreeChange[]) {
  const pages: Record<string, unknown>[] = [];
  const files: Record<string, unknown>[] = [];
  for (const change of changes) {
    if ('page' in change) {
      pages.push({
        type: change.type,
        id: change.page.id,
        title: change.page.meta.title,
        ...(change.page.path !== null ? { path: change.page.path } : {}),
      });
    } else if ('file' in change) {
      files.push({ type: change.type, id: change.file.id, name: change.file.name });
    }
  }
  return { pages, files };
}
