import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden, notFound, unauthenticated } from '../errors/domain-error';
import type {
  AccessRequirement,
  ResolvedAccess,
  ResourceRequirement,
  ResourceType,
} from '../policy/access';
import { type AccessContext, PolicyService } from '../policy/policy.service';
import { ACCESS_METADATA } from './access.decorator';
import type {
  Actor,
  AuthenticatedRequest,
  IntegrationCallerActor,
  SiteReaderActor,
  UserActor,
} from './actor';
import { AdminToken } from './admin-token';
import { Authenticator } from './authenticator';
import { bearerToken, bearerTokenHash } from './bearer';
import { IntegrationTokens } from './integration-tokens';
import { looksLikeJwt, SiteTokens } from './site-tokens';
import { resourceRefusal, routeRefusal, seesResource } from './token-scope';

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
    private readonly siteTokens: SiteTokens,
    private readonly integrationTokens: IntegrationTokens,
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
      .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess | null }>();
    const actor = await this.authenticate(request);
    request.actor = actor;

    switch (actor.kind) {
      case 'admin':
        if (requirement.kind === 'admin') return true;
        if (requirement.kind === 'user' && requirement.admin) return true;
        throw forbidden('The instance administrator token only works on /v1/admin routes.');
      case 'siteReader':
        if (requirement.kind !== 'resource' || !requirement.siteReaders)
          throw forbidden('This token only reads a published site.');
        request.granted = await this.decideForSiteReader(request, actor, requirement);
        return true;
      case 'siteVisitor':
        throw forbidden('This token only reads a published site.');
      case 'integration':
      case 'installation':
        request.granted = await this.decideForIntegration(request, actor, requirement);
        return true;
      case 'user':
        if (requirement.kind === 'admin')
          throw forbidden('This route needs the instance administrator token.');
        if (actor.scope) {
          const refusal = routeRefusal(actor.scope, request.method, requirement);
          if (refusal) throw refusal;
        }
        if (requirement.kind === 'resource' && requirement.integrations?.only)
          throw forbidden("Only the integration's own token may do this.");
        if (requirement.kind === 'user') return true;
    }

    const access = await this.decide(request, actor, requirement);
    request.granted = access;
    return true;
  }

  /**
   * The caller's access to the route's resource, if it may do what the route needs: 404 when it
   * does not see it (unless the route proceeds without it), 403 when its policy refuses. A
   * scoped token sees only what its scope and its user both see (token-scope.ts).
   */
  private async decide(
    request: AuthenticatedRequest,
    actor: UserActor,
    requirement: ResourceRequirement,
  ): Promise<ResolvedAccess | null> {
    const { scope } = actor;
    const proceeds = requirement.ifAbsent === 'proceed';
    const resolve = memoizedResolver(request, proceeds, (resource, id, context) => {
      const resolved = this.policy.resolve(actor.userId, resource, id, context);
      return scope
        ? resolved.then((access) => (access && seesResource(scope, access) ? access : null))
        : resolved;
    });
    const access = await resolve(requirement.resource, String(request.params[requirement.param]));
    if (!access) {
      if (proceeds) return null;
      throw notFound(capitalize(this.policy.noun(requirement.resource)));
    }
    const outOfScope = scope && resourceRefusal(scope, access);
    if (outOfScope) throw outOfScope;
    return this.decideNeed(request, requirement, access, actor.userId);
  }

  /**
   * Whether the caller, who sees the resource, may do what the route needs: now, or once the
   * body is read when the rule reads it (DeferredAccessInterceptor). 403 when it may not.
   */
  private decideNeed(
    request: AuthenticatedRequest,
    requirement: ResourceRequirement,
    access: ResolvedAccess,
    userId: string,
  ): ResolvedAccess {
    const decision = { resource: requirement.resource, need: requirement.need, access };
    const action = { userId, params: request.params as Record<string, string> };
    if (this.policy.readsBody(decision.resource, decision.need)) {
      request.deferredDecision = { ...decision, request: action };
      return access;
    }
    const denial = this.policy.decide(decision.resource, decision.need, access, action);
    if (denial) throw denial;
    return access;
  }

  /** A site reader reads what its site publishes to its visitor: else 404, as anything unseen. */
  private async decideForSiteReader(
    request: AuthenticatedRequest,
    reader: SiteReaderActor,
    requirement: ResourceRequirement,
  ): Promise<ResolvedAccess> {
    // A reader never proceeds without the resource: deletes do not admit it.
    const resolve = memoizedResolver(request, false, (resource, id, context) =>
      this.policy.resolveForSiteReader(reader, resource, id, context),
    );
    const access = await resolve(requirement.resource, String(request.params[requirement.param]));
    if (!access) throw notFound(capitalize(this.policy.noun(requirement.resource)));
    return access;
  }

  /**
   * An integration's script, by its integration's or an installation's token, on a route that
   * admits it: 403 when the route does not take this kind of token, or the integration does not
   * hold the scope it needs; else decided as for a member, with the role the integration holds
   * on what it is installed on (404 for anything else).
   */
  private async decideForIntegration(
    request: AuthenticatedRequest,
    caller: IntegrationCallerActor,
    requirement: AccessRequirement,
  ): Promise<ResolvedAccess> {
    const admission = requirement.kind === 'resource' ? requirement.integrations : undefined;
    if (requirement.kind !== 'resource' || !admission)
      throw forbidden("An integration's token cannot call this route.");
    if (caller.kind === 'integration' && !admission.integration)
      throw forbidden("This route takes an installation's token, not the integration's.");
    if (caller.kind === 'installation') {
      const scope = admission.installation;
      if (!scope)
        throw forbidden("This route takes the integration's token, not an installation's.");
      if (scope !== 'any' && !caller.scopes.includes(scope))
        throw forbidden(`This needs the integration to hold the ${scope} scope.`);
    }
    const resolve = memoizedResolver(request, false, (resource, id, context) =>
      this.policy.resolveForIntegration(caller, resource, id, context),
    );
    const access = await resolve(requirement.resource, String(request.params[requirement.param]));
    if (!access) throw notFound(capitalize(this.policy.noun(requirement.resource)));
    return this.decideNeed(request, requirement, access, callerId(caller));
  }

  private async authenticate(request: AuthenticatedRequest): Promise<Actor> {
    const tokenHash = bearerTokenHash(request);
    if (!tokenHash)
      throw unauthenticated('Missing bearer token: send "Authorization: Bearer <token>".');
    if (this.adminToken.matches(tokenHash)) return { kind: 'admin', tokenHash };
    const token = bearerToken(request)!;
    if (looksLikeJwt(token)) {
      // A site's token (its renderer's, on every published read) first, then an integration's.
      const reader = this.siteReader(token, tokenHash);
      if (reader) return reader;
      const caller = this.integrationCaller(token, tokenHash);
      if (caller) return caller;
      throw unauthenticated('The token is not valid, or has expired.');
    }
    const user = await this.authenticator.authenticate(tokenHash);
    if (!user) throw unauthenticated('Unknown or revoked token.');
    return user;
  }

  /** The caller of a valid site token (`SiteTokens`); null for any other token. */
  private siteReader(token: string, tokenHash: string): SiteReaderActor | null {
    const claims = this.siteTokens.verify(token);
    if (!claims) return null;
    return {
      kind: 'siteReader',
      organizationId: claims.organization,
      siteId: claims.site,
      siteSpaceId: claims.siteSpace,
      siteSectionId: claims.siteSection ?? null,
      spaceId: claims.space,
      spaceIds: new Set(claims.spaces),
      claims: claims.claims ?? { unsigned: {} },
      shareLinkId: claims.shareLink ?? null,
      authenticated: claims.authenticated === true,
      preview: claims.preview ? { draft: claims.preview.draft === true } : null,
      tokenHash,
    };
  }

  /** The caller of a valid integration's or installation's token; null for any other token. */
  private integrationCaller(token: string, tokenHash: string): IntegrationCallerActor | null {
    const claims = this.integrationTokens.verify(token);
    if (!claims) return null;
    if (claims.kind === 'integration')
      return { kind: 'integration', integrationId: claims.integration, tokenHash };
    return {
      kind: 'installation',
      integrationId: claims.integration,
      installationId: claims.installation,
      organizationId: claims.organization,
      scopes: claims.scopes,
      tokenHash,
    };
  }
}

