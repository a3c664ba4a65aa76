import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Organization } from '../../orgs/entities/organization.entity';
import type { AuthenticatedRequest } from '../../platform/auth/actor';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { OrganizationAsker } from './organization-answers.service';

/**
 * The member asking, on a route declared `@Access('organization', …)`: the organization as the
 * access guard read it, the user, and its organization role (null: a guest).
 */
export const Asker = createParamDecorator(
  (_: unknown, context: ExecutionContext): OrganizationAsker => {
    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess<Organization> }>();
    const { actor, granted } = request;
    if (actor?.kind !== 'user' || !granted?.entity) {
      throw new Error('Asker used on a route without an organization access requirement');
    }
    return { organization: granted.entity, userId: actor.userId, role: granted.role };
  },
);
