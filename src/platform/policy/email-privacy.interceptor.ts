import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/actor';
import type { ResolvedAccess } from './access';
import { PolicyService } from './policy.service';

interface UserObject {
  object: 'user';
  id: string;
  email?: string;
}

/**
 * Who sees a user's email address: the person, the admins of the organization the request is
 * about, and the instance administrator. Everyone else sees GitBook's `User` without `email`
 * (name and photo only). Decided here, once, for every response: each user object of a
 * response body (`object: 'user'`, however deep) loses its `email` unless the caller may see
 * it. Presenters build a fresh body per response, so the objects are changed in place.
 */
@Injectable()
export class EmailPrivacyInterceptor implements NestInterceptor {
  constructor(private readonly policy: PolicyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess }>();
    return next.handle().pipe(
      mergeMap((body: unknown) => {
        const actor = request.actor;
        if (actor?.kind === 'admin') return of(body);
        const userId = actor?.kind === 'user' ? actor.userId : undefined;
        const others = usersOtherThan(body, userId);
        // Most bodies show no one else's email: they go on as they are, with no promise.
        if (others.length === 0) return of(body);
        return from(this.redact(body, others, userId, request.granted));
      }),
    );
  }

  /** `body` without the emails of `others`, unless the caller administers their organization. */
  private async redact(
    body: unknown,
    others: UserObject[],
    userId: string | undefined,
    granted: ResolvedAccess | undefined,
  ): Promise<unknown> {
    if (userId && (await this.isOrganizationAdmin(userId, granted))) return body;
    for (const user of others) delete user.email;
    return body;
  }

  /** Whether the caller administers the organization of the route's resource. */
  private async isOrganizationAdmin(
    userId: string,
    granted: ResolvedAccess | undefined,
  ): Promise<boolean> {
    if (!granted) return false;
    if (granted.resource === 'organization') return granted.role === 'admin';
    const organization = await this.policy.resolve(userId, 'organization', granted.organizationId);
    return organization?.role === 'admin';
  }
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The user objects with an email in `body` that are not `viewerId`'s own. */
function usersOtherThan(body: unknown, viewerId: string | undefined): UserObject[] {
  const found: UserObject[] = [];
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isPlainContainer(value)) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (value.object === 'user' && typeof value.email === 'string' && value.id !== viewerId) {
      found.push(value as unknown as UserObject);
    }
    for (const child of Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return found;
}
