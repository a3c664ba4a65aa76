import type { VisitorClaims } from '../conditions/evaluate';
import type { Role } from './roles';

/**
 * Resource types the policy knows. A module adds its own by augmentation, next to its
 * resolver:  declare module '../platform/policy/access' { interface ResourceTypes { space: true } }
 */
export interface ResourceTypes {
  organization: true;
}
export type ResourceType = keyof ResourceTypes;

/** `view`: the caller may see the resource at all (e.g. a guest member); otherwise a minimum role. */
export type AccessLevel = 'view' | Role;

/** What the caller may do on one resource: its effective role (null = sees it, holds no role). */
export interface ResolvedAccess<T = unknown> {
  resource: ResourceType;
  id: string;
  organizationId: string;
  role: Role | null;
  /**
   * The resource itself when the resolver had to load it to decide (it usually does), so the
   * handler does not read it again.
   */
  entity?: T;
  /**
   * The space the resource is or is in (a change request's, a comment's), and the site (a site
   * space's, a share link's): what a token limited to some spaces or sites is checked against.
   * A resource with neither is outside such a token's reach.
   */
  spaceId?: string;
  siteId?: string;
  /**
   * A site reader's visitor: what it reads is narrowed by the adaptive-content conditions its
   * claims do not meet (pages of a space).
   */
  visitor?: VisitorClaims;
}

/**
 * The actions of a resource type whose policy names them (its permissions function), by type; a
 * module adds its own next to its policy, as it adds the type:
 *   declare module '../platform/policy/access' { interface ResourceActions { comment: 'view' | 'delete' } }
 * `@Access` on such a type names one of them; on any other type, a role (`AccessLevel`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ResourceActions {}
export type ActionOf<R extends ResourceType> = R extends keyof ResourceActions
  ? ResourceActions[R]
  : never;

/** What a route needs on its resource: a role (`AccessLevel`) or an action of the resource's policy. */
export type AccessNeed = AccessLevel | string;

export interface ResourceRequirement {
  kind: 'resource';
  resource: ResourceType;
  /** The route parameter that names the resource. */
  param: string;
  need: AccessNeed;
  /**
   * `proceed`: when the resource is absent (or the caller may not see it) the handler still
   * runs, with no access (`@Granted()` is null): deletes that answer 204 either way.
   */
  ifAbsent?: 'proceed';
  /**
   * Site readers (a published site's token) may call the route too: a read of published
   * content, decided by the type's `siteReader` resolver. Its need is `view` or `read`.
   */
  siteReaders?: true;
  /**
   * Integration scripts may call the route too (GitBook's `integration` and
   * `integration-installation` security schemes), decided by the type's integration resolver:
   * see IntegrationAdmission.
   */
  integrations?: IntegrationAdmission;
  /** A POST that only reads (a search): read-only tokens may call it. */
  reads?: true;
  /**
   * What a write reaches besides its resource, which tokens limited to less may not:
   * `organization`, elsewhere in the resource's organization (a move into a collection, a
   * duplicate, a site space showing a space): refused to tokens limited to spaces or sites;
   * `otherOrganizations`, another organization (a transfer): refused to any token limited to
   * one organization.
   */
  reaches?: 'organization' | 'otherOrganizations';
}

/**
 * Which integration callers a route admits: `integration`, the integration's own token;
 * `installation`, an installation's token holding that scope of GitBook's (`any`: no scope
 * needed); `only`, no user may call it (GitBook makes it an integration's operation only).
 */
export interface IntegrationAdmission {
  integration?: true;
  installation?: string;
  only?: true;
}

export type AccessRequirement =
  | { kind: 'public' }
  /** Any signed-in user; with `admin`, the instance administrator too. */
  | {
      kind: 'user';
      admin?: boolean;
      /**
       * Tokens limited to one organization (or less) may call it: the route is about the
       * caller itself, or answers only what the token's organization holds.
       */
      limitedTokens?: true;
    }
  | { kind: 'admin' }
  | ResourceRequirement;

export function describeRequirement(requirement: AccessRequirement): string {
  switch (requirement.kind) {
    case 'public':
      return 'public';
    case 'user':
      return requirement.admin ? 'any user or instance administrator' : 'any user';
    case 'admin':
      return 'instance administrator';
    case 'resource':
      return `${requirement.resource}:${requirement.need}${
        requirement.ifAbsent ? ' (absent: proceeds)' : ''
      }${requirement.siteReaders ? ', or site reader' : ''}${describeIntegrations(requirement.integrations)}`;
  }
}

function describeIntegrations(admission: IntegrationAdmission | undefined): string {
  if (!admission) return '';
  const callers = [
    ...(admission.integration ? ['integration'] : []),
    ...(admission.installation
      ? [
          admission.installation === 'any'
            ? 'installation'
            : `installation with ${admission.installation}`,
        ]
      : []),
  ];
  return `${admission.only ? ', only ' : ', or '}${callers.join(' or ')}`;
}
