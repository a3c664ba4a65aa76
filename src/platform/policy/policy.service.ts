import { Injectable } from '@nestjs/common';
import type { IntegrationCallerActor, SiteReaderActor } from '../auth/actor';
import { DomainError, forbidden } from '../errors/domain-error';
import type { AccessNeed, ResolvedAccess, ResourceType } from './access';
import { atLeast, isRole } from './roles';

/** What a resolver may know of the request besides the resource's id. */
export interface AccessContext {
  /** The route's parameters: a resource below another checks its parent's id against them. */
  params: Record<string, string>;
  /** The query string, for a resource a key in it opens (a share link's `shareKey`). */
  query: Record<string, unknown>;
  /** The caller's access to another resource of the route (its parent), decided once a request. */
  parent(resource: ResourceType, id: string): Promise<ResolvedAccess | null>;
  /**
   * The route runs without the resource when it is absent (`ifAbsent: 'proceed'`): a missing
   * link between the resource and the parent the caller sees answers null too, not its 404.
   */
  proceedsIfAbsent: boolean;
}

/** Answers "what is this user's effective role on this resource?" for one resource type. */
export interface AccessResolver {
  /**
   * The caller's access, or null when the resource does not exist or the caller may not see it.
   * A resolver whose resource sits below another (a comment in a space) may throw the parent's
   * own not-found error when the parent is what is missing.
   */
  resolve(
    userId: string,
    resourceId: string,
    context?: AccessContext,
  ): Promise<ResolvedAccess | null>;
}

/**
 * A site reader's access to a resource of its site's published content, or null when the
 * resource is not part of what the reader may read (answered 404, as for anything unseen).
 */
export type SiteReaderResolver = (
  reader: SiteReaderActor,
  resourceId: string,
  context: AccessContext,
) => Promise<ResolvedAccess | null>;

/**
 * An integration's or installation's access to a resource, or null when it is not among what
 * the integration is installed on (answered 404). The role it holds there decides actions as a
 * member's would: none (null) for content, `admin` for the integration's own installations.
 */
export type IntegrationCallerResolver = (
  caller: IntegrationCallerActor,
  resourceId: string,
  context: AccessContext,
) => Promise<ResolvedAccess | null>;

/** The request an action is decided for. */
export interface ActionRequest {
  userId: string;
  params: Record<string, string>;
  /**
   * The request body as sent (not yet validated), for an action declared in `readsBody`:
   * which fields an update asks to change. Undefined for the others (bodies are read after
   * the guards).
   */
  body?: unknown;
}

/** An action's rule: null when the caller may do it, else the refusal (a 403 with its code). */
export type ActionRule<T = unknown> = (
  access: ResolvedAccess<T>,
  request: ActionRequest,
) => DomainError | null;

/** How a resource type is decided: its resolver, its name in messages, and its actions. */
export interface ResourcePolicy {
  resolver: AccessResolver;
  /**
   * What error messages call the resource, when the type's name would not (a type such as
   * `spaceIncludingDeleted` is still a "space").
   */
  noun?: string;
  /**
   * The actions of the resource's permissions function: `@Access(type, action)` names one.
   * Without actions, `@Access` names a minimum role on the resource.
   */
  actions?: Record<string, ActionRule>;
  /**
   * Actions whose rule depends on the body (an update whose need depends on what it asks):
   * decided once the body is read (DeferredAccessInterceptor), still before the handler.
   */
  readsBody?: string[];
  /**
   * How a site reader reads the resource (published content only); a type without one is
   * closed to site readers, and a route admitting them on it is refused at start.
   */
  siteReader?: SiteReaderResolver;
}

/**
 * The one place that decides access. Each domain module registers the policy of its resource
 * type at start (its resolver, and the rules of its actions); guards and presenters ask here
 * and nowhere else.
 */
@Injectable()
export class PolicyService {
  private readonly policies = new Map<ResourceType, ResourcePolicy & { noun: string }>();
  /** Site-reader resolvers given by a module above the one that registers the type. */
  private readonly siteReaders = new Map<ResourceType, SiteReaderResolver>();
  /** How integration scripts reach each type, given by the integrations module. */
  private readonly integrationCallers = new Map<ResourceType, IntegrationCallerResolver>();

  register(resource: ResourceType, resolver: AccessResolver, noun?: string): void;
  register(resource: ResourceType, policy: ResourcePolicy): void;
  register(resource: ResourceType, policy: AccessResolver | ResourcePolicy, noun?: string): void {
    if (this.policies.has(resource))
      throw new Error(`Access resolver for ${resource} registered twice`);
    const full = 'resolver' in policy ? policy : { resolver: policy, noun };
    const siteReader = full.siteReader ?? this.siteReaders.get(resource);
    this.policies.set(resource, {
      ...full,
      noun: full.noun ?? resource,
      ...(siteReader ? { siteReader } : {}),
    });
  }

