import { listRouteAccess } from '../src/platform/auth/route-access';
import { PolicyService } from '../src/platform/policy/policy.service';
import { atLeast, ROLES, type Role } from '../src/platform/policy/roles';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import {
  COMMENT_OPERATION_IDS,
  THREAD_KINDS,
  threadPaths,
  type ThreadKind,
} from './helpers/comments';
import {
  expectConforms,
  GITBOOK_0202,
  type GitbookSpec,
  listGitbookOperationIds,
} from './helpers/conformance';
import { type ContentType, invite, PERMISSION_OPERATION_IDS } from './helpers/content-grants';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCustomFont, fontFile, uploadFontFile } from './helpers/custom-fonts';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * The cross-module authorization matrix: every organization-scoped operation, and every
 * operation on a space or collection of the organization, called by a member of each role, a
 * guest and a non-member (the admin of another organization).
 *
 *   allowed             → 2xx
 *   member, not allowed → 403
 *   non-member          → 404, the same answer as for a resource that does not exist
 *   guest on content    → 404 too: the fixture space and collection are granted to no one, and
 *                         a guest sees only content granted to it (`hiddenFrom`)
 *
 * `allowed` follows the route's declared need (test/platform/route-access.e2e-spec.ts): a role,
 * or an action of the resource's policy, whose rules are these (team writes need an organization admin or a team owner; a
 * guest sees only the teams it is in and lists only its own teams; removing another member is
 * admin-only; creating, duplicating or moving content at the organization root needs the create
 * role in it; transfers need admin in both organizations; submitting a change request review
 * needs the review role or a request to review, and is never open to the change request's
 * creator; posting, replying to, resolving and reacting to comments need the comment role, only
 * a comment's author edits its body, and only its author or a space admin deletes it; a site's
 * published profile (`publishedSite:view`) shows members with a role any site of the
 * organization and anyone else only a published site open to them). None of the callers below
 * is in the fixture team, so none is a team owner. A member's role on the fixture content is
 * its organization role (the content inherits the organization's default role, read), so only
 * organization admins may call the routes that need admin on it, such as its permission routes.
 * Deleting a space or a collection answers 204 to whoever cannot see it, strangers included
 * (`unseen`).
 *
 * Paths the organization roles cannot show (content granted to a guest through a team, directly
 * or on a collection above, and a space's own default level) have their own blocks below.
 *
 * Left out, on purpose (the last test checks that nothing else is missing):
 *  - GET  /v1/orgs/:organizationId/link-invites/:inviteId, POST /v1/orgs/:organizationId/invites/:inviteId
 *    and POST /v1/orgs/:organizationId/join are `any user` routes: whoever holds the link (or
 *    has an allowed email domain) may call them without being a member, so there is no member
 *    role to check; their rules are covered in test/invites.e2e-spec.ts.
 *  - GET /v1/email-domains/:emailDomain/orgs is not organization-scoped (any user, who hears of
 *    the organizations of their own email domain only, and an empty list for another; the
 *    instance administrator); its rules are covered in test/invites.e2e-spec.ts.
 *  - POST /v1/orgs/:organizationId/sites/:siteId/insights/events is public (GitBook's renderer
 *    sends a site's events without a token): it answers for a published site only, whoever
 *    calls; covered in test/site-insights.e2e-spec.ts.
 *  - Publishing, unpublishing and development mode of an integration also take the instance
 *    administrator's token and depend on the integration's visibility; covered in
 *    test/integrations-publishing.e2e-spec.ts.
 *
 * One application and one organization for the whole file; cases run one after the other.
 * Writes are idempotent (same value again, empty update) or act on a resource made for that
 * case alone (`fresh`; a whole site, `freshSite`, for a site's writes), so no case changes what
 * a later one sees.
 */

type MemberCaller = Role | 'guest';
type Caller = MemberCaller | 'stranger';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const MEMBER_CALLERS: MemberCaller[] = [...ROLES, 'guest'];
const CALLERS: Caller[] = [...MEMBER_CALLERS, 'stranger'];

/**
 * A site as `buildSite` makes it: `section`, the default section, at the root, holds one site
 * space, `siteSpace` (of 'Guide'); `groupedSection` (of 'Reference') is the one section in
 * `sectionGroup`; `externalLink` names no link; `shareLink` is named 'Partners'.
 */
interface SiteFixture {
  site: string;
  siteSpace: string;
  section: string;
  groupedSection: string;
  sectionGroup: string;
  externalLink: string;
  shareLink: string;
}

interface Ctx {
  org: TestOrganization;
  /** The callers, by role ('guest': role null; 'stranger': admin of another organization). */
  callers: Record<Caller, TestUser>;
  /** A member (role `edit`) that member routes act on; in `team`. */
  target: { id: string; role: Role };
  /** A team made by the owner; only `target` is in it. */
  team: string;
  /** A SAML provider labelled 'IdP' (pending: only its sign-in URL is set). */
  saml: string;
  /** A link invite with role `read`. */
  invite: string;
  /** A space at the organization root titled 'Handbook', granted to no one. */
  space: string;
  /** The content of `space` (its first, only revision): that revision, and its one empty page. */
  content: { revision: string; page: string; path: string };
  /**
   * Change request 1 (subject 'Proposal') of a space at the root granted to no one: the owner
   * inserted a page and a file in it, the `review` caller approved it, and `target` is asked to
   * review it.
   */
  changeRequest: { space: string; page: string; file: string; review: string };
  /**
   * A comment of each thread (`space`'s own, and change request 1 of `changeRequest.space`)
   * and its first reply: the owner posted both and resolved the comment.
   */
  comments: Record<ThreadKind, { comment: string; reply: string }>;
  /** A collection at the organization root titled 'Guides', granted to no one; holds one space. */
  collection: string;
  /** A space and a collection at the root where `target` and `team` (no guest) hold edit. */
  granted: Record<ContentType, string>;
  /** Another organization whose admin is the `admin` caller: where transfers go. */
  elsewhere: string;
  /** Two spaces at the root, 'Guide' and 'Reference', that the sites made here publish. */
  siteContent: { guide: string; reference: string };
  /** An unpublished site titled 'Docs' (`buildSite`), with an adaptive schema. */
  site: SiteFixture;
  /** A private OpenAPI specification of `PETSTORE`, processed: its slug and its one version. */
  openAPISpec: { slug: string; version: string };
  /**
   * Three ingested conversations about one problem, analysed: the first conversation, one of
   * its issues and the cluster of the three issues.
   */
  conversations: { conversation: string; issue: string; cluster: string };
  /** A private integration the owner published for the organization: its name. */
  integration: string;
  /** The id made by the operation's `fresh`, for this case only. */
  fresh: string;
  /** The site made for this case when the operation asks for one (`freshSite`), else `NO_SITE`. */
  freshSite: SiteFixture;
  factories: TestApp['factories'];
}

interface Operation {
  /** GitBook's operationId. */
  name: string;
  method: Method;
  /** The route as declared (as in route-access.e2e-spec.ts). */
  route: string;
  path: (ctx: Ctx) => string;
  body?: (ctx: Ctx) => object;
  /** Makes, as the owner, the resource this case acts on (a delete's target); its id is `ctx.fresh`. */
  fresh?: (ctx: Ctx) => Promise<string>;
  /** Makes, as the owner, a site for this case alone, built as the shared one: `ctx.freshSite`. */
  freshSite?: true;
  allowed: (caller: MemberCaller) => boolean;
  /** Member callers that cannot see the resource: answered like a stranger. */
  hiddenFrom?: (caller: MemberCaller) => boolean;
  /** The answer to callers that cannot see the resource: 404 unless said otherwise. */
  unseen?: '2xx';
  /** The 404 message: what the route is about ('Organization not found.' by default). */
  notFound?: string;
  /** The success status GitBook's spec declares, where the seed's differs (checked as that). */
  specStatus?: number;
  /** The spec the answer is checked against, where it is not 0.146.0. */
  spec?: GitbookSpec;
  /**
   * The 404 message allowed callers get instead of a 2xx, for a route whose target cannot exist
   * yet. It differs from `notFound` (what a caller that cannot see the space gets), which is what
   * shows that the access check let the caller through.
   */
  absent?: string;
}

/** `organization:admin`, or a service rule only organization admins meet here. */
const adminOnly = (caller: MemberCaller) => caller === 'admin';
/** `organization:read`, or a service rule asking for the `read` role: every role, no guest. */
const anyRole = (caller: MemberCaller) => caller !== 'guest';
/** `organization:view` with nothing more: every member, guests included. */
const everyone = () => true;
/** `create` in the organization: creating (or duplicating) content at its root. */
const createAtRoot = (caller: MemberCaller) => caller === 'admin' || caller === 'create';
/** `organization:create`: `create` and up, no guest (changing a site, as creating content). */
const creators = (caller: MemberCaller) => caller !== 'guest' && atLeast(caller, 'create');
/** `edit` on content that inherits the organization role: `edit` and up, no guest. */
const editors = (caller: MemberCaller) => caller !== 'guest' && atLeast(caller, 'edit');
/** The review role on content that inherits the organization role: `review` and up, no guest. */
const reviewers = (caller: MemberCaller) => caller !== 'guest' && atLeast(caller, 'review');
/** The comment role on content that inherits the organization role: `comment` and up, no guest. */
const commenters = (caller: MemberCaller) => caller !== 'guest' && atLeast(caller, 'comment');
/** Content granted to no guest: a guest cannot see it. */
const guests = (caller: MemberCaller) => caller === 'guest';
const SPACE_NOT_FOUND = 'Space not found.';
const COLLECTION_NOT_FOUND = 'Collection not found.';
const SITE_NOT_FOUND = 'Site not found.';

let sequence = 0;
const next = () => ++sequence;

const ORG = '/v1/orgs/:organizationId';
const org = (ctx: Pick<Ctx, 'org'>) => `/v1/orgs/${ctx.org.id}`;

/** The owner (an admin, not one of the callers) makes the resources cases act on. */
const owner = (ctx: Pick<Ctx, 'org'>) => ctx.org.owner.client;

async function freshTeam(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .put(`${org(ctx)}/teams`, { title: `Doomed ${next()}` })
    .expect(201);
  return res.body.id as string;
}

async function freshSamlProvider(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .post(`${org(ctx)}/saml`, { label: `Doomed ${next()}`, ssoURL: IDP_SSO_URL })
    .expect(201);
  return res.body.id as string;
}

async function freshLinkInvite(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .post(`${org(ctx)}/link-invites`, { role: 'read' })
    .expect(201);
  return res.body.id as string;
}

async function freshEmailInvite(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .post(`${org(ctx)}/invites`, { emails: [`invitee-${next()}@example.com`] })
    .expect(200);
  return res.body.pendingInvites[0].id as string;
}

async function freshSpace(ctx: Ctx): Promise<string> {
  return (await ctx.factories.space(ctx.org, { title: `Space ${next()}` })).id;
}

async function freshTrashedSpace(ctx: Ctx): Promise<string> {
  const id = await freshSpace(ctx);
  await owner(ctx).delete(`/v1/spaces/${id}`).expect(204);
  return id;
}

/** A new space holding change request 1 (subject 'Proposal'); returns the space's id. */
async function freshChangeRequestSpace(ctx: Ctx): Promise<string> {
  const id = await freshSpace(ctx);
  await ctx.factories.changeRequest(ctx.org, id, { subject: 'Proposal' });
  return id;
}

/** The page a change request write inserts: what `updateChangeRequestContent` sends. */
const INSERT_PAGE = { operation: 'insert_page', title: 'Matrix', document: { markdown: 'Hi' } };

/** As freshChangeRequestSpace, with a page inserted in the change request: a merge to make. */
async function freshEditedChangeRequestSpace(ctx: Ctx): Promise<string> {
  const id = await freshChangeRequestSpace(ctx);
  await owner(ctx)
    .post(`/v1/spaces/${id}/change-requests/1/content`, { changes: [INSERT_PAGE] })
    .expect(200);
  return id;
}

/** As freshChangeRequestSpace, with `target` asked to review the change request. */
async function freshReviewRequestSpace(ctx: Ctx): Promise<string> {
  const id = await freshChangeRequestSpace(ctx);
  await owner(ctx)
    .post(`/v1/spaces/${id}/change-requests/1/requested-reviewers`, { users: [ctx.target.id] })
    .expect(200);
  return id;
}

async function freshCollection(ctx: Ctx): Promise<string> {
  return (await ctx.factories.collection(ctx.org, { title: `Collection ${next()}` })).id;
}

/** What `granted` holds: edit for `target` and for `team` (the permission routes' body). */
const grants = (ctx: Pick<Ctx, 'target' | 'team'>) => ({
  role: 'edit' as const,
  users: [ctx.target.id],
  teams: [ctx.team],
});

/** A space, a collection (at the root) or a site holding the grants of `granted`. */
async function freshGranted(
  ctx: Pick<Ctx, 'org' | 'target' | 'team' | 'factories'>,
  type: ContentType | 'site',
): Promise<string> {
  const fields = { title: `Granted ${next()}` };
  if (type === 'site') {
    const { id } = await ctx.factories.site(ctx.org, fields);
    await owner(ctx)
      .post(`${org(ctx)}/sites/${id}/permissions`, grants(ctx))
      .expect(204);
    return id;
  }
  const { id } =
    type === 'space'
      ? await ctx.factories.space(ctx.org, fields)
      : await ctx.factories.collection(ctx.org, fields);
  await invite(owner(ctx), type, id, grants(ctx));
  return id;
}

/** The organization's newest audit event (the fixture's writes recorded some). */
async function newestAuditEvent(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .get(`${org(ctx)}/audit-events?limit=1`)
    .expect(200);
  return res.body.items[0].id as string;
}

/** Where the webhooks made here point: a closed port on loopback, so their pings fail. */
const WEBHOOK_URL = 'http://127.0.0.1:9/hook';

async function freshWebhook(ctx: Ctx): Promise<string> {
  const res = await owner(ctx)
    .post(`${org(ctx)}/webhooks`, { url: WEBHOOK_URL, events: ['space_created'] })
    .expect(201);
  return res.body.id as string;
}

/** A new webhook and its ping's delivery (made in the background), as `<webhook>/<delivery>`. */
async function freshWebhookDelivery(ctx: Ctx): Promise<string> {
  const webhook = await freshWebhook(ctx);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await owner(ctx)
      .get(`${org(ctx)}/webhooks/${webhook}/deliveries`)
      .expect(200);
    const [delivery] = res.body.items as { id: string }[];
    if (delivery) return `${webhook}/${delivery.id}`;
    if (Date.now() > deadline) throw new Error('The ping of the webhook was never dispatched');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function freshMember(ctx: Ctx): Promise<string> {
  return (await ctx.factories.member(ctx.org, 'read')).id;
}

async function freshTeamMember(ctx: Ctx): Promise<string> {
  const userId = await freshMember(ctx);
  await owner(ctx)
    .put(`${org(ctx)}/teams/${ctx.team}/members/${userId}`, {})
    .expect(204);
  return userId;
}

/**
 * Every SAML provider made here has a sign-in URL: a provider without one answers
 * `ssoURL: ""`, which GitBook's schema (a URI) refuses; that known difference is covered in
 * test/saml.e2e-spec.ts (expectConformsPending) and has nothing to do with access.
 */
const IDP_SSO_URL = 'https://idp.example.com/sso/saml';

const TINY_DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be brief.', marks: [] }] }],
    },
  ],
};

/**
 * The permission routes of a space, a collection or a site (`route`): declared `space:admin`,
 * `collection:admin` or `site:admin` (the role on a site: the organization role raised by the
 * site's grants). Lists and the writes that set what the granted one already holds act on it
 * (`granted`, or the shared site); a removal acts on a fresh copy.
 */
function permissionOperations(type: ContentType | 'site', route: string): Operation[] {
  const ids = PERMISSION_OPERATION_IDS[type];
  const on = (ctx: Ctx, id: string) =>
    type === 'site' ? `${org(ctx)}/sites/${id}/permissions` : `/v1/${type}s/${id}/permissions`;
  const granted = (ctx: Ctx) => on(ctx, type === 'site' ? ctx.site.site : ctx.granted[type]);
  const access =
    type === 'site'
      ? // Guests see the organization's sites, holding no role on them; strangers not even it.
        { allowed: adminOnly }
      : {
          allowed: adminOnly,
          hiddenFrom: guests,
          notFound: type === 'space' ? SPACE_NOT_FOUND : COLLECTION_NOT_FOUND,
        };
  return [
    {
      name: ids.invite,
      method: 'POST',
      route,
      path: granted,
      body: grants, // the grants it holds
      ...access,
    },
    {
      name: ids.listAggregate,
      method: 'GET',
      route: `${route}/aggregate`,
      path: (ctx) => `${granted(ctx)}/aggregate`,
      // A site's aggregate names the site a grant comes from: an origin GitBook's 0.202.0 has.
      ...(type === 'site' ? { spec: GITBOOK_0202 } : {}),
      ...access,
    },
    {
      name: ids.listUsers,
      method: 'GET',
      route: `${route}/users`,
      path: (ctx) => `${granted(ctx)}/users`,
      ...access,
    },
    {
      name: ids.updateUser,
      method: 'PATCH',
      route: `${route}/users/:userId`,
      path: (ctx) => `${granted(ctx)}/users/${ctx.target.id}`,
      body: () => ({ role: 'edit' }), // its current role
      ...access,
    },
    {
      name: ids.removeUser,
      method: 'DELETE',
      route: `${route}/users/:userId`,
      path: (ctx) => `${on(ctx, ctx.fresh)}/users/${ctx.target.id}`,
      fresh: (ctx) => freshGranted(ctx, type),
      ...access,
    },
    {
      name: ids.listTeams,
      method: 'GET',
      route: `${route}/teams`,
      path: (ctx) => `${granted(ctx)}/teams`,
      ...access,
    },
    {
      name: ids.updateTeam,
      method: 'PATCH',
      route: `${route}/teams/:teamId`,
      path: (ctx) => `${granted(ctx)}/teams/${ctx.team}`,
      body: () => ({ role: 'edit' }), // its current role
      ...access,
    },
    {
      name: ids.removeTeam,
      method: 'DELETE',
      route: `${route}/teams/:teamId`,
      path: (ctx) => `${on(ctx, ctx.fresh)}/teams/${ctx.team}`,
      fresh: (ctx) => freshGranted(ctx, type),
      ...access,
    },
  ];
}

/**
 * The reads of a space's content, current (`content`) and by revision (`revisions/:revisionId`),
 * and its embeds, all declared space:view, on `space`'s one revision and its one page.
 */
function contentReadOperations(): Operation[] {
  const access = { allowed: everyone, hiddenFrom: guests, notFound: SPACE_NOT_FOUND };
  // The fixture space holds no file: a file id is not found for whoever may read the space
  // ("File not found."), and the space itself is not found for the others.
  const file = { ...access, absent: 'File not found.' };
  const content = (ctx: Ctx) => `/v1/spaces/${ctx.space}/content`;
  const revision = (ctx: Ctx) => `/v1/spaces/${ctx.space}/revisions/${ctx.content.revision}`;
  const reads: [
    name: string,
    route: string,
    path: (ctx: Ctx) => string,
    more?: Partial<Operation>,
  ][] = [
    ['getCurrentRevision', '/content', content],
    ['listPages', '/content/pages', (ctx) => `${content(ctx)}/pages`],
    ['getPageById', '/content/page/:pageId', (ctx) => `${content(ctx)}/page/${ctx.content.page}`],
    [
      'getPageByPath',
      '/content/path/*pagePath',
      (ctx) => `${content(ctx)}/path/${ctx.content.path}`,
    ],
    ['listFiles', '/content/files', (ctx) => `${content(ctx)}/files`],
    ['getFileById', '/content/files/:fileId', (ctx) => `${content(ctx)}/files/nope`, file],
    ['listSpaceLinks', '/links', (ctx) => `/v1/spaces/${ctx.space}/links`],
    ['getSpacePDF', '/pdf', (ctx) => `/v1/spaces/${ctx.space}/pdf`], // answers {url}; stores nothing
    [
      'listPageLinksInSpace',
      '/content/page/:pageId/links',
      (ctx) => `${content(ctx)}/page/${ctx.content.page}/links`,
    ],
    [
      'listSpacePageMetaLinks',
      '/content/page/:pageId/meta-links',
      (ctx) => `${content(ctx)}/page/${ctx.content.page}/meta-links`,
    ],
    [
      'listSpacePageBacklinks',
      '/content/page/:pageId/backlinks',
      (ctx) => `${content(ctx)}/page/${ctx.content.page}/backlinks`,
    ],
    [
      'listSpaceFileBacklinks',
      '/content/files/:fileId/backlinks',
      (ctx) => `${content(ctx)}/files/nope/backlinks`,
      file,
    ],
    ['getRevisionById', '/revisions/:revisionId', revision],
    [
      'getRevisionSemanticChanges',
      '/revisions/:revisionId/changes',
      (ctx) => `${revision(ctx)}/changes`,
    ],
    [
      'getRevisionPageDiff',
      '/revisions/:revisionId/changes/pages/:pageId',
      (ctx) => `${revision(ctx)}/changes/pages/${ctx.content.page}`,
    ],
    ['listPagesInRevisionById', '/revisions/:revisionId/pages', (ctx) => `${revision(ctx)}/pages`],
    [
      'getPageInRevisionById',
      '/revisions/:revisionId/page/:pageId',
      (ctx) => `${revision(ctx)}/page/${ctx.content.page}`,
    ],
    [
      'getPageInRevisionByPath',
      '/revisions/:revisionId/path/*pagePath',
      (ctx) => `${revision(ctx)}/path/${ctx.content.path}`,
    ],
    ['listFilesInRevisionById', '/revisions/:revisionId/files', (ctx) => `${revision(ctx)}/files`],
    [
      'getFileInRevisionById',
      '/revisions/:revisionId/files/:fileId',
      (ctx) => `${revision(ctx)}/files/nope`,
      file,
    ],
    [
      'getPageDocumentInRevisionById',
      '/revisions/:revisionId/page/:pageId/document',
      (ctx) => `${revision(ctx)}/page/${ctx.content.page}/document`,
    ],
    [
      'listRevisionPageMetaLinks',
      '/revisions/:revisionId/page/:pageId/meta-links',
      (ctx) => `${revision(ctx)}/page/${ctx.content.page}/meta-links`,
    ],
    [
      'getDocumentById',
      '/documents/:documentId',
      (ctx) => `/v1/spaces/${ctx.space}/documents/nope`,
      { ...access, absent: 'Document not found.' },
    ],
    [
      'getReusableContentById',
      '/content/reusable-contents/:reusableContentId',
      (ctx) => `${content(ctx)}/reusable-contents/nope`,
      { ...access, absent: 'Reusable content not found.' },
    ],
    [
      'getReusableContentInRevisionById',
      '/revisions/:revisionId/reusable-contents/:reusableContentId',
      (ctx) => `${revision(ctx)}/reusable-contents/nope`,
      { ...access, absent: 'Reusable content not found.' },
    ],
    [
      'getReusableContentDocumentInRevisionById',
      '/revisions/:revisionId/reusable-contents/:reusableContentId/document',
      (ctx) => `${revision(ctx)}/reusable-contents/nope/document`,
      { ...access, absent: 'Reusable content not found.' },
    ],
    // Nothing listens on port 9 of 127.0.0.1: whoever may read the space learns the page
    // could not be fetched, the others that there is no such space.
    [
      'getEmbedByUrlInSpace',
      '/embed',
      (ctx) => `/v1/spaces/${ctx.space}/embed?url=${encodeURIComponent('http://127.0.0.1:9/')}`,
      {
        ...access,
        absent:
          'No embed for this URL: Could not fetch from 127.0.0.1:9: the connection was refused.',
      },
    ],
  ];
  return reads.map(([name, route, path, more]): Operation => ({
    name,
    method: 'GET',
    route: `/v1/spaces/:spaceId${route}`,
    path,
    ...access,
    ...more,
  }));
}

const CHANGE_REQUEST = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

/**
 * The reads of a change request (`changeRequest`): its content, as the space's content reads
 * but on its head revision, its reviews, requested reviewers and contributors, and the URL of
 * its PDF; all declared space:view.
 */
function changeRequestReadOperations(): Operation[] {
  const access = { allowed: everyone, hiddenFrom: guests, notFound: SPACE_NOT_FOUND };
  const at = (ctx: Ctx) => `/v1/spaces/${ctx.changeRequest.space}/change-requests/1`;
  const reads: [
    name: string,
    route: string,
    path: (ctx: Ctx) => string,
    more?: Partial<Operation>,
  ][] = [
    ['getRevisionOfChangeRequestById', '/content', (ctx) => `${at(ctx)}/content`],
    [
      'getReusableContentInChangeRequestById',
      '/content/reusable-contents/:reusableContentId',
      (ctx) => `${at(ctx)}/content/reusable-contents/nope`,
      { absent: 'Reusable content not found.' },
    ],
    ['listPagesInChangeRequest', '/content/pages', (ctx) => `${at(ctx)}/content/pages`],
    // The page INSERT_PAGE wrote in the change request, by its slug.
    [
      'getPageInChangeRequestByPath',
      '/content/path/*pagePath',
      (ctx) => `${at(ctx)}/content/path/matrix`,
    ],
    [
      'getPageInChangeRequestById',
      '/content/page/:pageId',
      (ctx) => `${at(ctx)}/content/page/${ctx.changeRequest.page}`,
    ],
    [
      'listPageLinksInChangeRequest',
      '/content/page/:pageId/links',
      (ctx) => `${at(ctx)}/content/page/${ctx.changeRequest.page}/links`,
    ],
    [
      'listChangeRequestPageMetaLinks',
      '/content/page/:pageId/meta-links',
      (ctx) => `${at(ctx)}/content/page/${ctx.changeRequest.page}/meta-links`,
    ],
    [
      'listChangeRequestPageBacklinks',
      '/content/page/:pageId/backlinks',
      (ctx) => `${at(ctx)}/content/page/${ctx.changeRequest.page}/backlinks`,
    ],
    ['listFilesInChangeRequestById', '/content/files', (ctx) => `${at(ctx)}/content/files`],
    [
      'getFileInChangeRequestById',
      '/content/files/:fileId',
      (ctx) => `${at(ctx)}/content/files/${ctx.changeRequest.file}`,
    ],
    [
      'listChangeRequestFileBacklinks',
      '/content/files/:fileId/backlinks',
      (ctx) => `${at(ctx)}/content/files/${ctx.changeRequest.file}/backlinks`,
    ],
    ['getChangeRequestConflicts', '/conflicts', (ctx) => `${at(ctx)}/conflicts`],
    ['getReviewsByChangeRequestId', '/reviews', (ctx) => `${at(ctx)}/reviews`],
    [
      'getChangeRequestReviewById',
      '/reviews/:reviewId',
      (ctx) => `${at(ctx)}/reviews/${ctx.changeRequest.review}`,
    ],
    [
      'getRequestedReviewersByChangeRequestId',
      '/requested-reviewers',
      (ctx) => `${at(ctx)}/requested-reviewers`,
    ],
    ['getContributorsByChangeRequestId', '/contributors', (ctx) => `${at(ctx)}/contributors`],
    ['getChangeRequestPDF', '/pdf', (ctx) => `${at(ctx)}/pdf`], // answers {url}; stores nothing
    ['getChangeRequestChanges', '/changes', (ctx) => `${at(ctx)}/changes`],
    [
      'getChangeRequestPageDiff',
      '/changes/pages/:pageId',
      (ctx) => `${at(ctx)}/changes/pages/${ctx.changeRequest.page}`,
    ],
  ];
  return reads.map(([name, route, path, more]): Operation => ({
    name,
    method: 'GET',
    route: `${CHANGE_REQUEST}${route}`,
    path,
    ...access,
    ...more,
  }));
}

/** A thread's routes and paths: a space's own comments, or change request 1's. */
function thread(kind: ThreadKind, space: string) {
  return threadPaths(
    kind === 'space' ? `/v1/spaces/${space}` : `/v1/spaces/${space}/change-requests/1`,
  );
}

/** The fixture thread of `kind`: on `space`, or on change request 1 of `changeRequest.space`. */
const fixtureThread = (ctx: Ctx, kind: ThreadKind) =>
  thread(kind, kind === 'space' ? ctx.space : ctx.changeRequest.space);

/** A comment of the owner in the fixture thread of `kind`; returns its id. */
async function freshComment(ctx: Ctx, kind: ThreadKind): Promise<string> {
  const comment = await ctx.factories.comment(
    ctx.org,
    kind === 'space' ? ctx.space : ctx.changeRequest.space,
    {
      changeRequest: kind === 'space' ? undefined : '1',
      body: { markdown: `Comment ${next()}` },
    },
  );
  return comment.id;
}

/** A reply of the owner to the fixture comment of `kind`; returns its id. */
async function freshReply(ctx: Ctx, kind: ThreadKind): Promise<string> {
  const res = await owner(ctx)
    .post(fixtureThread(ctx, kind).replies(ctx.comments[kind].comment), {
      body: { markdown: `Reply ${next()}` },
    })
    .expect(201);
  return res.body.id as string;
}

/**
 * The comment routes of a thread (`kind`): declared space:view, posting a comment or a reply
 * space:comment. CommentsService adds: resolving and reacting need the comment role, only the
 * author edits a body, only the author or a space admin deletes. Reads and updates act on the
 * fixture comment (`comments`); posts and deletes on what each case makes for itself.
 */
function commentOperations(kind: ThreadKind): Operation[] {
  const ids = COMMENT_OPERATION_IDS[kind];
  const route = threadPaths(kind === 'space' ? '/v1/spaces/:spaceId' : CHANGE_REQUEST);
  const comment = route.comment(':commentId');
  const reply = route.reply(':commentId', ':commentReplyId');
  const at = (ctx: Ctx) => fixtureThread(ctx, kind);
  const fixture = (ctx: Ctx) => ctx.comments[kind];
  const access = { hiddenFrom: guests, notFound: SPACE_NOT_FOUND };
  const post = { body: () => ({ body: { markdown: 'Hi' } }), specStatus: 200 }; // the seed: 201
  return [
    {
      name: ids.list,
      method: 'GET',
      route: route.comments,
      path: (ctx) => at(ctx).comments,
      allowed: everyone,
      ...access,
    },
    {
      // Each case comments in a space of its own, so the fixture thread stays as it is.
      name: ids.post,
      method: 'POST',
      route: route.comments,
      path: (ctx) => thread(kind, ctx.fresh).comments,
      fresh: kind === 'space' ? freshSpace : freshChangeRequestSpace,
      allowed: commenters,
      ...post,
      ...access,
    },
    {
      name: ids.get,
      method: 'GET',
      route: comment,
      path: (ctx) => at(ctx).comment(fixture(ctx).comment),
      allowed: everyone,
      ...access,
    },
    {
      // Declared comment:update (CommentAccessPolicy): resolving needs the comment role. The
      // fixture comment is resolved already: resolving it again changes nothing.
      name: ids.update,
      method: 'PUT',
      route: comment,
      path: (ctx) => at(ctx).comment(fixture(ctx).comment),
      body: () => ({ resolved: true }),
      allowed: commenters,
      ...access,
    },
    {
      // Declared comment:delete (CommentAccessPolicy): its author (the owner, none of the
      // callers) or an admin of the space. Each case deletes a comment of its own.
      name: ids.delete,
      method: 'DELETE',
      route: comment,
      path: (ctx) => at(ctx).comment(ctx.fresh),
      fresh: (ctx) => freshComment(ctx, kind),
      allowed: adminOnly,
      ...access,
    },
    {
      name: ids.listReplies,
      method: 'GET',
      route: route.replies(':commentId'),
      path: (ctx) => at(ctx).replies(fixture(ctx).comment),
      allowed: everyone,
      ...access,
    },
    {
      // Each case replies to a comment of its own.
      name: ids.postReply,
      method: 'POST',
      route: route.replies(':commentId'),
      path: (ctx) => at(ctx).replies(ctx.fresh),
      fresh: (ctx) => freshComment(ctx, kind),
      allowed: commenters,
      ...post,
      ...access,
    },
    {
      name: ids.getReply,
      method: 'GET',
      route: reply,
      path: (ctx) => at(ctx).reply(fixture(ctx).comment, fixture(ctx).reply),
      allowed: everyone,
      ...access,
    },
    {
      // Declared commentReply:update: reacting (and, on a change request's
      // reply, resolving the comment) needs the comment role. Neither changes anything here: a
      // space's reply drops a reaction the caller does not have (its body takes no `resolved`),
      // a change request's reply resolves the fixture comment, resolved already.
      name: ids.updateReply,
      method: 'PUT',
      route: reply,
      path: (ctx) => at(ctx).reply(fixture(ctx).comment, fixture(ctx).reply),
      body: () => (kind === 'space' ? { removedReactions: ['👍'] } : { resolved: true }),
      allowed: commenters,
      ...access,
    },
    {
      // Declared commentReply:delete: its author (the owner) or an admin of
      // the space. Each case deletes a reply of its own to the fixture comment.
      name: ids.deleteReply,
      method: 'DELETE',
      route: reply,
      path: (ctx) => at(ctx).reply(fixture(ctx).comment, ctx.fresh),
      fresh: (ctx) => freshReply(ctx, kind),
      allowed: adminOnly,
      ...access,
    },
    {
      name: ids.listCommenters,
      method: 'GET',
      route: route.commenters,
      path: (ctx) => at(ctx).commenters,
      allowed: everyone,
      ...access,
    },
  ];
}

/** A redirect's destination: the site's one site space (GitBook 0.146.0 knows no external ones). */
const siteSpaceDestination = (site: SiteFixture) => ({
  kind: 'site-space',
  siteSpaceId: site.siteSpace,
});

/** A live redirect of the shared site, from a source of its own, to its site space. */
async function freshSiteRedirect(ctx: Ctx): Promise<{ id: string; source: string }> {
  const res = await owner(ctx)
    .post(`${org(ctx)}/sites/${ctx.site.site}/redirects`, {
      source: `/moved-${next()}`,
      destination: siteSpaceDestination(ctx.site),
    })
    .expect(201);
  return { id: res.body.id as string, source: res.body.source as string };
}

/** What `ctx.freshSite` holds for an operation that makes no site. */
const NO_SITE: SiteFixture = {
  site: '',
  siteSpace: '',
  section: '',
  groupedSection: '',
  sectionGroup: '',
  externalLink: '',
  shareLink: '',
};

/** An unpublished site of the owner's, with the structure and share link `SiteFixture` lists. */
/** A site with AI search on (`ai.mode` `search`), for the answers' routes; its id. */
async function aiSite(ctx: Ctx): Promise<string> {
  const site = await ctx.factories.site(ctx.org, { title: `Answers ${next()}` });
  await owner(ctx)
    .put(`${org(ctx)}/sites/${site.id}/customization`, { ai: { mode: 'search' } })
    .expect(200);
  return site.id;
}

/**
 * An AI site (`aiSite`) where the owner asked one question, recorded once answered: the site's,
 * the question's and the answer's ids, as `site|question|answer`.
 */
async function askedSite(ctx: Ctx): Promise<string> {
  const site = await aiSite(ctx);
  const base = `${org(ctx)}/sites/${site}`;
  await owner(ctx)
    .post(`${base}/ask`, { question: 'How do I start?', scope: { mode: 'all' } })
    .expect(200);
  const answers = await owner(ctx).get(`${base}/answers`).expect(200);
  const answer = answers.body.items[0] as { id: string; question: { id: string } };
  return `${site}|${answer.question.id}|${answer.id}`;
}

/** The path of the site, question or answer `askedSite` made, with `tail`. */
function asked(ctx: Ctx, of: 'site' | 'question' | 'answer', tail = ''): string {
  const [site, question, answer] = ctx.fresh.split('|');
  const base = `${org(ctx)}/sites/${site}`;
  if (of === 'site') return `${base}${tail}`;
  return of === 'question'
    ? `${base}/questions/${question}${tail}`
    : `${base}/answers/${answer}${tail}`;
}

async function buildSite(
  ctx: Pick<Ctx, 'org' | 'siteContent' | 'factories'>,
  title: string,
): Promise<SiteFixture> {
  const { factories } = ctx;
  const site = await factories.site(ctx.org, { title });
  // The site's first section becomes its default; the space comes in as its one site space.
  const section = await factories.siteSection(ctx.org, site.id, {
    spaceId: ctx.siteContent.guide,
  });
  const grouped = await factories.siteSection(ctx.org, site.id, {
    spaceId: ctx.siteContent.reference,
  });
  const group = await owner(ctx)
    .post(`${org(ctx)}/sites/${site.id}/section-groups`, {
      title: 'Group',
      sections: [grouped.id],
    })
    .expect(201);
  const shareLink = await factories.shareLink(ctx.org, site.id, { name: 'Partners' });
  return {
    site: site.id,
    siteSpace: section.siteSpaces[0].id,
    section: section.id,
    groupedSection: grouped.id,
    sectionGroup: group.body.id as string,
    // None: a link in the shared structure fails the older schema its reads are checked with.
    externalLink: 'nosuchlink',
    shareLink: shareLink.id,
  };
}

/** A visitor schema with one claim: what the adaptive schema routes store. */
const VISITOR_SCHEMA = {
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan of the visitor' },
  },
  additionalProperties: false,
};

const SITE = `${ORG}/sites/:siteId`;

/**
 * The routes of a site and its structure, share links, redirects, customization and adaptive
 * schema: declared organization:read (reads, every role) or organization:create (writes). Reads
 * act on the shared `site`; each write on a site made for its case (`freshSite`), or on a
 * redirect of the shared site made for its case (`fresh`).
 */
function siteOperations(): Operation[] {
  const shared = (ctx: Ctx) => `${org(ctx)}/sites/${ctx.site.site}`;
  const fresh = (ctx: Ctx) => `${org(ctx)}/sites/${ctx.freshSite.site}`;
  const write = { allowed: creators, freshSite: true } as const;
  return [
    {
      name: 'listSites',
      method: 'GET',
      route: `${ORG}/sites`,
      path: (ctx) => `${org(ctx)}/sites`,
      allowed: anyRole,
    },
    {
      name: 'createSite',
      method: 'POST',
      route: `${ORG}/sites`,
      path: (ctx) => `${org(ctx)}/sites`,
      body: (ctx) => ({ title: `Site ${next()}`, spaces: [ctx.siteContent.guide] }),
      allowed: creators,
    },
    {
      name: 'getSiteById',
      method: 'GET',
      route: SITE,
      path: shared,
      allowed: anyRole,
    },
    {
      name: 'updateSiteById',
      method: 'PATCH',
      route: SITE,
      path: fresh,
      body: () => ({ title: 'Renamed', visibility: 'unlisted' }),
      ...write,
    },
    {
      name: 'deleteSiteById',
      method: 'DELETE',
      route: SITE,
      path: fresh,
      ...write,
    },
    {
      name: 'publishSite',
      method: 'POST',
      route: `${SITE}/publish`,
      path: (ctx) => `${fresh(ctx)}/publish`,
      ...write,
    },
    {
      // The fresh site is not published: unpublishing it changes nothing.
      name: 'unpublishSite',
      method: 'POST',
      route: `${SITE}/unpublish`,
      path: (ctx) => `${fresh(ctx)}/unpublish`,
      ...write,
    },
    {
      // Declared publishedSite:view (PublishedSiteAccessPolicy): members with a role read any
      // site of the organization, anyone else only a published site open to them. The shared
      // site is not published, so a guest and a stranger get the answer for a site that does
      // not exist.
      name: 'getPublishedContentSite',
      method: 'GET',
      route: `${SITE}/published`,
      path: (ctx) => `${shared(ctx)}/published`,
      allowed: anyRole,
      hiddenFrom: guests,
      notFound: SITE_NOT_FOUND,
    },

    // Share links
    {
      // Declared organization:create, as the writes: the links carry their keys.
      name: 'listSiteShareLinks',
      method: 'GET',
      route: `${SITE}/share-links`,
      path: (ctx) => `${shared(ctx)}/share-links`,
      allowed: creators,
    },
    {
      name: 'createSiteShareLink',
      method: 'POST',
      route: `${SITE}/share-links`,
      path: (ctx) => `${fresh(ctx)}/share-links`,
      body: () => ({ name: 'Resellers' }),
      ...write,
    },
    {
      name: 'updateSiteShareLinkById',
      method: 'PATCH',
      route: `${SITE}/share-links/:shareLinkId`,
      path: (ctx) => `${fresh(ctx)}/share-links/${ctx.freshSite.shareLink}`,
      body: () => ({ active: false }),
      ...write,
    },
    {
      name: 'deleteSiteShareLinkById',
      method: 'DELETE',
      route: `${SITE}/share-links/:shareLinkId`,
      path: (ctx) => `${fresh(ctx)}/share-links/${ctx.freshSite.shareLink}`,
      ...write,
    },

    // Visitor authentication: organization:create even to read, as share links (the key opens
    // the site). The first read makes the shared site's key; later reads show the same.
    {
      name: 'getSitePublishingAuthById',
      method: 'GET',
      route: `${SITE}/publishing/auth`,
      path: (ctx) => `${shared(ctx)}/publishing/auth`,
      allowed: creators,
    },
    {
      // The renderer's URL comes from RENDERER_PUBLIC_URL, set for this matrix.
      name: 'getSitePublishingPreviewById',
      method: 'GET',
      route: `${SITE}/publishing/preview`,
      path: (ctx) => `${shared(ctx)}/publishing/preview`,
      allowed: anyRole,
    },
    {
      name: 'updateSitePublishingAuthById',
      method: 'PATCH',
      route: `${SITE}/publishing/auth`,
      path: (ctx) => `${fresh(ctx)}/publishing/auth`,
      body: () => ({ backend: 'custom', fallbackURL: 'https://login.example.com' }),
      ...write,
    },
    {
      name: 'regenerateSitePublishingAuthById',
      method: 'POST',
      route: `${SITE}/publishing/auth/regenerate`,
      path: (ctx) => `${fresh(ctx)}/publishing/auth/regenerate`,
      ...write,
    },

    // Insights: reading them is reading the site (tracking is public, in EXCLUDED)
    {
      name: 'aggregateSiteEvents',
      method: 'POST',
      route: `${SITE}/insights/events/aggregate`,
      path: (ctx) => `${shared(ctx)}/insights/events/aggregate`,
      body: () => ({ range: 'last7Days', groupBy: [{ column: 'page' }] }),
      allowed: anyRole,
    },

    // Redirects: read as the site is; a redirect's own routes act on one made for the case
    {
      name: 'listSiteRedirects',
      method: 'GET',
      route: `${SITE}/redirects`,
      path: (ctx) => `${shared(ctx)}/redirects`,
      allowed: anyRole,
    },
    {
      name: 'createSiteRedirect',
      method: 'POST',
      route: `${SITE}/redirects`,
      path: (ctx) => `${fresh(ctx)}/redirects`,
      body: (ctx) => ({ source: '/old', destination: siteSpaceDestination(ctx.freshSite) }),
      ...write,
    },
    {
      name: 'bulkUpsertSiteRedirects',
      method: 'PUT',
      route: `${SITE}/redirects`,
      path: (ctx) => `${fresh(ctx)}/redirects`,
      body: (ctx) => ({
        redirects: [{ source: '/old', destination: siteSpaceDestination(ctx.freshSite) }],
      }),
      ...write,
    },
    {
      name: 'updateSiteRedirectById',
      method: 'PATCH',
      route: `${SITE}/redirects/:siteRedirectId`,
      path: (ctx) => `${shared(ctx)}/redirects/${ctx.fresh}`,
      fresh: async (ctx) => (await freshSiteRedirect(ctx)).id,
      body: () => ({ permanent: true }),
      allowed: creators,
    },
    {
      name: 'deleteSiteRedirectById',
      method: 'DELETE',
      route: `${SITE}/redirects/:siteRedirectId`,
      path: (ctx) => `${shared(ctx)}/redirects/${ctx.fresh}`,
      fresh: async (ctx) => (await freshSiteRedirect(ctx)).id,
      allowed: creators,
    },
    {
      // `fresh` is the source of a redirect made for the case.
      name: 'getSiteRedirectBySource',
      method: 'GET',
      route: `${SITE}/redirect`,
      path: (ctx) => `${shared(ctx)}/redirect?source=${encodeURIComponent(ctx.fresh)}`,
      fresh: async (ctx) => (await freshSiteRedirect(ctx)).source,
      allowed: anyRole,
    },

    // Search: read as the site is
    {
      name: 'searchSiteContent',
      method: 'POST',
      route: `${SITE}/search`,
      path: (ctx) => `${shared(ctx)}/search`,
      body: () => ({ query: 'guide', mode: 'all' }),
      allowed: anyRole,
    },
    // Answers: read as the site is, on a site of their own with AI search on.
    {
      name: 'streamAskInSite',
      method: 'POST',
      route: `${SITE}/ask`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.fresh}/ask`,
      body: () => ({ question: 'How do I start?', scope: { mode: 'all' } }),
      fresh: aiSite,
      allowed: anyRole,
    },
    {
      name: 'streamAIResponseInSite',
      method: 'POST',
      route: `${SITE}/ai/response`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.fresh}/ai/response`,
      body: () => ({ input: [{ role: 'user', content: 'How do I start?' }] }),
      fresh: aiSite,
      allowed: anyRole,
    },
    {
      name: 'streamRecommendedQuestionsInSite',
      method: 'GET',
      route: `${SITE}/ask/questions`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.fresh}/ask/questions`,
      fresh: aiSite,
      allowed: anyRole,
    },
    // What was asked: read as the site is, on a site where one question was asked.
    {
      name: 'listSiteQuestions',
      method: 'GET',
      route: `${SITE}/questions`,
      path: (ctx) => asked(ctx, 'site', '/questions'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'getSiteQuestionById',
      method: 'GET',
      route: `${SITE}/questions/:siteQuestionId`,
      path: (ctx) => asked(ctx, 'question'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'listSiteQuestionSources',
      method: 'GET',
      route: `${SITE}/questions/:siteQuestionId/sources`,
      path: (ctx) => asked(ctx, 'question', '/sources'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'getSiteQuestionStats',
      method: 'GET',
      route: `${SITE}/question-stats`,
      path: (ctx) => `${shared(ctx)}/question-stats`,
      allowed: anyRole,
    },
    {
      name: 'listSiteQuestionAnswers',
      method: 'GET',
      route: `${SITE}/answers`,
      path: (ctx) => asked(ctx, 'site', '/answers'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'getSiteQuestionAnswerById',
      method: 'GET',
      route: `${SITE}/answers/:siteQuestionAnswerId`,
      path: (ctx) => asked(ctx, 'answer'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'getSiteQuestionAnswerThreadById',
      method: 'GET',
      route: `${SITE}/answers/:siteQuestionAnswerId/thread`,
      path: (ctx) => asked(ctx, 'answer', '/thread'),
      fresh: askedSite,
      allowed: anyRole,
    },
    {
      name: 'listSiteQuestionAnswerSources',
      method: 'GET',
      route: `${SITE}/answers/:siteQuestionAnswerId/sources`,
      path: (ctx) => asked(ctx, 'answer', '/sources'),
      fresh: askedSite,
      allowed: anyRole,
    },
    // Agents' feedback: given by whoever may ask the site.
    {
      name: 'submitAgentFeedbackToSite',
      method: 'POST',
      route: `${SITE}/agents/feedback`,
      path: (ctx) => `${shared(ctx)}/agents/feedback`,
      body: () => ({
        subject: { kind: 'generic' },
        feedback: { category: 'usability', summary: 'Hard to find.' },
      }),
      allowed: anyRole,
    },
    {
      name: 'submitSiteAgentFeedback',
      method: 'POST',
      route: `${SITE}/agent-feedback`,
      path: (ctx) => `${shared(ctx)}/agent-feedback`,
      body: (ctx) => ({
        feedback: 'Outdated.',
        url: 'https://docs.example.com/guide',
        spaceId: ctx.siteContent.guide,
        pageId: 'somePage',
      }),
      allowed: anyRole,
    },
    // Agent settings: read as the site is, changed as its settings are.
    {
      name: 'getSiteAgentSettingsById',
      method: 'GET',
      route: `${SITE}/agent-settings`,
      path: (ctx) => `${shared(ctx)}/agent-settings`,
      allowed: anyRole,
    },
    {
      name: 'updateSiteAgentSettingsById',
      method: 'PUT',
      route: `${SITE}/agent-settings`,
      path: (ctx) => `${fresh(ctx)}/agent-settings`,
      body: () => ({
        scans: { topics: 'never' },
        findings: { changeRequests: 'never' },
        editing: { customInstructions: { object: 'document', data: {}, nodes: [] } },
      }),
      ...write,
    },

    // Customization, of the site and of one site space
    {
      name: 'getSiteCustomizationById',
      method: 'GET',
      route: `${SITE}/customization`,
      path: (ctx) => `${shared(ctx)}/customization`,
      allowed: anyRole,
    },
    {
      name: 'updateSiteCustomizationById',
      method: 'PUT',
      route: `${SITE}/customization`,
      path: (ctx) => `${fresh(ctx)}/customization`,
      body: () => ({ styling: { theme: 'muted' } }),
      ...write,
    },
    {
      name: 'getSiteSpaceCustomizationById',
      method: 'GET',
      route: `${SITE}/site-spaces/:siteSpaceId/customization`,
      path: (ctx) => `${shared(ctx)}/site-spaces/${ctx.site.siteSpace}/customization`,
      allowed: anyRole,
    },
    {
      name: 'overrideSiteSpaceCustomizationById',
      method: 'PATCH',
      route: `${SITE}/site-spaces/:siteSpaceId/customization`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}/customization`,
      body: () => ({ styling: { theme: 'gradient' } }),
      ...write,
    },
    {
      // The fresh site space overrides nothing: there is nothing to reset, and 204 all the same.
      name: 'deleteSiteSpaceCustomizationById',
      method: 'DELETE',
      route: `${SITE}/site-spaces/:siteSpaceId/customization`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}/customization`,
      ...write,
    },

    // Adaptive content
    {
      name: 'getSiteAdaptiveSchema',
      method: 'GET',
      route: `${SITE}/adaptive-schema`,
      path: (ctx) => `${shared(ctx)}/adaptive-schema`,
      allowed: anyRole,
    },
    {
      name: 'updateSiteAdaptiveSchema',
      method: 'PUT',
      route: `${SITE}/adaptive-schema`,
      path: (ctx) => `${fresh(ctx)}/adaptive-schema`,
      body: () => ({ jsonSchema: VISITOR_SCHEMA }),
      ...write,
    },
    {
      name: 'listSiteAdaptiveTemplateConditions',
      method: 'GET',
      route: `${SITE}/adaptive-schema/template-conditions`,
      path: (ctx) => `${shared(ctx)}/adaptive-schema/template-conditions`,
      allowed: anyRole,
    },

    // Structure: site spaces, sections, section groups, the whole and its sort
    {
      name: 'listSiteSpaces',
      method: 'GET',
      route: `${SITE}/site-spaces`,
      path: (ctx) => `${shared(ctx)}/site-spaces`,
      allowed: anyRole,
    },
    {
      // Without a section, it joins the default section.
      name: 'addSpaceToSite',
      method: 'POST',
      route: `${SITE}/site-spaces`,
      path: (ctx) => `${fresh(ctx)}/site-spaces`,
      body: (ctx) => ({ spaceId: ctx.siteContent.reference }),
      ...write,
    },
    {
      name: 'updateSiteSpaceById',
      method: 'PATCH',
      route: `${SITE}/site-spaces/:siteSpaceId`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}`,
      body: () => ({ path: 'guides' }),
      ...write,
    },
    {
      name: 'deleteSiteSpaceById',
      method: 'DELETE',
      route: `${SITE}/site-spaces/:siteSpaceId`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}`,
      ...write,
    },
    {
      // No position: to the end of its section, where it is alone.
      name: 'moveSiteSpace',
      method: 'POST',
      route: `${SITE}/site-spaces/:siteSpaceId/move`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}/move`,
      body: () => ({}),
      ...write,
    },
    {
      // A copy of its space in a new section after its own (it is the section's only variant).
      name: 'duplicateSiteSpace',
      method: 'POST',
      route: `${SITE}/site-spaces/:siteSpaceId/duplicate`,
      path: (ctx) => `${fresh(ctx)}/site-spaces/${ctx.freshSite.siteSpace}/duplicate`,
      body: () => ({}),
      ...write,
    },
    {
      name: 'listSiteSections',
      method: 'GET',
      route: `${SITE}/sections`,
      path: (ctx) => `${shared(ctx)}/sections`,
      allowed: anyRole,
    },
    {
      name: 'addSectionToSite',
      method: 'POST',
      route: `${SITE}/sections`,
      path: (ctx) => `${fresh(ctx)}/sections`,
      body: (ctx) => ({ spaceId: ctx.siteContent.guide, title: 'Tutorials' }),
      ...write,
    },
    {
      name: 'updateSiteSectionById',
      method: 'PATCH',
      route: `${SITE}/sections/:siteSectionId`,
      path: (ctx) => `${fresh(ctx)}/sections/${ctx.freshSite.section}`,
      body: () => ({ title: 'Guides' }),
      ...write,
    },
    {
      name: 'deleteSiteSectionById',
      method: 'DELETE',
      route: `${SITE}/sections/:siteSectionId`,
      path: (ctx) => `${fresh(ctx)}/sections/${ctx.freshSite.groupedSection}`,
      ...write,
    },
    {
      // No position: to the end of the root, after the group.
      name: 'moveSiteSection',
      method: 'POST',
      route: `${SITE}/sections/:siteSectionId/move`,
      path: (ctx) => `${fresh(ctx)}/sections/${ctx.freshSite.section}/move`,
      body: () => ({}),
      ...write,
    },
    {
      name: 'listSiteSectionGroups',
      method: 'GET',
      route: `${SITE}/section-groups`,
      path: (ctx) => `${shared(ctx)}/section-groups`,
      allowed: anyRole,
    },
    {
      name: 'addSectionGroupToSite',
      method: 'POST',
      route: `${SITE}/section-groups`,
      path: (ctx) => `${fresh(ctx)}/section-groups`,
      body: () => ({ title: 'More' }),
      ...write,
    },
    {
      name: 'updateSiteSectionGroupById',
      method: 'PATCH',
      route: `${SITE}/section-groups/:siteSectionGroupId`,
      path: (ctx) => `${fresh(ctx)}/section-groups/${ctx.freshSite.sectionGroup}`,
      body: () => ({ title: 'Reference' }),
      ...write,
    },
    {
      name: 'deleteSiteSectionGroupById',
      method: 'DELETE',
      route: `${SITE}/section-groups/:siteSectionGroupId`,
      path: (ctx) => `${fresh(ctx)}/section-groups/${ctx.freshSite.sectionGroup}`,
      ...write,
    },
    {
      // Moves the default section, at the root, into the group.
      name: 'addSectionToGroup',
      method: 'POST',
      route: `${SITE}/section-groups/:siteSectionGroupId/sections`,
      path: (ctx) => `${fresh(ctx)}/section-groups/${ctx.freshSite.sectionGroup}/sections`,
      body: (ctx) => ({ sectionId: ctx.freshSite.section }),
      ...write,
    },
    {
      // Moves the group's one section out, after the group.
      name: 'removeSectionFromGroup',
      method: 'DELETE',
      route: `${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
      path: (ctx) =>
        `${fresh(ctx)}/section-groups/${ctx.freshSite.sectionGroup}/sections/${ctx.freshSite.groupedSection}`,
      ...write,
    },
    {
      name: 'addExternalLinkToSite',
      method: 'POST',
      route: `${SITE}/external-links`,
      path: (ctx) => `${fresh(ctx)}/external-links`,
      body: () => ({ title: 'Community', url: 'https://community.example.com' }),
      ...write,
    },
    {
      // A site of its own holding one link (`ctx.fresh`: the site and the link): the shared
      // sites hold none, as the older schema of the structure reads has no external links.
      name: 'updateSiteExternalLinkById',
      method: 'PATCH',
      route: `${SITE}/external-links/:siteExternalLinkId`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.fresh}`,
      body: () => ({ title: 'Forum' }),
      fresh: async (ctx) => {
        const { site } = await buildSite(ctx, `Site ${next()}`);
        const res = await owner(ctx)
          .post(`${org(ctx)}/sites/${site}/external-links`, {
            title: 'Community',
            url: 'https://community.example.com',
          })
          .expect(201);
        return `${site}/external-links/${res.body.id}`;
      },
      allowed: creators,
    },
    {
      // 204: there is no such link (buildSite).
      name: 'deleteSiteExternalLinkById',
      method: 'DELETE',
      route: `${SITE}/external-links/:siteExternalLinkId`,
      path: (ctx) => `${fresh(ctx)}/external-links/${ctx.freshSite.externalLink}`,
      ...write,
    },
    {
      name: 'moveSiteSectionGroup',
      method: 'POST',
      route: `${SITE}/section-groups/:siteSectionGroupId/move`,
      path: (ctx) => `${fresh(ctx)}/section-groups/${ctx.freshSite.sectionGroup}/move`,
      body: (ctx) => ({
        position: { before: { type: 'site-section', id: ctx.freshSite.section } },
      }),
      ...write,
    },
    {
      name: 'getSiteStructure',
      method: 'GET',
      route: `${SITE}/structure`,
      path: (ctx) => `${shared(ctx)}/structure`,
      allowed: anyRole,
    },
    {
      // Moves the default section to the end of the root, after the group.
      name: 'sortSiteStructure',
      method: 'PATCH',
      route: `${SITE}/structure/sort`,
      path: (ctx) => `${fresh(ctx)}/structure/sort`,
      body: (ctx) => ({ item: { type: 'site-section', id: ctx.freshSite.section }, position: {} }),
      ...write,
    },
  ];
}

