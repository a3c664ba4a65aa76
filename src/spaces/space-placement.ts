import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAccessResolver } from '../collections/collection-access.resolver';
import { forbidden } from '../platform/errors/domain-error';
import { atLeast, type Role } from '../platform/policy/roles';

/** Where a space may go: the check on the target of a create, move or duplicate. */
@Injectable()
export class SpacePlacement {
  constructor(private readonly collections: CollectionAccessResolver) {}

  /**
   * 403 unless the caller may create content in `parentId` (the create role on that
   * collection) or, at the root, in the organization.
   */
  async requireCreateRole(
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
}
