import type { SpacePermissions } from '../../src/spaces/space-permissions';
import type { Role } from '../../src/platform/policy/roles';

/**
 * The response bodies the e2e tests read, one type per object of the API. Each declares the
 * fields tests read (not every field the API sends); GitBook's schema for the whole body is
 * checked by `expectConforms`.
 */

/** A list: one page of `items`, `next` when there are more. */
export interface PageOf<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

// ---------------------------------------------------------------------------------------------
// Users and members

export interface UserBody {
  object: 'user';
  id: string;
  displayName: string;
  /** Shown only to the person, their organization's admins and the instance administrator. */
  email?: string;
}

export interface MemberBody {
  object: 'member';
  id: string;
  role: Role | null;
  user: UserBody;
  teams: number;
  sso: boolean;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
}

// ---------------------------------------------------------------------------------------------
// Content: spaces and collections

export type { SpacePermissions };

export interface SpaceBody {
  object: 'space';
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode?: string;
  mergeRules: { type: string; rules?: object[] };
  urls: { location: string; app: string; icon?: string };
  organization: string;
  parent?: string;
  language?: string;
  /** The primary revision. */
  revision: string;
  defaultLevel: string | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions: SpacePermissions;
}

export interface CollectionBody {
  object: 'collection';
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: string | null;
  urls: { location: string; app: string };
  permissions: { view: boolean; admin: boolean; viewInviteLinks: boolean; create: boolean };
}

// ---------------------------------------------------------------------------------------------
// Change requests and comments

export interface ChangeRequestBody {
  object: 'change-request';
  id: string;
  /** Its number in the space: 1, 2, … */
  number: number;
  status: string;
  subject: string;
  description?: object;
  createdBy?: { id: string };
  createdAt: string;
  updatedAt: string;
  space: string;
  /** The head revision. */
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  comments: number;
  outdated: boolean;
  urls: { app: string; location: string };
}

export interface ReactionBody {
  emoji: string;
  count: number;
  users: { user: UserBody; reactedAt: string }[];
}

export interface DocumentBody {
  object: 'document';
  data: object;
  nodes: DocumentNode[];
}

export interface DocumentNode {
  object: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  leaves?: { object: 'leaf'; text: string; marks: object[] }[];
}

export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply?: boolean;
  delete: boolean;
}

export interface CommentBody {
  object: 'comment';
  id: string;
  postedBy: UserBody;
  postedAt: string;
  editedAt?: string;
  reactions: ReactionBody[];
  replies: number;
  repliers: { user: UserBody; count: number; updatedAt: string }[];
  body: { markdown?: string; document?: DocumentBody };
  target: {
    space: string;
    revision: string;
    changeRequest?: string;
    page?: { id: string };
    node?: { id: string };
    tableCell?: { record: string; definition: string };
  };
  urls: { location: string };
  permissions: CommentPermissions;
  status: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: UserBody;
}

export interface ReplyBody {
  object: 'comment-reply';
  id: string;
  postedBy: UserBody;
  postedAt: string;
  editedAt?: string;
  reactions: ReactionBody[];
  body: { markdown?: string; document?: DocumentBody };
  urls: { location: string };
  permissions: CommentPermissions;
}

// ---------------------------------------------------------------------------------------------
// Sites

export interface SiteBody {
  object: 'site';
  id: string;
  type: string;
  title: string;
  icon?: object;
  hostname?: string;
  basename?: string;
  proxy?: { origin: string; target: string };
  visibility: string;
  published: boolean;
  /** How many site spaces the site has. */
  siteSpaces: number;
  createdAt: string;
  adaptiveContent?: { enabled: boolean };
  ads?: { status: string };
  agentsContext: string;
  features: { id: string; plan: string; frozen: boolean }[];
  urls: { location: string; app: string; published?: string };
}

export interface SiteSpaceBody {
  object: 'site-space';
  id: string;
  path: string;
  /** The section it is a variant of, on a site with sections. */
  section?: string;
  space: { id: string; title: string; permissions: { edit: boolean } };
  title: string;
  default: boolean;
  condition?: string;
  urls: { published?: string };
}

export interface SiteSectionBody {
  object: 'site-section';
  id: string;
  title: string;
  description?: string;
  default: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  /** Its variants. */
  siteSpaces: SiteSpaceBody[];
  urls: { published?: string };
  icon?: string;
}

export interface SiteSectionGroupBody {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: SiteSectionBody[];
  sectionGroup?: string;
  children: (SiteSectionBody | SiteSectionGroupBody)[];
  icon?: string;
}

/**
 * `GET …/sites/{siteId}/structure`: site spaces at the root of a site without sections
 * (`SiteStructureBody<SiteSpaceBody>`), else sections and section groups.
 */
export interface SiteStructureBody<T = SiteSectionBody | SiteSectionGroupBody | SiteSpaceBody> {
  type: 'sections' | 'siteSpaces';
  structure: T[];
}

export interface ShareLinkBody {
  object: 'share-link';
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  /** The published site with the link's `shareKey`. */
  urls: { published?: string };
}

// ---------------------------------------------------------------------------------------------
// OpenAPI specifications and translations

export interface OpenAPISpecBody {
  object: 'openapi-spec';
  id: string;
  createdAt: string;
  updatedAt: string;
  slug: string;
  sourceURL?: string;
  processingState: 'pending' | 'progress' | 'complete';
  visibility?: 'private' | 'public';
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors?: { message: string; code?: string }[];
  permissions: { view: boolean; edit: boolean };
  urls: { location: string; app: string; published?: string };
}

export interface TranslationBody {
  object: 'translation';
  id: string;
  status: string;
  source: { space: string; language: string };
  language: string;
  instructions: { object: 'document'; data: object; nodes: object[] };
  /** The translated space and its revision, once a run succeeded. */
  result?: { space: string; revision: string };
  lastRunError?: { message: string; failedAt: string };
  createdAt: string;
  updatedAt: string;
  stats: Record<string, number>;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
}