/** A small valid OpenAPI 3.0 document: the source of every specification made here. */
const PETSTORE = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } },
    },
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A specification of the owner's from `PETSTORE`, left to process; returns its slug. */
async function freshOpenAPISpec(ctx: Pick<Ctx, 'org' | 'factories'>): Promise<string> {
  const spec = await ctx.factories.openAPISpec(ctx.org, { slug: `spec-${next()}`, text: PETSTORE });
  return spec.slug;
}

/**
 * Waits until the processing of the specification `slug` (a background job) is complete, and
 * answers its latest version: the versions routes find none before.
 */
async function processedOpenAPISpec(ctx: Pick<Ctx, 'org'>, slug: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await owner(ctx)
      .get(`${org(ctx)}/openapi/${slug}`)
      .expect(200);
    if (res.body.processingState === 'complete') {
      expect(res.body).toMatchObject({ lastVersion: expect.any(String) });
      return res.body.lastVersion as string;
    }
    if (Date.now() > deadline) throw new Error(`${slug} is still ${res.body.processingState}`);
    await sleep(100);
  }
}

const OPENAPI_SPEC = `${ORG}/openapi/:specSlug`;

/**
 * The routes of OpenAPI specifications and their versions: declared organization:read (reads,
 * every role) or organization:create (writes). Reads act on the shared, processed `openAPISpec`;
 * each write on a specification made for its case (`fresh`), or on a slug of its own.
 */
