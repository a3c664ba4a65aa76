import type { Request } from 'express';
import type { AccessNeed, ResolvedAccess, ResourceType } from '../policy/access';

/**
 * The user behind a token, as the users module reads it (its `User` entity has this shape); the
 * platform names only what it needs, so it does not depend on the users module.
 */
export interface ActorUser {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
  disabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserActor {
  kind: 'user';
  userId: string;
  /** The user, read with the token in the same query. */
  user: ActorUser;
  /** The API token used (its record's id), for audit. */
  tokenId: string;
  /** SHA-256 of the token used, for per-token rate limits and audit. */
  tokenHash: string;
  /** What the token is limited to; null: all its user may do. */
  scope: TokenScope | null;
}

/**
 * The limits of a scoped API token: read-only or read-write, and optionally one organization,
 * within it a set of spaces or sites. A scoped token never does more than its user may.
 */
export interface TokenScope {
  access: 'read-only' | 'read-write';
  /** The one organization it reaches; null: any of its user's. */
  organization: string | null;
  /** Within `organization`, the spaces it reaches; null with `sites` null: all of them. */
  spaces: readonly string[] | null;
  /** Within `organization`, the sites it reaches. */
  sites: readonly string[] | null;
}

export interface AdminActor {
  kind: 'admin';
  tokenHash: string;
}

/**
 * A site reader: a short-lived token that may read one published site's content and nothing
 * else (the published side's renderer holds one). It reads the spaces of that site the
 * visitor it was made for may see (adaptive conditions applied at the lookup), through routes
 * that admit site readers.
 */
export interface SiteReaderActor {
  kind: 'siteReader';
  organizationId: string;
  siteId: string;
  siteSpaceId: string;
  siteSectionId: string | null;
  spaceId: string;
  /** The spaces of the site this reader may read. */
  spaceIds: ReadonlySet<string>;
  /** The visitor's claims (signed, with `unsigned`), which page conditions read. */
  claims: Record<string, unknown>;
  /** The share link that opened a `share-link` site, checked on every read. */
  shareLinkId: string | null;
  /** A `visitor-auth` site authenticated the visitor. */
  authenticated: boolean;
  /** A member's preview of the site (published or not); `draft`: drafts included. */
  preview: { draft: boolean } | null;
  tokenHash: string;
}

/**
 * A visitor of a published site: claims from a visitor token (`signed`) or sent unsigned, used
 * only to evaluate adaptive content; never an identity that opens anything else.
 */
export interface SiteVisitorActor {
  kind: 'siteVisitor';
  siteId: string;
  claims: Record<string, unknown>;
  signed: boolean;
}

/**
 * An integration itself (its token, which its script receives with each event): it reads and
 * administers its own installations, makes their tokens and queues its tasks.
 */
export interface IntegrationActor {
  kind: 'integration';
  integrationId: string;
  tokenHash: string;
}

/**
 * An installation of an integration on an organization (its token): it reads what it is
 * installed on, within the scopes the integration holds.
 */
export interface InstallationActor {
  kind: 'installation';
  integrationId: string;
  installationId: string;
  organizationId: string;
  scopes: readonly string[];
  tokenHash: string;
}

/** The callers an integration's script is: the integration, or one of its installations. */
export type IntegrationCallerActor = IntegrationActor | InstallationActor;

/**
 * The caller of a request, as the access guard resolves it: the instance administrator, a user
 * (a member of organizations, with a role or as a guest, which resource policies decide), a
 * site reader, a site visitor, or an integration's script (as the integration or as one of its
 * installations). Member routes admit users only; the administrator token opens the admin API;
 * routes say which other callers they admit.
 */
export type Actor =
  | UserActor
  | AdminActor
  | SiteReaderActor
  | SiteVisitorActor
  | IntegrationActor
  | InstallationActor;

/** What the guards leave on the request for handlers and presenters. */
export interface AuthenticatedRequest extends Request {
  actor?: Actor;
  /** Access decided for this request, by `resource:id`, so it is computed once. */
  access?: Map<string, Promise<ResolvedAccess | null>>;
  /** An action whose rule reads the body, left by the guard for DeferredAccessInterceptor. */
  deferredDecision?: {
    resource: ResourceType;
    need: AccessNeed;
    access: ResolvedAccess;
    request: { userId: string; params: Record<string, string> };
  };
}
