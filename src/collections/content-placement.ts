import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MembersRepository } from '../orgs/members/members.repository';
import { forbidden, notFound } from '../platform/errors/domain-error';
import { atLeast, type Role } from '../platform/policy/roles';
import type { ResolvedAccess } from '../platform/policy/access';
import { CollectionAccessResolver } from './collection-access.resolver';
import type { Collection } from './entities/collection.entity';
import { unknownParentCollection } from './content-tree';

type CollectionAccess = ResolvedAccess<Collection>;

/**
 * The checks on the second resource of a write: where content goes (the target collection of a
 * create, move or duplicate, or the organization root) and the organization a transfer goes to.
 * The route's own resource is decided before the service runs (its access policy); these are
 * the only access decisions services make, and they make them here.
 */
@Injectable()
export class ContentPlacement {
  constructor(
    private readonly collections: CollectionAccessResolver,
    private readonly members: MembersRepository,
  ) {}

  /**
   * The collection content goes into, as the caller sees it; null for the organization root.
   * `unknownParent` (400 by default) when the organization has no such collection the caller
   * sees.
   */
  async target(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    parentId: string | null,
    unknownParent: (parentId: string) => Error = unknownParentCollection,
  ): Promise<CollectionAccess | null> {
    if (parentId === null) return null;
    const parent = (await this.collections.resolveMany(userId, [parentId], manager)).get(parentId);
    if (!parent || parent.organizationId !== organizationId) throw unknownParent(parentId);
    return parent;
  }

  /**
   * 403 unless the caller has the create role where content goes: on `target`, or at the root
   * (`target` null) in the organization (its `organizationRole` when the caller knows it, read
   * otherwise). `doing` names the write in the message ("Moving a space").
   */
  async requireCreateRole(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    target: CollectionAccess | null,
    doing: string,
    organizationRole?: Role | null,
  ): Promise<void> {
    if (target) {
      if (!atLeast(target.role, 'create')) {
        throw forbidden(`${doing} into this collection needs the create role on it.`);
      }
      return;
    }
    const role =
      organizationRole !== undefined
        ? organizationRole
        : await this.members.roleOf(organizationId, userId, manager);
    if (!atLeast(role, 'create')) {
      throw forbidden(`${doing} at the organization root needs the create role in it.`);
    }
  }

  /** `target` and `requireCreateRole` in one, for writes with nothing to check in between. */
  async requireCreateRoleAt(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    parentId: string | null,
    doing: string,
    options: { organizationRole?: Role | null; unknownParent?: (parentId: string) => Error } = {},
  ): Promise<void> {
    const target = await this.target(
      manager,
      organizationId,
      userId,
      parentId,
      options.unknownParent,
    );
    await this.requireCreateRole(
      manager,
      organizationId,
      userId,
      target,
      doing,
      options.organizationRole,
    );
  }

  /**
   * Before a transfer from `sourceOrganizationId` to `targetOrganizationId`: 404 when the caller
   * is not a member of the target, 403 unless it is an admin of both.
   */
  async requireAdminOfBoth(
    manager: EntityManager,
    userId: string,
    sourceOrganizationId: string,
    targetOrganizationId: string,
    doing: string,
  ): Promise<void> {
    const targetRole = await this.members.roleOf(targetOrganizationId, userId, manager);
    if (targetRole === undefined) throw notFound('Organization');
    const sourceRole = await this.members.roleOf(sourceOrganizationId, userId, manager);
    if (!atLeast(sourceRole, 'admin') || !atLeast(targetRole, 'admin')) {
      throw forbidden(`${doing} needs the admin role in both organizations.`);
    }
  }
}