function openAPIOperations(): Operation[] {
  const shared = (ctx: Ctx) => `${org(ctx)}/openapi/${ctx.openAPISpec.slug}`;
  const fresh = (ctx: Ctx) => `${org(ctx)}/openapi/${ctx.fresh}`;
  const write = { allowed: creators, fresh: freshOpenAPISpec };
  return [
    {
      name: 'listOpenAPISpecs',
      method: 'GET',
      route: `${ORG}/openapi`,
      path: (ctx) => `${org(ctx)}/openapi`,
      allowed: anyRole,
    },
    {
      name: 'createOpenAPISpec',
      method: 'POST',
      route: `${ORG}/openapi`,
      path: (ctx) => `${org(ctx)}/openapi`,
      body: () => ({ slug: `spec-${next()}`, source: { text: PETSTORE } }),
      allowed: creators,
    },
    {
      name: 'getOpenAPISpecBySlug',
      method: 'GET',
      route: OPENAPI_SPEC,
      path: shared,
      allowed: anyRole,
    },
    {
      // A slug no specification has: it creates one (201).
      name: 'createOrUpdateOpenAPISpecBySlug',
      method: 'PUT',
      route: OPENAPI_SPEC,
      path: (ctx) => `${org(ctx)}/openapi/new-${next()}`,
      body: () => ({ source: { text: PETSTORE } }),
      allowed: creators,
    },
    {
      name: 'updateOpenAPISpecBySlug',
      method: 'PATCH',
      route: OPENAPI_SPEC,
      path: fresh,
      body: () => ({ visibility: 'public' }),
      ...write,
    },
    {
      name: 'deleteOpenAPISpecBySlug',
      method: 'DELETE',
      route: OPENAPI_SPEC,
      path: fresh,
      ...write,
    },
    {
      name: 'listOpenAPISpecVersions',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions`,
      path: (ctx) => `${shared(ctx)}/versions`,
      allowed: anyRole,
    },
    {
      name: 'getLatestOpenAPISpecVersion',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions/latest`,
      path: (ctx) => `${shared(ctx)}/versions/latest`,
      allowed: anyRole,
    },
    {
      name: 'getLatestOpenAPISpecVersionContent',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions/latest/content`,
      path: (ctx) => `${shared(ctx)}/versions/latest/content`,
      allowed: anyRole,
    },
    {
      name: 'getLatestOpenAPISpecVersionContentRaw',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions/latest/content/raw`,
      path: (ctx) => `${shared(ctx)}/versions/latest/content/raw`,
      allowed: anyRole,
    },
    {
      name: 'getOpenAPISpecVersionById',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions/:versionId`,
      path: (ctx) => `${shared(ctx)}/versions/${ctx.openAPISpec.version}`,
      allowed: anyRole,
    },
    {
      name: 'getOpenAPISpecVersionContentById',
      method: 'GET',
      route: `${OPENAPI_SPEC}/versions/:versionId/content`,
      path: (ctx) => `${shared(ctx)}/versions/${ctx.openAPISpec.version}/content`,
      allowed: anyRole,
    },
  ];
}

/** A translation of the fixture space (en → fr), made by the owner; returns its id. */
async function freshTranslation(ctx: Pick<Ctx, 'org' | 'space' | 'factories'>): Promise<string> {
  return (await ctx.factories.translation(ctx.org, { space: ctx.space })).id;
}

const TRANSLATION = `${ORG}/translations/:translationId`;

/**
 * The routes of translations: declared organization:read (reads, every role) or
 * organization:create (writes and runs). Each case acts on a translation made for it. The
 * application has a LibreTranslate provider configured (nothing answers at its address), so a
 * run is accepted (204) and fails later, in the background.
 */
function translationOperations(): Operation[] {
  const fresh = (ctx: Ctx) => `${org(ctx)}/translations/${ctx.fresh}`;
  return [
    {
      name: 'listTranslations',
      method: 'GET',
      route: `${ORG}/translations`,
      path: (ctx) => `${org(ctx)}/translations`,
      allowed: anyRole,
    },
    {
      name: 'createTranslation',
      method: 'POST',
      route: `${ORG}/translations`,
      path: (ctx) => `${org(ctx)}/translations`,
      body: (ctx) => ({ source: { space: ctx.space, language: 'en' }, language: 'de' }),
      allowed: creators,
    },
    {
      name: 'getTranslation',
      method: 'GET',
      route: TRANSLATION,
      path: fresh,
      fresh: freshTranslation,
      allowed: anyRole,
    },
    {
      name: 'updateTranslation',
      method: 'PUT',
      route: TRANSLATION,
      path: fresh,
      fresh: freshTranslation,
      body: () => ({ instructions: { object: 'document', data: {}, nodes: [] } }),
      allowed: creators,
    },
    {
      name: 'deleteTranslation',
      method: 'DELETE',
      route: TRANSLATION,
      path: fresh,
      fresh: freshTranslation,
      allowed: creators,
    },
    {
      name: 'runTranslation',
      method: 'POST',
      route: `${TRANSLATION}/run`,
      path: (ctx) => `${fresh(ctx)}/run`,
      fresh: freshTranslation,
      allowed: creators,
    },
  ];
}

/** A website that never answers: an import of it stays `in-progress` until cancelled. */
let silentSite: Promise<string> | undefined;
function silentSiteUrl(): Promise<string> {
  silentSite ??= new Promise<string>((resolve) => {
    const server: Server = createServer(() => undefined);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    });
  });
  return silentSite;
}

/** An import run of `space` by the owner, still running (its website never answers). */
async function freshImportRun(ctx: Pick<Ctx, 'org' | 'space'>): Promise<string> {
  const res = await owner(ctx)
    .post(`/v1/org/${ctx.org.id}/imports`, {
      source: { type: 'website', url: await silentSiteUrl() },
      target: { space: ctx.space },
    })
    .expect(201);
  return (res.body as { id: string }).id;
}

/**
 * Import runs (GitBook 0.202.0, under `/v1/org/`): read by every member with a role; started
 * and cancelled by members with the edit role on the target space (the fixture space inherits
 * the organization role), a guest stopped at the route. Each cancel acts on a run made for it,
 * still running.
 */
function importOperations(): Operation[] {
  const IMPORTS = '/v1/org/:organizationId/imports';
  const imports = (ctx: Ctx) => `/v1/org/${ctx.org.id}/imports`;
  return [
    {
      name: 'listImportRuns',
      method: 'GET',
      route: IMPORTS,
      path: imports,
      allowed: anyRole,
    },
    {
      name: 'startImportRun',
      method: 'POST',
      route: IMPORTS,
      path: imports,
      body: (ctx) => ({
        source: { type: 'website', url: 'http://127.0.0.1:9/' },
        target: { space: ctx.space },
      }),
      allowed: editors,
    },
    {
      name: 'getImportRun',
      method: 'GET',
      route: `${IMPORTS}/:importRunId`,
      path: (ctx) => `${imports(ctx)}/${ctx.fresh}`,
      fresh: freshImportRun,
      allowed: anyRole,
    },
    {
      name: 'cancelImportRun',
      method: 'POST',
      route: `${IMPORTS}/:importRunId/cancel`,
      path: (ctx) => `${imports(ctx)}/${ctx.fresh}/cancel`,
      fresh: freshImportRun,
      allowed: editors,
      // GitBook 0.146.0 declared 201; 0.202.0 (which Bindery follows) 200.
      specStatus: 201,
    },
  ];
}

/** A glossary entry of the organization, made by the owner for one case; returns its id. */
async function freshGlossaryEntry(ctx: Pick<Ctx, 'org'>): Promise<string> {
  const term = `term-${Math.random().toString(36).slice(2)}`;
  await owner(ctx)
    .put(`${org(ctx)}/translations-glossary`, {
      operations: [{ type: 'insert', translations: { en: term, fr: term } }],
    })
    .expect(204);
  const listed = await owner(ctx)
    .get(`${org(ctx)}/translations-glossary?limit=1000`)
    .expect(200);
  const entries = listed.body.items as { id: string; translations: Record<string, string> }[];
  return entries.find((entry) => entry.translations.en === term)!.id;
}

/**
 * The translation glossary (GitBook 0.202.0): read as translations are (organization:read),
 * written by the create role (organization:create).
 */
function glossaryOperations(): Operation[] {
  const GLOSSARY = `${ORG}/translations-glossary`;
  return [
    {
      name: 'listGlossaryEntries',
      method: 'GET',
      route: GLOSSARY,
      path: (ctx) => `${org(ctx)}/translations-glossary`,
      allowed: anyRole,
    },
    {
      name: 'updateGlossaryEntries',
      method: 'PUT',
      route: GLOSSARY,
      path: (ctx) => `${org(ctx)}/translations-glossary`,
      body: () => ({
        operations: [{ type: 'insert', translations: { en: 'workspace', de: 'Arbeitsbereich' } }],
      }),
      allowed: creators,
    },
    {
      name: 'getGlossaryEntry',
      method: 'GET',
      route: `${GLOSSARY}/:glossaryEntryId`,
      path: (ctx) => `${org(ctx)}/translations-glossary/${ctx.fresh}`,
      fresh: freshGlossaryEntry,
      allowed: anyRole,
    },
  ];
}

/** A font file uploaded by the owner for one case; returns its storage key. */
function freshFontUpload(ctx: Pick<Ctx, 'org'>): Promise<string> {
  return uploadFontFile(owner(ctx), owner(ctx), ctx.org.id, fontFile());
}

/** A custom font of the organization, made by the owner for one case; returns its id. */
async function freshCustomFont(ctx: Pick<Ctx, 'org'>): Promise<string> {
  return (await createCustomFont(owner(ctx), owner(ctx), ctx.org.id, `Font ${next()}`)).id;
}

/**
 * Custom fonts (GitBook 0.202.0): read by every member with a role (organization:read), made,
 * changed and deleted by admins, who alone get upload URLs (their files are fonts' only).
 * Creating takes a file uploaded for that case, as an upload is taken once.
 */
/**
 * A site's custom hostname, by the hostname alone: the instance administrator (not a caller
 * here) and the admins of the organization whose site it serves; other members 403, anyone else
 * 404, and removal 204 to those (nothing removed). Each case's hostname is its own site's.
 */
function customHostnameOperations(): Operation[] {
  const ROUTE = '/v1/custom-hostnames/:hostname';
  const path = (ctx: Ctx) => `/v1/custom-hostnames/${ctx.fresh}`;
  const notFound = 'Custom hostname not found.';
  return [
    { name: 'getCustomHostname', method: 'GET', route: ROUTE, path, notFound },
    { name: 'dnsRevalidateCustomHostname', method: 'PATCH', route: ROUTE, path, notFound },
    { name: 'removeCustomHostname', method: 'DELETE', route: ROUTE, path, unseen: '2xx' },
  ].map((operation) => ({
    ...(operation as Omit<Operation, 'allowed'>),
    fresh: freshHostname,
    allowed: adminOnly,
  }));
}

/** A new site of the organization on a hostname of its own (pending: no DNS answers for it). */
async function freshHostname(ctx: Ctx): Promise<string> {
  const site = await owner(ctx)
    .post(`${org(ctx)}/sites`, { title: 'Matrix' })
    .expect(201);
  const hostname = `matrix-${next()}-${ctx.org.id.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
  await owner(ctx)
    .patch(`${org(ctx)}/sites/${site.body.id}`, { hostname })
    .expect(200);
  return hostname;
}

function customFontOperations(): Operation[] {
  const FONTS = `${ORG}/fonts`;
  const fonts = (ctx: Ctx) => `${org(ctx)}/fonts`;
  return [
    {
      name: 'generateStorageUploadURL',
      method: 'POST',
      route: `${ORG}/storage/upload`,
      path: (ctx) => `${org(ctx)}/storage/upload`,
      body: () => ({
        file: { name: 'Brand.woff2', type: 'font/woff2', size: 1024 },
        kind: 'customization_font',
      }),
      allowed: adminOnly,
    },
    {
      name: 'listCustomFonts',
      method: 'GET',
      route: FONTS,
      path: fonts,
      allowed: anyRole,
    },
    {
      name: 'createCustomFont',
      method: 'PUT',
      route: FONTS,
      path: fonts,
      fresh: freshFontUpload,
      body: (ctx) => ({
        fontFamily: 'Matrix Sans',
        fontFaces: [{ weight: 400, storageKey: ctx.fresh }],
      }),
      allowed: adminOnly,
    },
    {
      name: 'getCustomFont',
      method: 'GET',
      route: `${FONTS}/:fontId`,
      path: (ctx) => `${fonts(ctx)}/${ctx.fresh}`,
      fresh: freshCustomFont,
      allowed: anyRole,
    },
    {
      name: 'updateCustomFont',
      method: 'POST',
      route: `${FONTS}/:fontId`,
      path: (ctx) => `${fonts(ctx)}/${ctx.fresh}`,
      fresh: freshCustomFont,
      body: () => ({ fontFamily: 'Matrix Serif' }),
      allowed: adminOnly,
    },
    {
      name: 'deleteCustomFont',
      method: 'DELETE',
      route: `${FONTS}/:fontId`,
      path: (ctx) => `${fonts(ctx)}/${ctx.fresh}`,
      fresh: freshCustomFont,
      allowed: adminOnly,
    },
  ];
}

/** Three support conversations about one problem, worded differently. */
const CONVERSATIONS = [
  'I requested a password reset but the reset email never arrives in my inbox.',
  'The password reset link in the email says it has expired as soon as I click it.',
  "I forgot my password and the reset password email isn't coming through.",
].map((body, index) => ({
  id: `conversation-${index + 1}`,
  parts: [{ type: 'message', role: 'user', body }],
}));

/**
 * Ingests `CONVERSATIONS` as the owner and waits for their analysis (a background job); answers
 * the first conversation, its issue and the issues' cluster.
 */
async function analysedConversations(ctx: Pick<Ctx, 'org'>): Promise<Ctx['conversations']> {
  await owner(ctx)
    .post(`${org(ctx)}/conversations`, CONVERSATIONS)
    .expect(204);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await owner(ctx)
      .get(`${org(ctx)}/conversations-issues`)
      .expect(200);
    const items = res.body.items as { issue: { id: string; cluster?: string } }[];
    const clustered = items.filter((item) => item.issue.cluster !== undefined);
    if (clustered.length === CONVERSATIONS.length) {
      const listed = await owner(ctx)
        .get(`${org(ctx)}/conversations`)
        .expect(200);
      return {
        conversation: listed.body.items[0].id as string,
        issue: clustered[0].issue.id,
        cluster: clustered[0].issue.cluster as string,
      };
    }
    if (Date.now() > deadline) throw new Error('The conversations are still being analysed');
    await sleep(100);
  }
}

/**
 * The routes of conversations, their issues and issue clusters: declared organization:read
 * (reads, every role), and organization:admin for ingesting (the role of the organization's
 * `ingestConversations` permission). Ingesting the fixture conversations again changes nothing.
 */
function conversationOperations(): Operation[] {
  return [
    {
      name: 'listConversations',
      method: 'GET',
      route: `${ORG}/conversations`,
      path: (ctx) => `${org(ctx)}/conversations`,
      allowed: anyRole,
    },
    {
      name: 'ingestConversation',
      method: 'POST',
      route: `${ORG}/conversations`,
      path: (ctx) => `${org(ctx)}/conversations`,
      body: () => CONVERSATIONS[0],
      allowed: adminOnly,
    },
    {
      name: 'getConversationById',
      method: 'GET',
      route: `${ORG}/conversations/:conversationId`,
      path: (ctx) => `${org(ctx)}/conversations/${ctx.conversations.conversation}`,
      allowed: anyRole,
    },
    {
      name: 'listConversationsIssues',
      method: 'GET',
      route: `${ORG}/conversations-issues`,
      path: (ctx) => `${org(ctx)}/conversations-issues`,
      allowed: anyRole,
    },
    {
      name: 'getConversationIssueById',
      method: 'GET',
      route: `${ORG}/conversations-issues/:issueId`,
      path: (ctx) => `${org(ctx)}/conversations-issues/${ctx.conversations.issue}`,
      allowed: anyRole,
    },
    {
      name: 'listConversationsIssuesClusters',
      method: 'GET',
      route: `${ORG}/conversations-clusters`,
      path: (ctx) => `${org(ctx)}/conversations-clusters`,
      allowed: anyRole,
    },
    {
      name: 'getConversationsIssuesCluster',
      method: 'GET',
      route: `${ORG}/conversations-clusters/:clusterId`,
      path: (ctx) => `${org(ctx)}/conversations-clusters/${ctx.conversations.cluster}`,
      allowed: anyRole,
    },
  ];
}

/** A Git remote nothing answers at: export and import jobs are accepted, then fail. */
const GIT_REMOTE = { url: 'http://127.0.0.1:9/docs.git', ref: 'main' };

/** A new space with a Git setup (an export was asked for); returns the space's id. */
async function freshGitSpace(ctx: Ctx): Promise<string> {
  const id = await freshSpace(ctx);
  await owner(ctx)
    .post(`/v1/spaces/${id}/git/export`, { ...GIT_REMOTE, commitMessage: 'Export' })
    .expect(204);
  return id;
}

/**
 * The Git routes of a space: import, export and the legacy installation take space:admin (only
 * organization admins have it on a new space), reading the Git setup space:read. Each case acts
 * on a space made for it.
 */
function gitOperations(): Operation[] {
  const git = (ctx: Ctx) => `/v1/spaces/${ctx.fresh}/git`;
  const space = { hiddenFrom: guests, notFound: SPACE_NOT_FOUND };
  return [
    {
      name: 'importGitRepository',
      method: 'POST',
      route: '/v1/spaces/:spaceId/git/import',
      path: (ctx) => `${git(ctx)}/import`,
      fresh: freshSpace,
      body: () => GIT_REMOTE,
      allowed: adminOnly,
      ...space,
    },
    {
      name: 'exportToGitRepository',
      method: 'POST',
      route: '/v1/spaces/:spaceId/git/export',
      path: (ctx) => `${git(ctx)}/export`,
      fresh: freshSpace,
      body: () => ({ ...GIT_REMOTE, commitMessage: 'Export' }),
      allowed: adminOnly,
      ...space,
    },
    {
      name: 'getSpaceGitInfo',
      method: 'GET',
      route: '/v1/spaces/:spaceId/git/info',
      path: (ctx) => `${git(ctx)}/info`,
      fresh: freshGitSpace,
      allowed: anyRole,
      ...space,
    },
    {
      name: 'deleteLegacyGitInstallation',
      method: 'DELETE',
      route: '/v1/spaces/:spaceId/git/legacy-installation',
      path: (ctx) => `${git(ctx)}/legacy-installation`,
      fresh: freshGitSpace,
      allowed: adminOnly,
      ...space,
    },
  ];
}

/** A private integration the owner publishes for this case alone: its name. */
async function freshIntegration(ctx: Ctx): Promise<string> {
  const name = `matrix-${next()}-${ctx.org.id}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  await owner(ctx)
    .post(`/v1/integrations/${name}`, {
      title: 'Matrix',
      description: '',
      scopes: ['site:script:inject'],
      organization: ctx.org.id,
      script: 'export default {};',
    })
    .expect(200);
  return name;
}

/** A fresh integration installed on the organization: `<name>/installations/<id>`. */
async function freshInstallation(ctx: Ctx): Promise<string> {
  const name = await freshIntegration(ctx);
  const res = await owner(ctx)
    .post(`/v1/integrations/${name}/installations`, { organization: ctx.org.id })
    .expect(201);
  return `${name}/installations/${res.body.id as string}`;
}

/** The name of a fresh integration installed on the organization. */
async function freshInstalledIntegration(ctx: Ctx): Promise<string> {
  return (await freshInstallation(ctx)).split('/')[0];
}

/**
 * A fresh installation on a new space the guest may read (so that the guest meets the 403 of
 * its missing organization role, not the 404 of a space it does not see):
 * `<name>/installations/<id>/spaces/<spaceId>`.
 */
async function freshSpaceInstallation(ctx: Ctx): Promise<string> {
  const installation = await freshInstallation(ctx);
  const space = (await ctx.factories.space(ctx.org, { title: `Installed ${next()}` })).id;
  await invite(owner(ctx), 'space', space, { role: 'read', users: [ctx.callers.guest.id] });
  await owner(ctx).post(`/v1/integrations/${installation}/spaces`, { space }).expect(201);
  return `${installation}/spaces/${space}`;
}

/** A fresh installation on the fixture site: `<name>/installations/<id>/sites/<siteId>`. */
async function freshSiteInstallation(ctx: Ctx): Promise<string> {
  const installation = await freshInstallation(ctx);
  await owner(ctx)
    .post(`/v1/integrations/${installation}/sites`, { siteId: ctx.site.site })
    .expect(201);
  return `${installation}/sites/${ctx.site.site}`;
}

const INTEGRATION = '/v1/integrations/:integrationName';
const INSTALLATION = `${INTEGRATION}/installations/:installationId`;
const INTEGRATION_NOT_FOUND = 'Integration not found.';

/**
 * Installations of integrations. Each write, and each read of an installation, acts on an
 * installation made for that case (of an integration of its own, private: another
 * organization's admin does not see it). Installing and changing installations is for
 * organization admins (`installIntegration`), reading them too (`listInstallations`); a space
 * installation for the space's admins, a site installation for the site's (the organization's).
 * Guests hold no role in the organization: 403. What is installed is listed to members with a
 * role; the integration's lists (answering only the organizations the caller administers) to
 * whoever sees the integration.
 */
function installationOperations(): Operation[] {
  const at = (ctx: Ctx) => `/v1/integrations/${ctx.fresh}`;
  const onInstallation = { fresh: freshInstallation, allowed: adminOnly };
  const onSpace = { fresh: freshSpaceInstallation, allowed: adminOnly };
  const onSite = { fresh: freshSiteInstallation, allowed: adminOnly };
  const notFound = INTEGRATION_NOT_FOUND;
  return [
    {
      name: 'installIntegration',
      method: 'POST',
      route: `${INTEGRATION}/installations`,
      path: (ctx) => `${at(ctx)}/installations`,
      fresh: freshIntegration,
      body: (ctx) => ({ organization: ctx.org.id }),
      allowed: adminOnly,
      notFound,
    },
    {
      name: 'listIntegrationInstallations',
      method: 'GET',
      route: `${INTEGRATION}/installations`,
      path: (ctx) => `/v1/integrations/${ctx.integration}/installations`,
      allowed: everyone,
      notFound,
    },
    {
      name: 'getIntegrationInstallationById',
      method: 'GET',
      route: INSTALLATION,
      path: at,
      ...onInstallation,
      notFound,
    },
    {
      name: 'updateIntegrationInstallation',
      method: 'PATCH',
      route: INSTALLATION,
      path: at,
      body: () => ({ externalIds: ['matrix'] }),
      ...onInstallation,
      notFound,
    },
    {
      name: 'uninstallIntegration',
      method: 'DELETE',
      route: INSTALLATION,
      path: at,
      ...onInstallation,
      notFound,
    },
    {
      name: 'listIntegrationInstallationSpaces',
      method: 'GET',
      route: `${INSTALLATION}/spaces`,
      path: (ctx) => `${at(ctx)}/spaces`,
      ...onInstallation,
      notFound,
    },
    {
      name: 'installIntegrationOnSpace',
      method: 'POST',
      route: `${INSTALLATION}/spaces`,
      path: (ctx) => `${at(ctx)}/spaces`,
      body: (ctx) => ({ space: ctx.space }),
      ...onInstallation,
      notFound,
    },
    {
      name: 'getIntegrationSpaceInstallation',
      method: 'GET',
      route: `${INSTALLATION}/spaces/:spaceId`,
      path: at,
      ...onSpace,
      notFound,
    },
    {
      name: 'updateIntegrationSpaceInstallation',
      method: 'PATCH',
      route: `${INSTALLATION}/spaces/:spaceId`,
      path: at,
      body: () => ({ externalIds: ['matrix'] }),
      ...onSpace,
      notFound,
    },
    {
      name: 'uninstallIntegrationFromSpace',
      method: 'DELETE',
      route: `${INSTALLATION}/spaces/:spaceId`,
      path: at,
      ...onSpace,
      notFound,
    },
    {
      name: 'listIntegrationInstallationSites',
      method: 'GET',
      route: `${INSTALLATION}/sites`,
      path: (ctx) => `${at(ctx)}/sites`,
      ...onInstallation,
      notFound,
    },
    {
      name: 'installIntegrationOnSite',
      method: 'POST',
      route: `${INSTALLATION}/sites`,
      path: (ctx) => `${at(ctx)}/sites`,
      body: (ctx) => ({ siteId: ctx.site.site }),
      ...onInstallation,
      notFound,
    },
    {
      name: 'getIntegrationSiteInstallation',
      method: 'GET',
      route: `${INSTALLATION}/sites/:siteId`,
      path: at,
      ...onSite,
      notFound,
    },
    {
      name: 'updateIntegrationSiteInstallation',
      method: 'PATCH',
      route: `${INSTALLATION}/sites/:siteId`,
      path: at,
      body: () => ({ externalIds: ['matrix'] }),
      ...onSite,
      notFound,
    },
    {
      name: 'uninstallIntegrationFromSite',
      method: 'DELETE',
      route: `${INSTALLATION}/sites/:siteId`,
      path: at,
      ...onSite,
      notFound,
    },
    {
      name: 'listIntegrationSpaceInstallations',
      method: 'GET',
      route: `${INTEGRATION}/spaces`,
      path: (ctx) => `/v1/integrations/${ctx.integration}/spaces`,
      allowed: everyone,
      notFound,
    },
    {
      name: 'listIntegrationSiteInstallations',
      method: 'GET',
      route: `${INTEGRATION}/sites`,
      path: (ctx) => `/v1/integrations/${ctx.integration}/sites`,
      allowed: everyone,
      notFound,
    },
    {
      name: 'listOrganizationIntegrations',
      method: 'GET',
      route: `${ORG}/integrations`,
      path: (ctx) => `${org(ctx)}/integrations`,
      allowed: anyRole,
    },
    {
      name: 'listOrganizationInstallations',
      method: 'GET',
      route: `${ORG}/installations`,
      path: (ctx) => `${org(ctx)}/installations`,
      allowed: adminOnly,
    },
    {
      name: 'listOrganizationIntegrationsStatus',
      method: 'GET',
      route: `${ORG}/integrations/installations-status`,
      path: (ctx) => `${org(ctx)}/integrations/installations-status`,
      allowed: anyRole,
    },
    {
      name: 'getOrganizationIntegrationStatus',
      method: 'GET',
      route: `${ORG}/integrations/:integrationName/installation_status`,
      path: (ctx) => `${org(ctx)}/integrations/${ctx.fresh}/installation_status`,
      fresh: freshInstalledIntegration,
      allowed: anyRole,
    },
    {
      name: 'listSiteIntegrations',
      method: 'GET',
      route: `${ORG}/sites/:siteId/integrations`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.site.site}/integrations`,
      allowed: anyRole,
    },
    {
      name: 'listSiteIntegrationScripts',
      method: 'GET',
      route: `${ORG}/sites/:siteId/integration-scripts`,
      path: (ctx) => `${org(ctx)}/sites/${ctx.site.site}/integration-scripts`,
      allowed: anyRole,
    },
    {
      name: 'listSpaceIntegrations',
      method: 'GET',
      route: '/v1/spaces/:spaceId/integrations',
      path: (ctx) => `/v1/spaces/${ctx.space}/integrations`,
      allowed: everyone,
      hiddenFrom: guests,
      notFound: SPACE_NOT_FOUND,
    },
    {
      name: 'listSpaceIntegrationsBlocks',
      method: 'GET',
      route: '/v1/spaces/:spaceId/integration-blocks',
      path: (ctx) => `/v1/spaces/${ctx.space}/integration-blocks`,
      allowed: everyone,
      hiddenFrom: guests,
      notFound: SPACE_NOT_FOUND,
    },
  ];
}

