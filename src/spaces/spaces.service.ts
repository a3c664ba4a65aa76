import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, SelectQueryBuilder } from 'typeorm';
import { CollectionAccessResolver } from '../collections/collection-access.resolver';
import type { CollectionAccess } from '../collections/collections.service';
import { ContentTree, unknownParentCollection } from '../collections/content-tree';
import { ContentEngine } from '../content-engine/content-engine';
import { Revision } from '../content-engine/entities/revision.entity';
import { PrimaryMovedListeners } from '../content-engine/writes/primary-moved-listeners';
import { SpaceTemplates } from '../content-engine/writes/space-templates';
import { mergeRuleUsers, normaliseMergeRules } from '../orgs/dto/merge-rules';
import type { MergeRulesConfiguration } from '../orgs/entities/organization.entity';
import { Organization } from '../orgs/entities/organization.entity';
import { organizationRole } from '../orgs/organization-role';
import { Clock } from '../platform/clock/clock';
import { DomainError, forbidden, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { atLeast, type Role } from '../platform/policy/roles';
import {
  CreateSpaceDto,
  MoveContentDto,
  TransferContentDto,
  UpdateSpaceDto,
} from './dto/space.dto';
import { Space, SpaceMergeRules } from './entities/space.entity';
import {
  GUEST_VISIBLE_SPACES_SQL,
  SpaceAccess,
  SpaceAccessResolver,
} from './space-access.resolver';

/** How long a deleted space stays restorable before the purge removes it. */
export const TRASH_RETENTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A space a member can reach, with the member's role there. */
export interface MemberSpace {
  permission: Role;
  space: SpaceAccess;
}

/** What a list query reads before the access query loads the spaces themselves. */
interface SpaceKey {
  id: string;
  createdAt: Date;
}

const spaceNotFound = () => notFound('Space');

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
 * Spaces of an organization: where they sit in the content tree, their settings, the trash.
 * Access is decided by SpaceAccessResolver; content lives in revisions (ContentEngine).
 */
@Injectable()
export class SpacesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: SpaceAccessResolver,
    private readonly collections: CollectionAccessResolver,
    private readonly tree: ContentTree,
    private readonly content: ContentEngine,
    private readonly templates: SpaceTemplates,
    private readonly primaryMoved: PrimaryMovedListeners,
    private readonly clock: Clock,
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
      await this.requireCreateRole(manager, organization.id, organizationRole, userId, parentId, {
        unknownParent: unknownParentCollection,
      });
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
        manager,
      });
      return this.reload(manager, userId, space.id);
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
    const query = this.liveSpaces(organizationId, organizationRole, userId);
    return this.withAccess(userId, await this.page(query, request, 'ASC'));
  }

  /** The live spaces directly in a collection that the caller can see, oldest first. */
  async listInCollection(
    collection: CollectionAccess,
    userId: string,
    request: PageRequest,
  ): Promise<Page<SpaceAccess>> {
    const role = await organizationRole(this.dataSource.manager, collection.organizationId, userId);
    const query = this.liveSpaces(collection.organizationId, role ?? null, userId).andWhere(
      's.parent_id = :parentId',
      { parentId: collection.id },
    );
    return this.withAccess(userId, await this.page(query, request, 'ASC'));
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
    const memberRole = await organizationRole(this.dataSource.manager, organizationId, memberId);
    if (memberRole === undefined) throw notFound('Member');
    const query = this.liveSpaces(organizationId, memberRole, memberId);
    const page = await this.page(query, request, request.order === 'asc' ? 'ASC' : 'DESC');
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
      await requireMergeRuleMembers(
        this.dataSource.manager,
        space.organizationId,
        changes.mergeRules,
      );
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
    await this.dataSource.manager.update(Space, { id: space.id }, changes);
    // The default level may change the caller's own role.
    return this.reload(this.dataSource.manager, userId, space.id);
  }

  /**
   * Moves the space to the trash. Nothing (204) when the caller cannot see it or it is already
   * there; 403 when it can see it without being an admin of it.
   */
  async remove(userId: string, spaceId: string): Promise<void> {
    const access = await this.access.resolve(userId, spaceId);
    if (!access || access.entity.deletedAt !== null) return;
    if (!atLeast(access.role, 'admin')) {
      throw forbidden('Deleting a space needs the admin role on it.');
    }
    const now = this.clock.now();
    await this.dataSource.manager.update(
      Space,
      { id: spaceId, deletedAt: IsNull() },
      { deletedAt: now, updatedAt: now },
    );
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
      return this.reload(manager, userId, space.id);
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
      const role = await organizationRole(manager, space.organizationId, userId);
      await this.requireCreateRole(manager, space.organizationId, role ?? null, userId, parentId, {
        unknownParent: unknownParentCollection,
      });
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
      return this.reload(manager, userId, space.id);
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
      const targetRole = await organizationRole(manager, input.organization, userId);
      if (targetRole === undefined) throw notFound('Organization');
      const sourceRole = await organizationRole(manager, space.organizationId, userId);
      if (!atLeast(sourceRole, 'admin') || !atLeast(targetRole, 'admin')) {
        throw forbidden('Transferring a space needs the admin role in both organizations.');
      }
      const blocker = await this.tree.transferBlocker(manager, { spaces: [space.id] });
      if (blocker) throw new DomainError('precondition_failed', 'CannotTransfer', blocker);
      // Grants and invite links belong to the old organization.
      await manager.query(
        `DELETE FROM content_grants WHERE resource_type = 'space' AND resource_id = $1`,
        [space.id],
      );
      await manager.query(`DELETE FROM organization_invites WHERE space_id = $1`, [space.id]);
      await manager.query(`UPDATE change_requests SET organization_id = $1 WHERE space_id = $2`, [
        input.organization,
        space.id,
      ]);
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
      return this.reload(manager, userId, space.id);
    });
  }

  /**
   * A copy of the space next to it: same settings and the same content (its first revision
   * points at the source's tree, nothing is copied), titled `… (copy)`, private (or
   * in-collection, as it stays in the same collection), with no grant of its own (the
   * organization's defaults apply). Needs create where the copy goes.
   */
  duplicate(access: SpaceAccess, userId: string): Promise<SpaceAccess> {
    const source = access.entity;
    return this.dataSource.transaction(async (manager) => {
      const role = await organizationRole(manager, source.organizationId, userId);
      await this.requireCreateRole(
        manager,
        source.organizationId,
        role ?? null,
        userId,
        source.parentId,
        {
          unknownParent: () => spaceNotFound(),
        },
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
      return this.reload(manager, userId, copy.id);
    });
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
        const rows: { id: string }[] = await manager.query(
          `SELECT id FROM spaces WHERE deleted_at < $1 ORDER BY deleted_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [cutoff, batchSize],
        );
        if (rows.length === 0) return 0;
        const ids = rows.map((row) => row.id);
        await manager.query(
          `DELETE FROM content_grants WHERE resource_type = 'space' AND resource_id = ANY($1::varchar[])`,
          [ids],
        );
        await manager.query(`DELETE FROM spaces WHERE id = ANY($1::varchar[])`, [ids]);
        return ids.length;
      });
      purged += count;
      if (count < batchSize) return purged;
    }
  }

  /**
   * 403 unless the caller may create content in `parentId` (the create role on that
   * collection) or, at the root, in the organization.
   */
  private async requireCreateRole(
    manager: EntityManager,
    organizationId: string,
    organizationRole: Role | null,
    userId: string,
    parentId: string | null,
    errors: { unknownParent: (parentId: string) => Error },
  ): Promise<void> {
    if (parentId === null) {
      if (!atLeast(organizationRole, 'create')) {
        throw forbidden('Creating content at the organization root needs the create role in it.');
      }
      return;
    }
    const parent = (await this.collections.resolveMany(userId, [parentId], manager)).get(parentId);
    if (!parent || parent.organizationId !== organizationId) throw errors.unknownParent(parentId);
    if (!atLeast(parent.role, 'create')) {
      throw forbidden('Creating content in this collection needs the create role on it.');
    }
  }

  /** The organization's live spaces that a caller with this organization role may see. */
  private liveSpaces(
    organizationId: string,
    organizationRole: Role | null,
    userId: string,
  ): SelectQueryBuilder<Space> {
    const query = this.dataSource
      .getRepository(Space)
      .createQueryBuilder('s')
      .where('s.organization_id = :organizationId', { organizationId })
      .andWhere('s.deleted_at IS NULL');
    if (organizationRole === null) {
      query.andWhere(`s.id IN (${GUEST_VISIBLE_SPACES_SQL})`, { userId });
    }
    return query;
  }

  /**
   * A page of the query's spaces, keys only: the access query that follows reads the whole
   * rows anyway (hydrating entities here cost more CPU than both queries).
   */
  private page(
    query: SelectQueryBuilder<Space>,
    request: PageRequest,
    direction: 'ASC' | 'DESC',
  ): Promise<Page<SpaceKey>> {
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

  private async reload(
    manager: EntityManager,
    userId: string,
    spaceId: string,
  ): Promise<SpaceAccess> {
    const access = (await this.access.resolveMany(userId, [spaceId], manager)).get(spaceId);
    if (!access) throw spaceNotFound();
    return access;
  }
}

/** `inherit` as is; rules normalised as an organization's are. */
function normaliseSpaceMergeRules(rules: SpaceMergeRules): SpaceMergeRules {
  if (rules.type === 'inherit') return { type: 'inherit' };
  return normaliseMergeRules(rules as MergeRulesConfiguration) as SpaceMergeRules;
}

/** 400 when a rule names a user who is not an enabled member, as for an organization's rules. */
async function requireMergeRuleMembers(
  manager: EntityManager,
  organizationId: string,
  rules: SpaceMergeRules,
): Promise<void> {
  if (rules.type !== 'rules') return;
  const configuration = rules as Extract<MergeRulesConfiguration, { type: 'rules' }>;
  const users = mergeRuleUsers(configuration);
  if (users.length === 0) return;
  const rows: { user_id: string }[] = await manager.query(
    `SELECT user_id FROM organization_members
      WHERE organization_id = $1 AND user_id = ANY($2::varchar[]) AND NOT disabled`,
    [organizationId, users],
  );
  const members = new Set(rows.map((row) => row.user_id));
  for (const [i, rule] of configuration.rules.entries()) {
    const stranger = (rule.users ?? []).find((user) => !members.has(user));
    if (stranger !== undefined) {
      throw invalidInput(
        `mergeRules.rules.${i}.users: user ${stranger} is not a member of this organization.`,
      );
    }
  }
}
