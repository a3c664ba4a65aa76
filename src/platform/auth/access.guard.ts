import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, notFound, unauthenticated } from '../errors/domain-error';
import { AccessLevel, AccessRequirement, ResolvedAccess } from '../policy/access';
import { PolicyService } from '../policy/policy.service';
import { atLeast } from '../policy/roles';
import { ACCESS_METADATA } from './access.decorator';
import type { Actor, AuthenticatedRequest } from './actor';
import { AdminToken } from './admin-token';
import { Authenticator } from './authenticator';
import { bearerTokenHash } from './bearer';

/**
 * Authenticates the bearer token, then enforces the route's `@Access` requirement: 404 when
 * the caller may not see the resource, 403 when it may see it but not do this. The decision
 * stays on the request (`@Granted()`), from which presenters compute `permissions`.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly adminToken: AdminToken,
    private readonly policy: PolicyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AccessRequirement | undefined>(
      ACCESS_METADATA,
      [context.getHandler(), context.getClass()],
    );
    if (!requirement) {
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no access requirement`,
      );
    }
    if (requirement.kind === 'public') return true;

    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess }>();
    const actor = await this.authenticate(request);
    request.actor = actor;

    if (requirement.kind === 'admin') {
      if (actor.kind !== 'admin')
        throw forbidden('This route needs the instance administrator token.');
      return true;
    }
    if (actor.kind !== 'user') {
      if (requirement.kind === 'user' && requirement.admin) return true;
      throw forbidden('The instance administrator token only works on /v1/admin routes.');
    }
    if (requirement.kind === 'user') return true;

    const resourceId = String(request.params[requirement.param]);
    const access = await this.policy.resolve(actor.userId, requirement.resource, resourceId);
    const noun = this.policy.noun(requirement.resource);
    if (!access) throw notFound(capitalize(noun));
    if (!satisfies(access, requirement.level)) {
      throw forbidden(`This needs the ${requirement.level} role on this ${noun}.`);
    }
    request.granted = access;
    return true;
  }

  private async authenticate(request: AuthenticatedRequest): Promise<Actor> {
    const tokenHash = bearerTokenHash(request);
    if (!tokenHash)
      throw unauthenticated('Missing bearer token: send "Authorization: Bearer <token>".');
    if (this.adminToken.matches(tokenHash)) return { kind: 'admin', tokenHash };
    const user = await this.authenticator.authenticate(tokenHash);
    if (!user) throw unauthenticated('Unknown or revoked token.');
    return user;
  }
}

function satisfies(access: ResolvedAccess, level: AccessLevel): boolean {
  return level === 'view' || atLeast(access.role, level);
}

function capitalize(resource: string): string {
  const words = resource.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