const OPERATIONS: Operation[] = [
  // A member, as users who share the organization see them (anyone else: 404)
  {
    name: 'getUserById',
    method: 'GET',
    route: '/v1/users/:userId',
    path: (ctx) => `/v1/users/${ctx.target.id}`,
    allowed: everyone,
    notFound: 'User not found.',
  },
  // Content computed by an integration's content source: a read of the space (its body names
  // no installed integration here, so whoever may read the space learns that).
  ...(['document', 'revision'] as const).map((kind): Operation => ({
    name: kind === 'document' ? 'getComputedDocument' : 'getComputedRevision',
    method: 'POST',
    route: `/v1/spaces/:spaceId/content/computed/${kind}`,
    path: (ctx) => `/v1/spaces/${ctx.space}/content/computed/${kind}`,
    body: () => ({ source: { type: 'integration:nowhere:source', props: {} }, seed: 's' }),
    allowed: everyone,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
    specStatus: 200,
    absent: 'Integration nowhere installed on the space not found.',
  })),
  // Only users themselves change their profile: every member sees the target (403), a
  // stranger does not (404).
  {
    name: 'updateUserById',
    method: 'PATCH',
    route: '/v1/users/:userId',
    path: (ctx) => `/v1/users/${ctx.target.id}`,
    body: () => ({ displayName: 'Renamed' }),
    allowed: () => false,
    notFound: 'User not found.',
  },

  // Organization
  {
    name: 'getOrganizationById',
    method: 'GET',
    route: ORG,
    path: org,
    allowed: everyone,
  },
  {
    name: 'updateOrganizationById',
    method: 'PATCH',
    route: ORG,
    path: org,
    body: () => ({}), // changes nothing
    allowed: adminOnly,
  },
  {
    // Declared organization:view; SearchService: a guest searches only the spaces granted to it.
    name: 'searchOrganizationContent',
    method: 'GET',
    route: `${ORG}/search`,
    path: (ctx) => `${org(ctx)}/search?query=docs`,
    allowed: everyone,
  },
  // Answers: declared organization:view, as the search; a guest's draw on its granted spaces.
  {
    name: 'askInOrganization',
    method: 'POST',
    route: `${ORG}/ask`,
    path: (ctx) => `${org(ctx)}/ask`,
    body: () => ({ query: 'How do I start?' }),
    allowed: everyone,
  },
  {
    name: 'streamAskInOrganization',
    method: 'GET',
    route: `${ORG}/ask/stream`,
    path: (ctx) => `${org(ctx)}/ask/stream?query=start`,
    allowed: everyone,
  },
  {
    name: 'getRecommendedQuestionsInOrganization',
    method: 'GET',
    route: `${ORG}/ask/questions`,
    path: (ctx) => `${org(ctx)}/ask/questions`,
    allowed: everyone,
  },
  {
    name: 'streamRecommendedQuestionsInOrganization',
    method: 'GET',
    route: `${ORG}/ask/questions/stream`,
    path: (ctx) => `${org(ctx)}/ask/questions/stream`,
    allowed: everyone,
  },
  {
    name: 'getOrganizationAIUsage',
    method: 'GET',
    route: `${ORG}/billing/ai-usage`,
    path: (ctx) =>
      `${org(ctx)}/billing/ai-usage?from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}`,
    allowed: adminOnly,
  },
  {
    name: 'getOrganizationAgentInstructions',
    method: 'GET',
    route: `${ORG}/agent-instructions`,
    path: (ctx) => `${org(ctx)}/agent-instructions`,
    allowed: anyRole,
  },
  {
    name: 'updateOrganizationAgentInstructions',
    method: 'PUT',
    route: `${ORG}/agent-instructions`,
    path: (ctx) => `${org(ctx)}/agent-instructions`,
    body: () => ({ instructions: TINY_DOCUMENT }),
    allowed: adminOnly,
  },
  {
    name: 'listOrganizationAuditEvents',
    method: 'GET',
    route: `${ORG}/audit-events`,
    path: (ctx) => `${org(ctx)}/audit-events?limit=5`,
    allowed: adminOnly,
  },
  {
    name: 'getOrganizationAuditEvent',
    method: 'GET',
    route: `${ORG}/audit-events/:auditEventId`,
    path: (ctx) => `${org(ctx)}/audit-events/${ctx.fresh}`,
    fresh: newestAuditEvent,
    allowed: adminOnly,
  },
  {
    name: 'listOrganizationAuditEventActions',
    method: 'GET',
    route: `${ORG}/audit-event-actions`,
    path: (ctx) => `${org(ctx)}/audit-event-actions`,
    allowed: adminOnly,
  },

  // Webhooks (Bindery's own): organization admins only.
  {
    name: 'createWebhook',
    method: 'POST',
    route: `${ORG}/webhooks`,
    path: (ctx) => `${org(ctx)}/webhooks`,
    body: () => ({ url: WEBHOOK_URL, events: ['space_created'], active: false }),
    allowed: adminOnly,
  },
  {
    name: 'getIntegrationByName',
    method: 'GET',
    route: '/v1/integrations/:integrationName',
    path: (ctx) => `/v1/integrations/${ctx.integration}`,
    // Private: the members of the organization that owns it, guests included.
    allowed: everyone,
    notFound: 'Integration not found.',
  },
  {
    name: 'listIntegrationEvents',
    method: 'GET',
    route: '/v1/integrations/:integrationName/events',
    path: (ctx) => `/v1/integrations/${ctx.integration}/events`,
    allowed: adminOnly,
    notFound: 'Integration not found.',
  },
  {
    name: 'getIntegrationEvent',
    method: 'GET',
    route: '/v1/integrations/:integrationName/events/:eventId',
    path: (ctx) => `/v1/integrations/${ctx.integration}/events/none`,
    allowed: adminOnly,
    notFound: 'Integration not found.',
    // No event is sent to it here: test/integrations-runtime.e2e-spec.ts reads one.
    absent: 'Event not found.',
  },
  {
    name: 'listWebhooks',
    method: 'GET',
    route: `${ORG}/webhooks`,
    path: (ctx) => `${org(ctx)}/webhooks`,
    allowed: adminOnly,
  },
  {
    name: 'getWebhook',
    method: 'GET',
    route: `${ORG}/webhooks/:webhookId`,
    path: (ctx) => `${org(ctx)}/webhooks/${ctx.fresh}`,
    fresh: freshWebhook,
    allowed: adminOnly,
  },
  {
    name: 'updateWebhook',
    method: 'PATCH',
    route: `${ORG}/webhooks/:webhookId`,
    path: (ctx) => `${org(ctx)}/webhooks/${ctx.fresh}`,
    body: () => ({ events: ['space_created', 'space_deleted'] }),
    fresh: freshWebhook,
    allowed: adminOnly,
  },
  {
    name: 'deleteWebhook',
    method: 'DELETE',
    route: `${ORG}/webhooks/:webhookId`,
    path: (ctx) => `${org(ctx)}/webhooks/${ctx.fresh}`,
    fresh: freshWebhook,
    allowed: adminOnly,
  },
  {
    name: 'rotateWebhookSecret',
    method: 'POST',
    route: `${ORG}/webhooks/:webhookId/rotate-secret`,
    path: (ctx) => `${org(ctx)}/webhooks/${ctx.fresh}/rotate-secret`,
    fresh: freshWebhook,
    allowed: adminOnly,
  },
  {
    name: 'listWebhookDeliveries',
    method: 'GET',
    route: `${ORG}/webhooks/:webhookId/deliveries`,
    path: (ctx) => `${org(ctx)}/webhooks/${ctx.fresh}/deliveries`,
    fresh: freshWebhook,
    allowed: adminOnly,
  },
  {
    name: 'getWebhookDelivery',
    method: 'GET',
    route: `${ORG}/webhooks/:webhookId/deliveries/:deliveryId`,
    path: (ctx) => {
      const [webhook, delivery] = ctx.fresh.split('/');
      return `${org(ctx)}/webhooks/${webhook}/deliveries/${delivery}`;
    },
    fresh: freshWebhookDelivery,
    allowed: adminOnly,
  },
  {
    name: 'redeliverWebhookDelivery',
    method: 'POST',
    route: `${ORG}/webhooks/:webhookId/deliveries/:deliveryId/redeliver`,
    path: (ctx) => {
      const [webhook, delivery] = ctx.fresh.split('/');
      return `${org(ctx)}/webhooks/${webhook}/deliveries/${delivery}/redeliver`;
    },
    fresh: freshWebhookDelivery,
    allowed: adminOnly,
  },

  // Collections
  {
    // Declared organization:view; a guest lists only the collections granted to it.
    name: 'listCollectionsInOrganizationById',
    method: 'GET',
    route: `${ORG}/collections`,
    path: (ctx) => `${org(ctx)}/collections`,
    allowed: everyone,
  },
  {
    // Declared organization:view; ContentPlacement (a second resource): at the root it needs
    // the create role in the organization (in a parent, create on that parent).
    name: 'createCollection',
    method: 'POST',
    route: `${ORG}/collections`,
    path: (ctx) => `${org(ctx)}/collections`,
    body: () => ({ title: `Collection ${next()}` }),
    allowed: createAtRoot,
  },
  {
    name: 'getCollectionById',
    method: 'GET',
    route: '/v1/collections/:collectionId',
    path: (ctx) => `/v1/collections/${ctx.collection}`,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: COLLECTION_NOT_FOUND,
  },
  {
    name: 'updateCollectionById',
    method: 'PATCH',
    route: '/v1/collections/:collectionId',
    path: (ctx) => `/v1/collections/${ctx.collection}`,
    body: () => ({ title: 'Guides' }), // its current title
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: COLLECTION_NOT_FOUND,
  },
  {
    // Declared collection:admin (absent: proceeds): admin on the collection, and 204 (nothing
    // done) to whoever cannot see it.
    name: 'deleteCollectionById',
    method: 'DELETE',
    route: '/v1/collections/:collectionId',
    path: (ctx) => `/v1/collections/${ctx.fresh}`,
    fresh: freshCollection,
    allowed: adminOnly,
    hiddenFrom: guests,
    unseen: '2xx',
  },
  {
    // Declared collection:admin; ContentPlacement: create on the target (the root here).
    name: 'moveCollection',
    method: 'POST',
    route: '/v1/collections/:collectionId/move',
    path: (ctx) => `/v1/collections/${ctx.fresh}/move`,
    fresh: freshCollection,
    body: (ctx) => ({ position: { before: { type: 'collection', collection: ctx.collection } } }),
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: COLLECTION_NOT_FOUND,
  },
  {
    // Declared collection:admin; ContentPlacement: admin in both organizations.
    name: 'transferCollection',
    method: 'POST',
    route: '/v1/collections/:collectionId/transfer',
    path: (ctx) => `/v1/collections/${ctx.fresh}/transfer`,
    fresh: freshCollection,
    body: (ctx) => ({ organization: ctx.elsewhere }),
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: COLLECTION_NOT_FOUND,
  },
  {
    name: 'listSpacesInCollectionById',
    method: 'GET',
    route: '/v1/collections/:collectionId/spaces',
    path: (ctx) => `/v1/collections/${ctx.collection}/spaces`,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: COLLECTION_NOT_FOUND,
  },
  ...permissionOperations('collection', '/v1/collections/:collectionId/permissions'),

  // Spaces
  {
    // Declared organization:view; a guest lists only the spaces granted to it.
    name: 'listSpacesInOrganizationById',
    method: 'GET',
    route: `${ORG}/spaces`,
    path: (ctx) => `${org(ctx)}/spaces`,
    allowed: everyone,
  },
  {
    // Declared organization:view; ContentPlacement: at the root it needs the create role
    // in the organization (in a collection, create on that collection).
    name: 'createSpace',
    method: 'POST',
    route: `${ORG}/spaces`,
    path: (ctx) => `${org(ctx)}/spaces`,
    body: () => ({ title: `Space ${next()}`, empty: true }),
    allowed: createAtRoot,
  },
  {
    name: 'getSpaceById',
    method: 'GET',
    route: '/v1/spaces/:spaceId',
    path: (ctx) => `/v1/spaces/${ctx.space}`,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    name: 'updateSpaceById',
    method: 'PATCH',
    route: '/v1/spaces/:spaceId',
    path: (ctx) => `/v1/spaces/${ctx.space}`,
    body: () => ({ title: 'Handbook' }), // its current title
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Declared space:admin (absent: proceeds): admin on the space, and 204 (nothing done) to
    // whoever cannot see it.
    name: 'deleteSpaceById',
    method: 'DELETE',
    route: '/v1/spaces/:spaceId',
    path: (ctx) => `/v1/spaces/${ctx.fresh}`,
    fresh: freshSpace,
    allowed: adminOnly,
    hiddenFrom: guests,
    unseen: '2xx',
  },
  {
    // Declared space:view; ContentPlacement: create where the copy goes (the root).
    name: 'duplicateSpace',
    method: 'POST',
    route: '/v1/spaces/:spaceId/duplicate',
    path: (ctx) => `/v1/spaces/${ctx.space}/duplicate`,
    allowed: createAtRoot,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
    specStatus: 201, // the seed answers 200
  },
  {
    // Declared spaceIncludingDeleted:admin; each case restores its own space from the trash.
    name: 'restoreSpace',
    method: 'POST',
    route: '/v1/spaces/:spaceId/restore',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/restore`,
    fresh: freshTrashedSpace,
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Declared space:admin; ContentPlacement: create on the target (the root here).
    name: 'moveSpace',
    method: 'POST',
    route: '/v1/spaces/:spaceId/move',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/move`,
    fresh: freshSpace,
    body: (ctx) => ({ position: { before: { type: 'space', space: ctx.space } } }),
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Declared space:admin; ContentPlacement: admin in both organizations.
    name: 'transferSpace',
    method: 'POST',
    route: '/v1/spaces/:spaceId/transfer',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/transfer`,
    fresh: freshSpace,
    body: (ctx) => ({ organization: ctx.elsewhere }),
    allowed: adminOnly,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  ...permissionOperations('space', '/v1/spaces/:spaceId/permissions'),

  // Space content: declared space:view (reads, search) or space:edit (templates)
  ...contentReadOperations(),
  {
    // Replaces the pages with one empty page: each case applies it to its own space.
    name: 'applyTemplateToSpace',
    method: 'POST',
    route: '/v1/spaces/:spaceId/content/template',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/content/template`,
    fresh: freshSpace,
    body: () => ({ id: 'blank' }),
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    name: 'searchSpaceContent',
    method: 'GET',
    route: '/v1/spaces/:spaceId/search',
    path: (ctx) => `/v1/spaces/${ctx.space}/search?query=docs`,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },

  // Change requests: declared space:view (reads) or space:edit (writes); listing the
  // organization's is organization:view, over the spaces the caller can see.
  {
    name: 'listChangeRequestsForOrganization',
    method: 'GET',
    route: `${ORG}/change-requests`,
    path: (ctx) => `${org(ctx)}/change-requests`,
    allowed: everyone,
  },
  {
    name: 'listChangeRequestsForSpace',
    method: 'GET',
    route: '/v1/spaces/:spaceId/change-requests',
    path: (ctx) => `/v1/spaces/${ctx.space}/change-requests`,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Each case creates in its own space, so the fixture space's counts stay as they are.
    name: 'createChangeRequest',
    method: 'POST',
    route: '/v1/spaces/:spaceId/change-requests',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests`,
    fresh: freshSpace,
    body: () => ({ subject: 'Proposal' }),
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Change request 1 of a space made for the case (looked up by its number).
    name: 'getChangeRequestById',
    method: 'GET',
    route: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1`,
    fresh: freshChangeRequestSpace,
    allowed: everyone,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    name: 'updateChangeRequestById',
    method: 'PATCH',
    route: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1`,
    fresh: freshChangeRequestSpace,
    body: () => ({ subject: 'Proposal' }), // its current subject
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  ...changeRequestReadOperations(),
  {
    // Each case adds its page to the change request of its own space.
    name: 'updateChangeRequestContent',
    method: 'POST',
    route: `${CHANGE_REQUEST}/content`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/content`,
    fresh: freshChangeRequestSpace,
    body: () => ({ changes: [INSERT_PAGE] }),
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Each case merges its own change request (open, one page inserted; no merge rules).
    name: 'mergeChangeRequest',
    method: 'POST',
    route: `${CHANGE_REQUEST}/merge`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/merge`,
    fresh: freshEditedChangeRequestSpace,
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Each case updates its own change request from the primary (nothing to bring in).
    name: 'updateChangeRequest',
    method: 'POST',
    route: `${CHANGE_REQUEST}/update`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/update`,
    fresh: freshChangeRequestSpace,
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Declared changeRequest:review (ChangeRequestAccessPolicy): the review role on the space or
    // a request to review (nobody is asked here), and never the change request's creator (the
    // owner, who is none of the callers). Each case reviews its own change request.
    name: 'submitChangeRequestReview',
    method: 'POST',
    route: `${CHANGE_REQUEST}/reviews`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/reviews`,
    fresh: freshChangeRequestSpace,
    body: () => ({ status: 'approved' }),
    allowed: reviewers,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // `target` (an edit member, who sees the space) is asked on each case's own change request.
    name: 'requestReviewersForChangeRequest',
    method: 'POST',
    route: `${CHANGE_REQUEST}/requested-reviewers`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/requested-reviewers`,
    fresh: freshChangeRequestSpace,
    body: (ctx) => ({ users: [ctx.target.id] }),
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },
  {
    // Each case withdraws the request to `target` on its own change request (205).
    name: 'removeRequestedReviewerFromChangeRequest',
    method: 'DELETE',
    route: `${CHANGE_REQUEST}/requested-reviewers/:userId`,
    path: (ctx) => `/v1/spaces/${ctx.fresh}/change-requests/1/requested-reviewers/${ctx.target.id}`,
    fresh: freshReviewRequestSpace,
    allowed: editors,
    hiddenFrom: guests,
    notFound: SPACE_NOT_FOUND,
  },

  // Comments, of a space and of a change request
  ...commentOperations('space'),
  ...commentOperations('change request'),

  // Invites
  {
    name: 'inviteUsersToOrganization',
    method: 'POST',
    route: `${ORG}/invites`,
    path: (ctx) => `${org(ctx)}/invites`,
    body: () => ({ emails: ['nobody@example.com'] }), // no such user: an invitation, renewed each time
    allowed: adminOnly,
  },
  {
    name: 'listOrganizationInviteLinks',
    method: 'GET',
    route: `${ORG}/link-invites`,
    path: (ctx) => `${org(ctx)}/link-invites`,
    allowed: adminOnly,
  },
  {
    name: 'createOrganizationInvite',
    method: 'POST',
    route: `${ORG}/link-invites`,
    path: (ctx) => `${org(ctx)}/link-invites`,
    body: () => ({ role: 'read' }),
    allowed: adminOnly,
  },
  {
    name: 'updateOrganizationInviteById',
    method: 'PATCH',
    route: `${ORG}/link-invites/:inviteId`,
    path: (ctx) => `${org(ctx)}/link-invites/${ctx.invite}`,
    body: () => ({ role: 'read' }), // its current role
    allowed: adminOnly,
  },
  {
    name: 'deleteOrganizationInviteById',
    method: 'DELETE',
    route: `${ORG}/link-invites/:inviteId`,
    path: (ctx) => `${org(ctx)}/link-invites/${ctx.fresh}`,
    fresh: freshLinkInvite,
    allowed: adminOnly,
  },
  {
    name: 'listOrganizationEmailInvites',
    method: 'GET',
    route: `${ORG}/email-invites`,
    path: (ctx) => `${org(ctx)}/email-invites`,
    allowed: adminOnly,
  },
  {
    name: 'revokeOrganizationEmailInvite',
    method: 'DELETE',
    route: `${ORG}/email-invites/:inviteId`,
    path: (ctx) => `${org(ctx)}/email-invites/${ctx.fresh}`,
    fresh: freshEmailInvite,
    allowed: adminOnly,
  },

  // Members
  {
    name: 'listMembersInOrganizationById',
    method: 'GET',
    route: `${ORG}/members`,
    path: (ctx) => `${org(ctx)}/members`,
    allowed: anyRole, // a guest cannot list members
  },
  {
    name: 'getMemberInOrganizationById',
    method: 'GET',
    route: `${ORG}/members/:userId`,
    path: (ctx) => `${org(ctx)}/members/${ctx.target.id}`,
    allowed: anyRole,
  },
  {
    name: 'updateMemberInOrganizationById',
    method: 'PATCH',
    route: `${ORG}/members/:userId`,
    path: (ctx) => `${org(ctx)}/members/${ctx.target.id}`,
    body: (ctx) => ({ role: ctx.target.role }), // its current role
    allowed: adminOnly,
  },
  {
    // Declared member:remove (MemberAccessPolicy): another member needs an admin (a
    // member removing itself is the separate test below). Each case removes its own member.
    name: 'removeMemberFromOrganizationById',
    method: 'DELETE',
    route: `${ORG}/members/:userId`,
    path: (ctx) => `${org(ctx)}/members/${ctx.fresh}`,
    fresh: freshMember,
    allowed: adminOnly,
  },
  {
    name: 'setUserAsSSOMemberForOrganization',
    method: 'POST',
    route: `${ORG}/members/:userId/sso`,
    path: (ctx) => `${org(ctx)}/members/${ctx.target.id}/sso`, // idempotent
    allowed: adminOnly,
  },
  {
    name: 'listSpacesForOrganizationMember',
    method: 'GET',
    route: `${ORG}/members/:userId/spaces`,
    path: (ctx) => `${org(ctx)}/members/${ctx.target.id}/spaces`,
    allowed: anyRole,
  },
  {
    // Declared member:listTeams (MemberAccessPolicy): guests list only their own teams.
    name: 'listTeamsForOrganizationMember',
    method: 'GET',
    route: `${ORG}/members/:userId/teams`,
    path: (ctx) => `${org(ctx)}/members/${ctx.target.id}/teams`,
    allowed: anyRole,
  },
  {
    name: 'updateOrganizationMemberLastSeenAt',
    method: 'POST',
    route: `${ORG}/ping`,
    path: (ctx) => `${org(ctx)}/ping`,
    allowed: everyone,
  },

  // SAML and SSO
  {
    name: 'listSAMLProvidersInOrganizationById',
    method: 'GET',
    route: `${ORG}/saml`,
    path: (ctx) => `${org(ctx)}/saml`,
    allowed: adminOnly,
  },
  {
    name: 'createOrganizationSAMLProvider',
    method: 'POST',
    route: `${ORG}/saml`,
    path: (ctx) => `${org(ctx)}/saml`,
    body: () => ({ label: `IdP ${next()}`, ssoURL: IDP_SSO_URL }),
    allowed: adminOnly,
  },
  {
    name: 'getOrganizationSAMLProviderById',
    method: 'GET',
    route: `${ORG}/saml/:samlProviderId`,
    path: (ctx) => `${org(ctx)}/saml/${ctx.saml}`,
    allowed: adminOnly,
  },
  {
    name: 'updateOrganizationSAMLProvider',
    method: 'PATCH',
    route: `${ORG}/saml/:samlProviderId`,
    path: (ctx) => `${org(ctx)}/saml/${ctx.saml}`,
    body: () => ({ label: 'IdP' }), // its current label
    allowed: adminOnly,
  },
  {
    name: 'deleteOrganizationSAMLProvider',
    method: 'DELETE',
    route: `${ORG}/saml/:samlProviderId`,
    path: (ctx) => `${org(ctx)}/saml/${ctx.fresh}`,
    fresh: freshSamlProvider,
    allowed: adminOnly,
  },
  {
    name: 'listSSOProviderLoginsInOrganization',
    method: 'GET',
    route: `${ORG}/sso`,
    path: (ctx) => `${org(ctx)}/sso`,
    allowed: everyone, // guests must see how to sign in
  },

  // Teams
  {
    name: 'listTeamsInOrganizationById',
    method: 'GET',
    route: `${ORG}/teams`,
    path: (ctx) => `${org(ctx)}/teams`,
    allowed: anyRole,
  },
  {
    name: 'createOrganizationTeam',
    method: 'PUT',
    route: `${ORG}/teams`,
    path: (ctx) => `${org(ctx)}/teams`,
    body: () => ({ title: `Team ${next()}` }),
    allowed: adminOnly,
  },
  {
    // Declared team:view (teamPermissions): `read` and up see every team, a guest only
    // the teams it is in (the guest here is in none).
    name: 'getTeamInOrganizationById',
    method: 'GET',
    route: `${ORG}/teams/:teamId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}`,
    allowed: anyRole,
  },
  {
    // Declared team:admin (teamPermissions): an organization admin or a team owner.
    name: 'updateTeamInOrganizationById',
    method: 'PATCH',
    route: `${ORG}/teams/:teamId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}`,
    body: () => ({ title: 'Writers' }), // its current title
    allowed: adminOnly,
  },
  {
    name: 'removeTeamFromOrganizationById',
    method: 'DELETE',
    route: `${ORG}/teams/:teamId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.fresh}`,
    fresh: freshTeam,
    allowed: adminOnly,
  },
  {
    // Declared team:view, as getTeamInOrganizationById.
    name: 'listTeamMembersInOrganizationById',
    method: 'GET',
    route: `${ORG}/teams/:teamId/members`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members`,
    allowed: anyRole,
  },
  {
    // Declared team:admin. Adding a member already in the team
    // keeps its role: nothing changes.
    name: 'updateMembersInOrganizationTeam',
    method: 'PUT',
    route: `${ORG}/teams/:teamId/members`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members`,
    body: (ctx) => ({ add: [ctx.target.id] }),
    allowed: adminOnly,
  },
  {
    // Declared team:admin. Idempotent as above.
    name: 'addMemberToOrganizationTeamById',
    method: 'PUT',
    route: `${ORG}/teams/:teamId/members/:userId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members/${ctx.target.id}`,
    body: () => ({}),
    allowed: adminOnly,
  },
  {
    // Declared team:admin. Each case removes its own team member.
    name: 'deleteMemberFromOrganizationTeamById',
    method: 'DELETE',
    route: `${ORG}/teams/:teamId/members/:userId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members/${ctx.fresh}`,
    fresh: freshTeamMember,
    allowed: adminOnly,
  },

  // Sites
  ...siteOperations(),
  ...permissionOperations('site', `${SITE}/permissions`),

  // OpenAPI specifications
  ...openAPIOperations(),

  // Translations
  ...translationOperations(),
  ...glossaryOperations(),

  // Custom fonts, and the upload of their files
  ...customFontOperations(),
  ...customHostnameOperations(),

  // Import runs
  ...importOperations(),

  // Conversations, issues and issue clusters
  ...conversationOperations(),

  // Git import and export of a space
  ...gitOperations(),

  // Installations of integrations
  ...installationOperations(),
];