/**
 * The route's resources as one caller resolves them, each once per request (a resolver asks
 * for its parents through `context.parent`, answered from the same memo).
 */
function memoizedResolver(
  request: AuthenticatedRequest,
  proceedsIfAbsent: boolean,
  resolveOne: (
    resource: ResourceType,
    id: string,
    context: AccessContext,
  ) => Promise<ResolvedAccess | null>,
): (resource: ResourceType, id: string) => Promise<ResolvedAccess | null> {
  const memo = (request.access ??= new Map());
  const context: AccessContext = {
    params: request.params as Record<string, string>,
    query: request.query as Record<string, unknown>,
    parent: (resource, id) => resolve(resource, id),
    proceedsIfAbsent,
  };
  const resolve = (resource: ResourceType, id: string): Promise<ResolvedAccess | null> => {
    const key = `${resource}:${id}`;
    if (!memo.has(key)) memo.set(key, resolveOne(resource, id, context));
    return memo.get(key)!;
  };
  return resolve;
}

/** Who an action is decided for, where a rule compares it with a user (never equal to one). */
function callerId(caller: IntegrationCallerActor): string {
  return caller.kind === 'integration'
    ? `integration:${caller.integrationId}`
    : `installation:${caller.installationId}`;
}

function capitalize(resource: string): string {
  const words = resource.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
