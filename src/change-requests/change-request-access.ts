import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainError, forbidden, notFound } from '../platform/errors/domain-error';
import type { ResolvedAccess } from '../platform/policy/access';
import { type AccessContext, PolicyService } from '../platform/policy/policy.service';
import { atLeast } from '../platform/policy/roles';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { spacePermissions } from '../spaces/space-permissions';
import { ChangeRequestsRepository } from './change-requests.repository';
import { changeRequestKey } from './change-requests.service';

type ChangeRequestAction = 'view' | 'edit' | 'review';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A change request of a space, named by its id or its number in the space. */
    changeRequest: true;
  }
  interface ResourceActions {
    changeRequest: ChangeRequestAction;
  }
}

/** A change request as its access sees it. */
export interface ChangeRequestTarget {
  /** The caller's access to the space, whose role is the caller's role on the change request. */
  space: SpaceAccess;
  id: string;
  createdBy: string;
  /** Whether the caller has a request to review it. */
  requested: boolean;
}

export type ChangeRequestAccess = ResolvedAccess<ChangeRequestTarget> & {
  entity: ChangeRequestTarget;
};

/**
 * The access policy of change requests: a caller sees one when it sees its space (its role
 * there is its role on the change request). Actions: `view`; `edit`, the edit role; `review`,
 * the review role or a request to review it, never for its creator.
 */
@Injectable()
export class ChangeRequestAccessPolicy implements OnModuleInit {
  constructor(
    private readonly policy: PolicyService,
    private readonly changeRequests: ChangeRequestsRepository,
  ) {}

  onModuleInit(): void {
    this.policy.register('changeRequest', {
      resolver: { resolve: (userId, id, context) => this.resolve(userId, id, context!) },
      noun: 'change request',
      actions: {
        view: () => null,
        edit: (access) =>
          atLeast(access.role, 'edit')
            ? null
            : forbidden('This needs the edit role on this space.'),
        review: (access, { userId }) => reviewDenial(access as ChangeRequestAccess, userId),
      },
    });
  }

  private async resolve(
    userId: string,
    changeRequestId: string,
    context: AccessContext,
  ): Promise<ChangeRequestAccess | null> {
    const space = (await context.parent('space', context.params.spaceId)) as SpaceAccess | null;
    if (!space) throw notFound('Space');
    const row = await this.changeRequests.accessRow(
      space.id,
      changeRequestKey(changeRequestId),
      userId,
    );
    if (!row) return null;
    return {
      resource: 'changeRequest',
      id: row.id,
      organizationId: space.organizationId,
      spaceId: space.id,
      role: space.role,
      entity: { space, id: row.id, createdBy: row.created_by, requested: row.requested },
    };
  }
}

/** Why the caller may not review the change request; null when it may. */
function reviewDenial(access: ChangeRequestAccess, userId: string): DomainError | null {
  if (access.entity.createdBy === userId) {
    return new DomainError(
      'forbidden',
      'OwnChangeRequestReview',
      'You cannot review a change request you created.',
    );
  }
  if (!access.entity.requested && !spacePermissions(access.role).review) {
    return new DomainError(
      'forbidden',
      'ReviewNotAllowed',
      'Reviewing needs the review role on this space, or a request to review this change request.',
    );
  }
  return null;
}