/** Organization-scoped routes the matrix leaves out, and why (see the comment at the top). */
const EXCLUDED = [
  'GET /v1/orgs/:organizationId/link-invites/:inviteId', // any user holding the link
  'POST /v1/orgs/:organizationId/invites/:inviteId', // any user holding the link
  'POST /v1/orgs/:organizationId/join', // any user whose email domain is allowed
  'POST /v1/orgs/:organizationId/sites/:siteId/insights/events', // public: the renderer's events
  // Publishing takes the instance administrator's token too, and decides by the integration's
  // visibility: test/integrations-publishing.e2e-spec.ts.
  'POST /v1/integrations/:integrationName',
  'DELETE /v1/integrations/:integrationName',
  'PUT /v1/integrations/:integrationName/dev',
  'DELETE /v1/integrations/:integrationName/dev',
  // The public endpoints of an integration and its installations: no token, any caller (its
  // script checks what it gets); test/integrations-runtime.e2e-spec.ts.
  'ALL /v1/integrations/:integrationName/integration',
  'ALL /v1/integrations/:integrationName/installations/:installationId/integration',
  'ALL /v1/integrations/:integrationName/installations/:installationId/sites/:siteId/integration',
  'ALL /v1/integrations/:integrationName/installations/:installationId/spaces/:spaceId/integration',
  // A site's integration script: loaded by its visitors' browsers, without a token;
  // test/integrations-site-scripts.e2e-spec.ts.
  'GET /v1/integrations/:integrationName/installations/:installationId/sites/:siteId/script.js',
  // Only the integration's own token makes an installation's token or queues its tasks (users
  // get 403): test/integrations-tokens.e2e-spec.ts.
  'POST /v1/integrations/:integrationName/installations/:installationId/tokens',
  'POST /v1/integrations/:integrationName/tasks',
  // A render needs the integration installed on the space it draws in, and its script running:
  // test/integrations-runtime.e2e-spec.ts (who may, on which context).
  'GET /v1/integrations/:integrationName/render',
  'POST /v1/integrations/:integrationName/render',
];

