import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { CollectionAccess } from '../collections/collections.service';
import { ContentTree } from '../collections/content-tree';
import { SearchIndexer } from '../content-engine/search/search-indexer';
import { ContentEngine } from '../content-engine/content-engine';
import { PrimaryMovedListeners } from '../content-engine/writes/primary-moved-listeners';
import { SpaceTemplates } from '../content-engine/writes/space-templates';
import { mergeRuleUsers, normaliseMergeRules } from '../orgs/dto/merge-rules';
import type { MergeRulesConfiguration } from '../orgs/entities/organization.entity';
import { Organization } from '../orgs/entities/organization.entity';
import { MembersRepository } from '../orgs/members/members.repository';
import { Clock } from '../platform/clock/clock';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { CreateSpaceDto, UpdateSpaceDto } from './dto/space.dto';
import { Space, SpaceMergeRules } from './entities/space.entity';
import { SpaceAccess, SpaceAccessResolver } from './space-access.resolver';
import { ContentPlacement } from '../collections/content-placement';
import { userActor } from '../platform/events/event-outbox';
import { SpaceEvents } from './space-events';
import { SpaceKey, SpacesRepository } from './spaces.repository';

/** A space a member can reach, with the member's role there. */
export interface MemberSpace {
  permission: Role;
  space: SpaceAccess;
}

/**
 * Spaces of an organization: their creation, listings and settings (their life after that is
 * SpaceLifecycle's). Access is decided by SpaceAccessResolver; content lives in revisions.
 */