  /**
   * Opens a resource type to site readers, from a module other than the one that registers
   * its policy (the sites module knows what a site publishes; the spaces module registers
   * spaces). Before or after the type's registration.
   */
  admitSiteReaders(resource: ResourceType, resolver: SiteReaderResolver): void {
    const registered = this.policies.get(resource);
    if (registered?.siteReader || this.siteReaders.has(resource))
      throw new Error(`Site readers of ${resource} admitted twice`);
    if (registered) registered.siteReader = resolver;
    else this.siteReaders.set(resource, resolver);
  }

  /** What error messages call a resource of this type ("space"). */
  noun(resource: ResourceType): string {
    return this.policies.get(resource)?.noun ?? resource;
  }

  resolve(
    userId: string,
    resource: ResourceType,
    resourceId: string,
    context?: AccessContext,
  ): Promise<ResolvedAccess | null> {
    return this.policy(resource).resolver.resolve(userId, resourceId, context);
  }

  /**
   * A user's access to one resource outside a request (a resource a token's scope names),
   * resolved as the guard would for a route with these `params`: null when it is absent or the
   * user does not see it, a missing parent included.
   */
  async resolveOutsideRequest(
    userId: string,
    resource: ResourceType,
    resourceId: string,
    params: Record<string, string>,
  ): Promise<ResolvedAccess | null> {
    const memo = new Map<string, Promise<ResolvedAccess | null>>();
    const context: AccessContext = {
      params,
      query: {},
      proceedsIfAbsent: false,
      parent: (type, id) => {
        const key = `${type}:${id}`;
        if (!memo.has(key)) memo.set(key, this.resolve(userId, type, id, context));
        return memo.get(key)!;
      },
    };
    try {
      return await this.resolve(userId, resource, resourceId, context);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  /** A site reader's access to a resource of a route that admits site readers. */
  resolveForSiteReader(
    reader: SiteReaderActor,
    resource: ResourceType,
    resourceId: string,
    context: AccessContext,
  ): Promise<ResolvedAccess | null> {
    const resolver = this.policy(resource).siteReader;
    if (!resolver) throw new Error(`The ${resource} policy does not admit site readers`);
    return resolver(reader, resourceId, context);
  }

  /**
   * Opens a resource type to integration scripts (their integration's and installations'
   * tokens), on the routes that admit them; from the integrations module, which knows what an
   * integration is installed on.
   */
  admitIntegrations(resource: ResourceType, resolver: IntegrationCallerResolver): void {
    if (this.integrationCallers.has(resource))
      throw new Error(`Integrations admitted to ${resource} twice`);
    this.integrationCallers.set(resource, resolver);
  }

  /** An integration caller's access to a resource of a route that admits it. */
  resolveForIntegration(
    caller: IntegrationCallerActor,
    resource: ResourceType,
    resourceId: string,
    context: AccessContext,
  ): Promise<ResolvedAccess | null> {
    const resolver = this.integrationCallers.get(resource);
    if (!resolver) throw new Error(`The ${resource} policy does not admit integrations`);
    return resolver(caller, resourceId, context);
  }

  /** Whether integration scripts may reach resources of this type. */
  admitsIntegrations(resource: ResourceType): boolean {
    return this.integrationCallers.has(resource);
  }

  /** Whether site readers may read resources of this type. */
  admitsSiteReaders(resource: ResourceType): boolean {
    return this.policies.get(resource)?.siteReader !== undefined;
  }

  /**
   * Whether the caller may do `need` with a resource it sees: an action of the type's policy,
   * or, for a type without actions, a minimum role (`view`: seeing it is enough). Null when it
   * may, else the 403 to answer.
   */
  decide(
    resource: ResourceType,
    need: AccessNeed,
    access: ResolvedAccess,
    request: ActionRequest,
  ): DomainError | null {
    const { actions, noun } = this.policy(resource);
    if (actions) {
      const rule = actions[need];
      if (!rule) throw new Error(`The ${resource} policy has no action ${need}`);
      return rule(access, request);
    }
    if (need === 'view') return null;
    if (!isRole(need)) throw new Error(`${need} is neither a role nor an action of ${resource}`);
    return atLeast(access.role, need)
      ? null
      : forbidden(`This needs the ${need} role on this ${noun}.`);
  }

  /** Whether the rule of `need` on `resource` reads the request body. */
  readsBody(resource: ResourceType, need: AccessNeed): boolean {
    return this.policy(resource).readsBody?.includes(need) ?? false;
  }

  /** Whether `need` is something `@Access(resource, need)` may name; for the check at start. */
  knows(resource: ResourceType, need: AccessNeed): boolean {
    const policy = this.policies.get(resource);
    if (!policy) return false;
    return policy.actions ? need in policy.actions : need === 'view' || isRole(need);
  }

  registered(): ResourceType[] {
    return [...this.policies.keys()];
  }

  private policy(resource: ResourceType) {
    const policy = this.policies.get(resource);
    if (!policy) throw new Error(`No access resolver registered for ${resource}`);
    return policy;
  }
}