/**
 * Routes on one organization or on one of its spaces or collections, or on one of its members
 * (a user, as those who share an organization with them see them).
 */
const SCOPED_PREFIXES = [
  '/v1/orgs/:organizationId',
  // GitBook's import runs sit under /org/ (singular).
  '/v1/org/:organizationId',
  // A custom hostname: its site's organization.
  '/v1/custom-hostnames/:hostname',
  '/v1/spaces/:spaceId',
  '/v1/collections/:collectionId',
  '/v1/users/:userId',
  // An integration of the organization (a private one: its members see it).
  '/v1/integrations/:integrationName',
];

interface Case {
  title: string;
  operation: Operation;
  caller: Caller;
  /** `absent`: 404 with the operation's `absent` message. */
  expected: '2xx' | 403 | 404 | 'absent';
}

function expectedAnswer(operation: Operation, caller: Caller): Case['expected'] {
  if (caller === 'stranger' || operation.hiddenFrom?.(caller)) return operation.unseen ?? 404;
  if (!operation.allowed(caller)) return 403;
  return operation.absent ? 'absent' : '2xx';
}

const CASES: Case[] = OPERATIONS.flatMap((operation) =>
  CALLERS.map((caller): Case => {
    const expected = expectedAnswer(operation, caller);
    const answer = expected === 'absent' ? `404 ${operation.absent}` : expected;
    return {
      title: `${operation.method} ${operation.route} (${operation.name}) as ${caller} → ${answer}`,
      operation,
      caller,
      expected,
    };
  }),
);