@Injectable()
export class SpacesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: SpaceAccessResolver,
    private readonly placement: ContentPlacement,
    private readonly tree: ContentTree,
    private readonly content: ContentEngine,
    private readonly templates: SpaceTemplates,
    private readonly primaryMoved: PrimaryMovedListeners,
    private readonly searchIndex: SearchIndexer,
    private readonly clock: Clock,
    private readonly spaces: SpacesRepository,
    private readonly members: MembersRepository,
    private readonly events: SpaceEvents,
  ) {}

  /**
   * Creates a space after its siblings, with its first revision: one empty page, none with
   * `empty: true`, or a template's pages (`template`). At the root it needs the create role in the organization; in a collection,
   * create on that collection. With `manager`, it joins that transaction instead of opening one
   * (then without an api-reference template, whose specification is read on another connection).
   */
  async create(
    organization: Organization,
    organizationRole: Role | null,
    userId: string,
    input: CreateSpaceDto,
    manager?: EntityManager,
  ): Promise<SpaceAccess> {
    const initializers = (['template', 'computedSource', 'empty'] as const).filter(
      (key) => input[key] !== undefined,
    );
    if (initializers.length > 1) {
      throw invalidInput(
        `${initializers.join(', ')}: give at most one of template, computedSource, empty.`,
      );
    }
    if (input.computedSource) {
      throw invalidInput(
        'computedSource: no computed content source is available to this organization.',
      );
    }
    // Before the transaction: an api-reference template reads its OpenAPI specification.
    const templatePages = input.template
      ? await this.templates.prepare(organization.id, input.template)
      : undefined;
    const work = async (manager: EntityManager) => {
      const parentId = input.parent ?? null;
      await this.placement.requireCreateRoleAt(
        manager,
        organization.id,
        userId,
        parentId,
        'Creating a space',
        { organizationRole },
      );
      const now = this.clock.now();
      const space = manager.create(Space, {
        id: newId(),
        organizationId: organization.id,
        parentId,
        title: input.title || 'Untitled',
        emoji: input.emoji ?? null,
        icon: null,
        visibility: 'private',
        editMode: input.editMode ?? 'live',
        defaultLevel: 'inherit',
        language: input.language ?? null,
        mergeRules: { type: 'inherit' },
        gitSync: null,
        visitorAuth: null,
        revisionId: newId(),
        position: String(await this.tree.endOf(manager, organization.id, parentId)),
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await manager.insert(Space, space);
      if (templatePages) {
        await this.templates.createFirstRevision(manager, {
          id: space.revisionId,
          spaceId: space.id,
          authorId: userId,
          pages: templatePages,
        });
      } else {
        await this.content.createInitialRevision(manager, {
          id: space.revisionId,
          spaceId: space.id,
          authorId: userId,
          content: input.empty ? 'empty' : 'page',
        });
      }
      await this.primaryMoved.notify({
        spaceId: space.id,
        fromRevision: null,
        toRevision: space.revisionId,
        authorId: userId,
        manager,
      });
      const created = await this.access.reload(manager, userId, space.id);
      await this.events.record(manager, 'space_created', created.entity, userActor(userId));
      return created;
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  /** The organization's live spaces the caller can see, oldest first. */
  async list(
    organizationId: string,
    organizationRole: Role | null,
    userId: string,
    request: PageRequest,
  ): Promise<Page<SpaceAccess>> {
    const page = await this.spaces.pageLiveVisible(
      { organizationId, userId, role: organizationRole },
      {},
      request,
      'ASC',
    );
    return this.withAccess(userId, page);
  }

  /** The live spaces directly in a collection that the caller can see, oldest first. */
  async listInCollection(
    collection: CollectionAccess,
    userId: string,
    request: PageRequest,
  ): Promise<Page<SpaceAccess>> {
    const role = await this.members.roleOf(collection.organizationId, userId);
    const page = await this.spaces.pageLiveVisible(
      { organizationId: collection.organizationId, userId, role: role ?? null },
      { parentId: collection.id },
      request,
      'ASC',
    );
    return this.withAccess(userId, page);
  }

  /**
   * The live spaces a member can reach, newest first by default, with the member's role on
   * each; the spaces' `permissions` are the caller's.
   */
  async listForMember(
    organizationId: string,
    memberId: string,
    callerId: string,
    request: PageRequest & { order?: 'asc' | 'desc' },
  ): Promise<Page<MemberSpace>> {
    const memberRole = await this.members.roleOf(organizationId, memberId);
    if (memberRole === undefined) throw notFound('Member');
    const page = await this.spaces.pageLiveVisible(
      { organizationId, userId: memberId, role: memberRole },
      {},
      request,
      request.order === 'asc' ? 'ASC' : 'DESC',
    );
    const ids = page.items.map((space) => space.id);
    const [forMember, forCaller] = await Promise.all([
      this.access.resolveMany(memberId, ids),
      this.access.resolveMany(callerId, ids),
    ]);
    return {
      ...page,
      items: page.items.flatMap((space) => {
        const permission = forMember.get(space.id)?.role;
        const space_ = forCaller.get(space.id);
        return permission && space_ ? [{ permission, space: space_ }] : [];
      }),
    };
  }

  /** Absent fields unchanged. */
  async update(access: SpaceAccess, userId: string, input: UpdateSpaceDto): Promise<SpaceAccess> {
    const space = access.entity;
    const changes: Partial<Space> = {};
    if (input.title !== undefined) changes.title = input.title || 'Untitled';
    if (input.editMode !== undefined) changes.editMode = input.editMode;
    if (input.defaultLevel !== undefined) changes.defaultLevel = input.defaultLevel;
    if (input.language !== undefined) changes.language = input.language;
    if (input.mergeRules !== undefined) {
      changes.mergeRules = normaliseSpaceMergeRules(input.mergeRules);
      await requireMergeRuleMembers(this.spaces, space.organizationId, changes.mergeRules);
    }
    if (input.visibility !== undefined) {
      if (input.visibility === 'in-collection' && space.parentId === null) {
        throw invalidInput('visibility: in-collection is only for a space inside a collection.');
      }
      changes.visibility = input.visibility;
    }
    if (input.emoji !== undefined || input.icon !== undefined) {
      if (input.emoji != null && input.icon != null) {
        throw invalidInput('emoji, icon: give an emoji or an icon, not both.');
      }
      changes.emoji = input.emoji ?? null;
      changes.icon = input.icon ?? null;
    }
    if (Object.keys(changes).length === 0) return access;
    changes.updatedAt = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      await manager.update(Space, { id: space.id }, changes);
      // The index folds and stems in the space's language: a new language rewrites it.
      if (changes.language !== undefined && changes.language !== space.language) {
        await this.searchIndex.rebuild(manager, space.id);
      }
      // The default level may change the caller's own role.
      const updated = await this.access.reload(manager, userId, space.id);
      await this.events.updated(manager, space, updated.entity, userActor(userId));
      return updated;
    });
  }

  /** The page's spaces with the caller's role on each, resolved in one query. */
  private async withAccess(userId: string, page: Page<SpaceKey>): Promise<Page<SpaceAccess>> {
    const accesses = await this.access.resolveMany(
      userId,
      page.items.map((space) => space.id),
    );
    return {
      ...page,
      items: page.items.flatMap((space) => {
        const access = accesses.get(space.id);
        return access ? [access] : [];
      }),
    };
  }
}

/** `inherit` as is; rules normalised as an organization's are. */
function normaliseSpaceMergeRules(rules: SpaceMergeRules): SpaceMergeRules {
  if (rules.type === 'inherit') return { type: 'inherit' };
  return normaliseMergeRules(rules as MergeRulesConfiguration) as SpaceMergeRules;
}

/** 400 when a rule names a user who is not an enabled member, as for an organization's rules. */
async function requireMergeRuleMembers(
  spaces: SpacesRepository,
  organizationId: string,
  rules: SpaceMergeRules,
): Promise<void> {
  if (rules.type !== 'rules') return;
  const configuration = rules as Extract<MergeRulesConfiguration, { type: 'rules' }>;
  const users = mergeRuleUsers(configuration);
  if (users.length === 0) return;
  const members = new Set(await spaces.enabledMemberIds(organizationId, users));
  for (const [i, rule] of configuration.rules.entries()) {
    const stranger = (rule.users ?? []).find((user) => !members.has(user));
    if (stranger !== undefined) {
      throw invalidInput(
        `mergeRules.rules.${i}.users: user ${stranger} is not a member of this organization.`,
      );
    }
  }
}
