import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from '../../platform/auth/actor';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { Role } from '../../platform/policy/roles';

/** Who looks at teams: the calling user and its role in the organization (null = guest). */
export interface TeamViewer {
  userId: string;
  role: Role | null;
}

/**
 * The caller of an `@Access('organization', ...)` route as a TeamViewer: `@CurrentUser()` and
 * `@Granted()` in one, since every team use case needs both.
 */
export const Viewer = createParamDecorator((_: unknown, context: ExecutionContext): TeamViewer => {
  const request = context
    .switchToHttp()
    .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess }>();
  if (request.actor?.kind !== 'user' || !request.granted) {
    throw new Error('Viewer used on a route without an organization requirement');
  }
  return { userId: request.actor.userId, role: request.granted.role };
});