/**
 * The route template as a pattern matching its concrete paths (query string allowed): `:name`
 * is one segment, `*name` (a wildcard) one or more.
 */
function routePattern(route: string): RegExp {
  const escaped = route
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:\w+/g, '[^/?]+')
    .replace(/\\\*\w+/g, '[^?]+');
  return new RegExp(`^${escaped}(\\?.*)?$`);
}

function send(client: Client, method: Method, path: string, body?: object) {
  switch (method) {
    case 'GET':
      return client.get(path);
    case 'DELETE':
      return client.delete(path);
    case 'POST':
      return client.post(path, body);
    case 'PUT':
      return client.put(path, body);
    case 'PATCH':
      return client.patch(path, body);
  }
}

describe('authorization matrix (organization-scoped operations × callers)', () => {
  let t: TestApp;
  let ctx: Omit<Ctx, 'fresh' | 'freshSite'>;
  const gitbookOperations = new Set(listGitbookOperationIds());

  beforeAll(async () => {
    t = await createTestApp({
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: 'http://127.0.0.1:9',
      RENDERER_PUBLIC_URL: 'https://renderer.example.com',
    });
    const organization = await t.factories.organization();
    const members = {} as Record<MemberCaller, TestUser>;
    for (const caller of MEMBER_CALLERS) {
      members[caller] = await t.factories.member(organization, caller === 'guest' ? null : caller);
    }
    const stranger = (await t.factories.organization()).owner;
    const elsewhere = await t.factories.organization({ owner: members.admin });
    const target = await t.factories.member(organization, 'edit');

    const base = `/v1/orgs/${organization.id}`;
    const client = organization.owner.client;
    const team = await client.put(`${base}/teams`, { title: 'Writers' }).expect(201);
    await client.put(`${base}/teams/${team.body.id}/members/${target.id}`, {}).expect(204);
    const saml = await client
      .post(`${base}/saml`, { label: 'IdP', ssoURL: IDP_SSO_URL })
      .expect(201);
    const linkInvite = await client.post(`${base}/link-invites`, { role: 'read' }).expect(201);
    const space = await t.factories.space(organization, { title: 'Handbook' });
    const content = await client.get(`/v1/spaces/${space.id}/content`).expect(200);
    const [page] = content.body.pages as { id: string; path: string }[];
    const proposals = await t.factories.space(organization, { title: 'Proposals' });
    const changeRequest = `/v1/spaces/${proposals.id}/change-requests/1`;
    await t.factories.changeRequest(organization, proposals.id, { subject: 'Proposal' });
    const written = await client
      .post(`${changeRequest}/content?compat=false`, {
        changes: [
          INSERT_PAGE,
          {
            operation: 'insert_files',
            files: [
              {
                name: 'notes.txt',
                contentType: 'text/plain',
                base64: Buffer.from('Notes').toString('base64'),
              },
            ],
          },
        ],
      })
      .expect(200);
    const review = await members.review.client
      .post(`${changeRequest}/reviews`, { status: 'approved', comment: { markdown: 'Good.' } })
      .expect(201);
    await client.post(`${changeRequest}/requested-reviewers`, { users: [target.id] }).expect(200);
    const comments = {} as Ctx['comments'];
    for (const kind of THREAD_KINDS) {
      const spaceId = kind === 'space' ? space.id : proposals.id;
      const at = thread(kind, spaceId);
      const comment = await t.factories.comment(organization, spaceId, {
        changeRequest: kind === 'space' ? undefined : '1',
        body: { markdown: 'Hi' },
      });
      const reply = await client
        .post(at.replies(comment.id), { body: { markdown: 'Hello' } })
        .expect(201);
      await client.put(at.comment(comment.id), { resolved: true }).expect(200);
      comments[kind] = { comment: comment.id, reply: reply.body.id as string };
    }
    const collection = await t.factories.collection(organization, { title: 'Guides' });
    await t.factories.space(organization, { title: 'Guide', parent: collection.id });
    const siteContent = {
      guide: (await t.factories.space(organization, { title: 'Guide' })).id,
      reference: (await t.factories.space(organization, { title: 'Reference' })).id,
    };
    const fixture = { org: organization, factories: t.factories };
    const site = await buildSite({ ...fixture, siteContent }, 'Docs');
    await client
      .put(`${base}/sites/${site.site}/adaptive-schema`, { jsonSchema: VISITOR_SCHEMA })
      .expect(200);
    const openAPISpec = await freshOpenAPISpec(fixture);
    const conversations = await analysedConversations({ org: organization });
    const integration = `matrix-${organization.id}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
    await client
      .post(`/v1/integrations/${integration}`, {
        title: 'Matrix',
        description: '',
        scopes: [],
        organization: organization.id,
        script: 'export default {};',
      })
      .expect(200);

    const shared = {
      ...fixture,
      target: { id: target.id, role: 'edit' as const },
      team: team.body.id as string,
    };
    ctx = {
      ...shared,
      callers: { ...members, stranger },
      saml: saml.body.id as string,
      invite: linkInvite.body.id as string,
      space: space.id,
      content: { revision: content.body.id as string, page: page.id, path: page.path },
      changeRequest: {
        space: proposals.id,
        page: written.body.changes[0].page.id as string,
        file: written.body.insertedFiles[0].id as string,
        review: review.body.id as string,
      },
      comments,
      collection: collection.id,
      granted: {
        space: await freshGranted(shared, 'space'),
        collection: await freshGranted(shared, 'collection'),
      },
      elsewhere: elsewhere.id,
      siteContent,
      site,
      openAPISpec: {
        slug: openAPISpec,
        version: await processedOpenAPISpec({ org: organization }, openAPISpec),
      },
      conversations,
      integration,
    };
  });
  afterAll(() => t.close());

  it.each(CASES)('$title', async ({ operation, caller, expected }) => {
    const fresh = operation.fresh
      ? await operation.fresh({ ...ctx, fresh: '', freshSite: NO_SITE })
      : '';
    const freshSite = operation.freshSite ? await buildSite(ctx, `Site ${next()}`) : NO_SITE;
    const caseCtx: Ctx = { ...ctx, fresh, freshSite };
    const path = operation.path(caseCtx);
    expect(path).toMatch(routePattern(operation.route));

    const res = await send(
      ctx.callers[caller].client,
      operation.method,
      path,
      operation.body?.(caseCtx),
    );

    if (expected === '2xx') {
      // The body in the failure message says why it was refused.
      const outcome = res.status >= 200 && res.status < 300 ? '2xx' : `${res.status}`;
      expect({ outcome, body: outcome === '2xx' ? undefined : res.body }).toEqual({
        outcome: '2xx',
        body: undefined,
      });
      if (gitbookOperations.has(operation.name)) {
        expectConforms(
          { status: operation.specStatus ?? res.status, body: res.body },
          operation.name,
          operation.spec,
        );
      }
    } else if (expected === 'absent') {
      // GitBook's spec declares no 404 for these operations: the body is checked as ours.
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: 404, message: operation.absent } },
      });
    } else if (expected === 403) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { error: { code: 403, message: expect.any(String) } },
      });
    } else {
      // Exactly what a resource that does not exist answers: nothing is revealed.
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: {
          error: { code: 404, message: operation.notFound ?? 'Organization not found.' },
        },
      });
    }
  });

  it('lets a read member remove itself from the organization (leave) → 204', async () => {
    const leaver = await t.factories.member(ctx.org, 'read');
    const path = `/v1/orgs/${ctx.org.id}/members/${leaver.id}`;
    const res = await leaver.client.delete(path).expect(204);
    expectConforms(res, 'removeMemberFromOrganizationById');
    await ctx.org.owner.client.get(path).expect(404);
    await leaver.client.get(`/v1/orgs/${ctx.org.id}`).expect(404);
  });

  describe('content access beyond the organization role', () => {
    /** Sends each request in turn; the statuses by label, so every mismatch shows at once. */
    async function statuses(
      requests: [label: string, send: () => PromiseLike<{ status: number }>][],
    ): Promise<Record<string, number>> {
      const answered: Record<string, number> = {};
      for (const [label, request] of requests) answered[label] = (await request()).status;
      return answered;
    }

    it('a guest in a team granted edit on a space: sees and edits it, nothing else; leaving the team ends it', async () => {
      const org = await t.factories.organization();
      const { id: granted } = await t.factories.space(org, { title: `Space ${next()}` });
      const { id: other } = await t.factories.space(org, { title: `Space ${next()}` });
      const guest = await t.factories.member(org, null);
      const team = await org.owner.client
        .put(`/v1/orgs/${org.id}/teams`, { title: 'Writers', members: [guest.id] })
        .expect(201);
      await invite(org.owner.client, 'space', granted, { role: 'edit', teams: [team.body.id] });
      const as = guest.client;

      const seen = await as.get(`/v1/spaces/${granted}`).expect(200);
      expectConforms(seen, 'getSpaceById');
      expect(seen.body.permissions).toEqual(
        expect.objectContaining({ view: true, comment: true, edit: true, admin: false }),
      );
      const listed = await as.get(`/v1/orgs/${org.id}/spaces`).expect(200);
      expect(listed.body.items.map((space: { id: string }) => space.id)).toEqual([granted]);
      expect(
        await statuses([
          ['update', () => as.patch(`/v1/spaces/${granted}`, { title: 'Mine' })],
          ['delete', () => as.delete(`/v1/spaces/${granted}`)],
          ['duplicate', () => as.post(`/v1/spaces/${granted}/duplicate`)],
          [
            'move',
            () =>
              as.post(`/v1/spaces/${granted}/move`, {
                position: { before: { type: 'space', space: other } },
              }),
          ],
          ['other space', () => as.get(`/v1/spaces/${other}`)],
          ['permissions', () => as.get(`/v1/spaces/${granted}/permissions/users`)],
        ]),
      ).toEqual({
        update: 403,
        delete: 403,
        duplicate: 403,
        move: 403,
        'other space': 404,
        permissions: 403,
      });

      await org.owner.client
        .delete(`/v1/orgs/${org.id}/teams/${team.body.id}/members/${guest.id}`)
        .expect(204);
      await as.get(`/v1/spaces/${granted}`).expect(404);
    });

    it('a guest granted admin on one space: administers that space only, and cannot create at the root', async () => {
      const org = await t.factories.organization();
      const { id: granted } = await t.factories.space(org, { title: `Space ${next()}` });
      const { id: other } = await t.factories.space(org, { title: `Space ${next()}` });
      const { id: collection } = await t.factories.collection(org, {
        title: `Collection ${next()}`,
      });
      const guest = await t.factories.member(org, null);
      await invite(org.owner.client, 'space', granted, { role: 'admin', users: [guest.id] });
      const as = guest.client;

      const updated = await as.patch(`/v1/spaces/${granted}`, { title: 'Renamed' }).expect(200);
      expectConforms(updated, 'updateSpaceById');
      expect(updated.body).toEqual(
        expect.objectContaining({
          title: 'Renamed',
          permissions: expect.objectContaining({ admin: true }),
        }),
      );
      expect(
        await statuses([
          ['duplicate at the root', () => as.post(`/v1/spaces/${granted}/duplicate`)],
          ['move to the root end', () => as.post(`/v1/spaces/${granted}/move`, { parent: null })],
          ['create at the root', () => as.post(`/v1/orgs/${org.id}/spaces`, { title: 'New' })],
          ['other space', () => as.get(`/v1/spaces/${other}`)],
          ['collection', () => as.get(`/v1/collections/${collection}`)],
          ['its permissions', () => as.get(`/v1/spaces/${granted}/permissions/users`)],
        ]),
      ).toEqual({
        'its permissions': 200,
        'duplicate at the root': 403,
        'move to the root end': 403,
        'create at the root': 403,
        'other space': 404,
        collection: 404,
      });

      await as.delete(`/v1/spaces/${granted}`).expect(204);
      const trashed = await as.get(`/v1/spaces/${granted}`).expect(200);
      expect(trashed.body.deletedAt).toEqual(expect.any(String));
      const restored = await as.post(`/v1/spaces/${granted}/restore`).expect(200);
      expectConforms(restored, 'restoreSpace');
      expect(restored.body).not.toHaveProperty('deletedAt');
    });

    it('a guest granted create on a collection: reaches what is inside it, at every depth, and creates there', async () => {
      const org = await t.factories.organization();
      const { id: parent } = await t.factories.collection(org, { title: `Collection ${next()}` });
      const { id: child } = await t.factories.collection(org, {
        title: `Collection ${next()}`,
        parent,
      });
      const { id: deep } = await t.factories.space(org, {
        title: `Space ${next()}`,
        parent: child,
      });
      const { id: shallow } = await t.factories.space(org, { title: `Space ${next()}`, parent });
      const { id: outside } = await t.factories.space(org, { title: `Space ${next()}` });
      const guest = await t.factories.member(org, null);
      await invite(org.owner.client, 'collection', parent, { role: 'create', users: [guest.id] });
      const as = guest.client;

      for (const id of [deep, shallow]) {
        const seen = await as.get(`/v1/spaces/${id}`).expect(200);
        expect(seen.body.permissions).toEqual(
          expect.objectContaining({ view: true, edit: true, review: true, admin: false }),
        );
      }
      const inChild = await as.get(`/v1/collections/${child}/spaces`).expect(200);
      expectConforms(inChild, 'listSpacesInCollectionById');
      expect(inChild.body.items.map((space: { id: string }) => space.id)).toEqual([deep]);
      const collections = await as.get(`/v1/orgs/${org.id}/collections`).expect(200);
      expect(collections.body.items.map((c: { id: string }) => c.id).sort()).toEqual(
        [parent, child].sort(),
      );
      const created = await as
        .post(`/v1/orgs/${org.id}/spaces`, { title: 'Guest-made', parent: child })
        .expect(201);
      expectConforms(created, 'createSpace');
      expect(
        await statuses([
          ['child collection', () => as.get(`/v1/collections/${child}`)],
          ['collection in parent', () => as.post(`/v1/orgs/${org.id}/collections`, { parent })],
          ['update space', () => as.patch(`/v1/spaces/${deep}`, { title: 'Mine' })],
          ['update collection', () => as.patch(`/v1/collections/${parent}`, { title: 'Mine' })],
          ['create at the root', () => as.post(`/v1/orgs/${org.id}/spaces`, { title: 'Root' })],
          ['space outside', () => as.get(`/v1/spaces/${outside}`)],
        ]),
      ).toEqual({
        'child collection': 200,
        'collection in parent': 201,
        'update space': 403,
        'update collection': 403,
        'create at the root': 403,
        'space outside': 404,
      });
      const listed = await as.get(`/v1/orgs/${org.id}/spaces`).expect(200);
      expect(listed.body.items.map((space: { id: string }) => space.id).sort()).toEqual(
        [deep, shallow, created.body.id].sort(),
      );
    });

    it("a read member on a space whose defaultLevel is edit: edits it, not the organization's other spaces; guests get nothing from it", async () => {
      const org = await t.factories.organization();
      const { id: open } = await t.factories.space(org, { title: `Space ${next()}` });
      const { id: plain } = await t.factories.space(org, { title: `Space ${next()}` });
      const updated = await org.owner.client
        .patch(`/v1/spaces/${open}`, { defaultLevel: 'edit' })
        .expect(200);
      expect(updated.body.defaultLevel).toBe('edit');
      const reader = await t.factories.asMember(org, 'read');
      const guest = await t.factories.asMember(org, null);

      const seen = await reader.get(`/v1/spaces/${open}`).expect(200);
      expectConforms(seen, 'getSpaceById');
      expect(seen.body.permissions).toEqual(
        expect.objectContaining({ edit: true, comment: true, review: false, admin: false }),
      );
      const other = await reader.get(`/v1/spaces/${plain}`).expect(200);
      expect(other.body.permissions).toEqual(
        expect.objectContaining({ edit: false, comment: false }),
      );
      expect(
        await statuses([
          ['update', () => reader.patch(`/v1/spaces/${open}`, { title: 'Mine' })],
          ['delete', () => reader.delete(`/v1/spaces/${open}`)],
          ['guest', () => guest.get(`/v1/spaces/${open}`)],
        ]),
      ).toEqual({ update: 403, delete: 403, guest: 404 });
    });
  });

  it('exercises every registered access policy through the routes it covers', () => {
    const covered = new Set(
      OPERATIONS.map((operation) => `${operation.method} ${operation.route}`),
    );
    const used = new Set(
      listRouteAccess(t.bindery.app)
        .filter((route) => covered.has(`${route.method} /v1${route.path}`))
        .flatMap((route) =>
          route.requirement?.kind === 'resource' ? [route.requirement.resource] : [],
        ),
    );
    const registered = t.bindery.app.get(PolicyService).registered();
    expect(registered.filter((resource) => !used.has(resource))).toEqual([]);
  });

  it('covers every route of an organization, space or collection, except those listed in EXCLUDED', () => {
    const scoped = listRouteAccess(t.bindery.app)
      .map((route) => `${route.method} /v1${route.path}`)
      .filter((route) => SCOPED_PREFIXES.some((prefix) => route.includes(` ${prefix}`)));
    const covered = OPERATIONS.map((operation) => `${operation.method} ${operation.route}`);
    expect(new Set(covered).size).toBe(covered.length);
    expect([...covered, ...EXCLUDED].sort()).toEqual(scoped.sort());
  });
});
