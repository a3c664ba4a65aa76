import { Injectable, OnModuleInit } from '@nestjs/common';
import { forbidden, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import { atLeast } from '../../platform/policy/roles';
import type { Organization } from '../entities/organization.entity';
import { organizationPermissions } from '../organization-permissions';

type MemberAction = 'remove' | 'listTeams';

declare module '../../platform/policy/access' {
  interface ResourceTypes {
    /** A user as a member of the route's organization (`:userId`), whether or not it is one. */
    member: true;
  }
  interface ResourceActions {
    member: MemberAction;
  }
}

/**
 * The access policy of what is done to a member of an organization: the caller sees it when it
 * is a member of the organization (its role there is its role on the member; the member itself
 * may be absent, which the handler answers). Actions: `remove`, an admin, or the member itself
 * (leaving); `listTeams`, a member from `read` up, or the member itself (a guest lists only its
 * own teams).
 */
@Injectable()
export class MemberAccessPolicy implements OnModuleInit {
  constructor(private readonly policy: PolicyService) {}

  onModuleInit(): void {
    this.policy.register('member', {
      resolver: { resolve: (_userId, id, context) => this.resolve(id, context!) },
      actions: {
        remove: (access, { userId }) =>
          access.id === userId || organizationPermissions(access.role).admin
            ? null
            : forbidden('Only an admin can remove another member from the organization.'),
        listTeams: (access, { userId }) =>
          access.id === userId || atLeast(access.role, 'read')
            ? null
            : forbidden('Guests can list only their own teams.'),
      },
    });
  }

  private async resolve(
    userId: string,
    context: AccessContext,
  ): Promise<ResolvedAccess<Organization> | null> {
    const organization = (await context.parent(
      'organization',
      context.params.organizationId,
    )) as ResolvedAccess<Organization> | null;
    if (!organization) throw notFound('Organization');
    return { ...organization, resource: 'member', id: userId };
  }
}
