import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiParam,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorBody } from '../errors/error-body';
import {
  AccessLevel,
  AccessRequirement,
  ActionOf,
  describeRequirement,
  ResourceRequirement,
  ResolvedAccess,
  ResourceType,
} from '../policy/access';
import { isRole } from '../policy/roles';
import type { AuthenticatedRequest, UserActor } from './actor';
import { DeferredAccessInterceptor } from './deferred-access.interceptor';

export const ACCESS_METADATA = 'bindery:access';

function declare(requirement: AccessRequirement) {
  const documentation =
    requirement.kind === 'public'
      ? []
      : [
          ApiBearerAuth('user'),
          ...(requirement.kind === 'resource' && requirement.siteReaders
            ? [ApiBearerAuth('siteReader')]
            : []),
          ...(requirement.kind === 'resource' && requirement.integrations?.integration
            ? [ApiBearerAuth('integration')]
            : []),
          ...(requirement.kind === 'resource' && requirement.integrations?.installation
            ? [ApiBearerAuth('integration-installation')]
            : []),
          ApiUnauthorizedResponse({
            type: ErrorBody,
            description: 'Missing, unknown or revoked token.',
          }),
          ApiForbiddenResponse({ type: ErrorBody, description: 'The caller may not do this.' }),
          ApiTooManyRequestsResponse({ type: ErrorBody, description: 'Rate limit exceeded.' }),
        ];
  const notFound =
    requirement.kind === 'resource'
      ? [
          // Declared here too: a handler that only reads `@Granted()` has no @Param for it.
          ApiParam({ name: requirement.param, type: String, required: true }),
          ApiNotFoundResponse({
            type: ErrorBody,
            description: `No such ${requirement.resource.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}, or not visible to the caller.`,
          }),
        ]
      : [];
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, requirement),
    ApiExtension('x-bindery-access', describeRequirement(requirement)),
    ...documentation,
    ...notFound,
  );
}

/**
 * The access requirement of a route, enforced by the guards and written into the API document.
 * `@Access('organization', 'admin')` needs the admin role on the organization named by the
 * `organizationId` route parameter; `'view'` only needs to see it. On a resource type whose
 * policy has actions, `need` names one: `@Access('comment', 'delete')`. `options.param` names
 * another route parameter; `options.ifAbsent: 'proceed'` runs the handler, with no access,
 * when the resource is absent or unseen (a delete that answers 204 either way).
 * `options.siteReaders` lets a published site's token read it too (`need` is then `view`).
 * `options.integrations` lets integration scripts call it (IntegrationAdmission).
 * For scoped tokens (token-scope.ts): `options.reads` marks a POST that only reads;
 * `options.reaches` a write that reaches beyond its resource (a move, a transfer).
 */
export function Access<R extends ResourceType>(
  resource: R,
  need: AccessLevel | ActionOf<R>,
  options:
    | string
    | Partial<
        Pick<
          ResourceRequirement,
          'param' | 'ifAbsent' | 'siteReaders' | 'integrations' | 'reads' | 'reaches'
        >
      > = {},
) {
  const { param = `${resource}Id`, ...rest } =
    typeof options === 'string' ? { param: options } : options;
  const declared = declare({ kind: 'resource', resource, param, need, ...rest });
  // An action's rule may read the body, which is read after the guards: such routes decide it
  // once the body is there (role needs never read it, so their routes skip the interceptor).
  return need === 'view' || isRole(need)
    ? declared
    : applyDecorators(declared, UseInterceptors(DeferredAccessInterceptor));
}

/**
 * Any authenticated user, whatever the resource. `limitedTokens`: tokens limited to one
 * organization may call it too (it is about the caller, or answers only what the token reaches).
 */
Access.user = (options: { limitedTokens?: true } = {}) => declare({ kind: 'user', ...options });
/** Any authenticated user, or the instance administrator's token. */
Access.userOrAdmin = () => declare({ kind: 'user', admin: true });
/** Only the instance administrator's token (the admin API). */
Access.admin = () => declare({ kind: 'admin' });
/** No token needed. */
Access.public = () => declare({ kind: 'public' });

/** The authenticated user of a route declared with `Access(...)` or `Access.user()`. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const actor = context.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (actor?.kind !== 'user') throw new Error('CurrentUser used on a route without a user');
  return actor as UserActor;
});

/** The caller of a route declared with `Access.userOrAdmin()`: a user or the administrator. */
export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const actor = context.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (!actor) throw new Error('CurrentActor used on a route without authentication');
  return actor;
});

/**
 * The caller's access to the route's resource, as decided by the access guard; null on a route
 * declared `ifAbsent: 'proceed'` when the resource is absent or unseen.
 */
export const Granted = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context
    .switchToHttp()
    .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess | null }>();
  if (request.granted === undefined)
    throw new Error('Granted used on a route without a resource requirement');
  return request.granted;
});
