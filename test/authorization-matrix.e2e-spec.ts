import { listRouteAccess } from '../src/platform/auth/route-access';
import { ROLES, type Role } from '../src/platform/policy/roles';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, listGitbookOperationIds } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * The cross-module authorization matrix: every organization-scoped operation, called by a
 * member of each role, a guest and a non-member (the admin of another organization).
 *
 *   allowed            → 2xx
 *   member, not allowed → 403
 *   non-member          → 404, the same answer as for an organization that does not exist
 *
 * `allowed` follows the route's declared level (test/platform/route-access.e2e-spec.ts) and the
 * rules its service adds on top (team writes need an organization admin or a team owner; a
 * guest sees only the teams it is in and lists only its own teams; removing another member is
 * admin-only). None of the callers below is in the fixture team, so none is a team owner.
 *
 * Left out, on purpose (the last test checks that nothing else is missing):
 *  - GET  /v1/orgs/:organizationId/link-invites/:inviteId, POST /v1/orgs/:organizationId/invites/:inviteId
 *    and POST /v1/orgs/:organizationId/join are `any user` routes: whoever holds the link (or
 *    has an allowed email domain) may call them without being a member, so there is no member
 *    role to check; their rules are covered in test/invites.e2e-spec.ts.
 *  - GET /v1/email-domains/:emailDomain/orgs is not organization-scoped (instance administrator).
 *
 * One application and one organization for the whole file; cases run one after the other.
 * Writes are idempotent (same value again, empty update) or act on a resource made for that
 * case alone (`fresh`), so no case changes what a later one sees.
 */

type MemberCaller = Role | 'guest';
type Caller = MemberCaller | 'stranger';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const MEMBER_CALLERS: MemberCaller[] = [...ROLES, 'guest'];
const CALLERS: Caller[] = [...MEMBER_CALLERS, 'stranger'];

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
  /** The id made by the operation's `fresh`, for this case only. */
  fresh: string;
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
  allowed: (caller: MemberCaller) => boolean;
}

/** `organization:admin`, or a service rule only organization admins meet here. */
const adminOnly = (caller: MemberCaller) => caller === 'admin';
/** `organization:read`, or a service rule asking for the `read` role: every role, no guest. */
const anyRole = (caller: MemberCaller) => caller !== 'guest';
/** `organization:view` with nothing more: every member, guests included. */
const everyone = () => true;

let sequence = 0;
const next = () => ++sequence;

const ORG = '/v1/orgs/:organizationId';
const org = (ctx: Ctx) => `/v1/orgs/${ctx.org.id}`;

/** The owner (an admin, not one of the callers) makes the resources cases act on. */
const owner = (ctx: Ctx) => ctx.org.owner.client;

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

const OPERATIONS: Operation[] = [
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
    name: 'searchOrganizationContent',
    method: 'GET',
    route: `${ORG}/search`,
    path: (ctx) => `${org(ctx)}/search?query=docs`,
    allowed: anyRole,
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
    // Declared organization:view; CollectionsService.create: at the root it needs the create
    // role in the organization (in a parent, create on that parent).
    name: 'createCollection',
    method: 'POST',
    route: `${ORG}/collections`,
    path: (ctx) => `${org(ctx)}/collections`,
    body: () => ({ title: `Collection ${next()}` }),
    allowed: (caller) => caller === 'admin' || caller === 'create',
  },
  // Invites
  {
    name: 'inviteUsersToOrganization',
    method: 'POST',
    route: `${ORG}/invites`,
    path: (ctx) => `${org(ctx)}/invites`,
    body: () => ({ emails: ['nobody@example.com'] }), // no such user: nobody is added
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
    // Declared organization:view; MembersService.remove: another member needs an admin (a
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
    // Declared organization:view; TeamsService.listForMember: guests list only their own teams.
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
    // Declared organization:view; teamPermissions: `read` and up see every team, a guest only
    // the teams it is in (the guest here is in none).
    name: 'getTeamInOrganizationById',
    method: 'GET',
    route: `${ORG}/teams/:teamId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}`,
    allowed: anyRole,
  },
  {
    // Declared organization:view; teamPermissions: an organization admin or a team owner.
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
    // Declared organization:view; teamPermissions.view as for getTeamInOrganizationById.
    name: 'listTeamMembersInOrganizationById',
    method: 'GET',
    route: `${ORG}/teams/:teamId/members`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members`,
    allowed: anyRole,
  },
  {
    // Declared organization:view; teamPermissions.admin. Adding a member already in the team
    // keeps its role: nothing changes.
    name: 'updateMembersInOrganizationTeam',
    method: 'PUT',
    route: `${ORG}/teams/:teamId/members`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members`,
    body: (ctx) => ({ add: [ctx.target.id] }),
    allowed: adminOnly,
  },
  {
    // Declared organization:view; teamPermissions.admin. Idempotent as above.
    name: 'addMemberToOrganizationTeamById',
    method: 'PUT',
    route: `${ORG}/teams/:teamId/members/:userId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members/${ctx.target.id}`,
    body: () => ({}),
    allowed: adminOnly,
  },
  {
    // Declared organization:view; teamPermissions.admin. Each case removes its own team member.
    name: 'deleteMemberFromOrganizationTeamById',
    method: 'DELETE',
    route: `${ORG}/teams/:teamId/members/:userId`,
    path: (ctx) => `${org(ctx)}/teams/${ctx.team}/members/${ctx.fresh}`,
    fresh: freshTeamMember,
    allowed: adminOnly,
  },
];

/** Organization-scoped routes the matrix leaves out, and why (see the comment at the top). */
const EXCLUDED = [
  'GET /v1/orgs/:organizationId/link-invites/:inviteId', // any user holding the link
  'POST /v1/orgs/:organizationId/invites/:inviteId', // any user holding the link
  'POST /v1/orgs/:organizationId/join', // any user whose email domain is allowed
];

interface Case {
  title: string;
  operation: Operation;
  caller: Caller;
  expected: '2xx' | 403 | 404;
}

const CASES: Case[] = OPERATIONS.flatMap((operation) =>
  CALLERS.map((caller): Case => {
    const expected =
      caller === 'stranger' ? 404 : operation.allowed(caller) ? ('2xx' as const) : 403;
    return {
      title: `${operation.method} ${operation.route} (${operation.name}) as ${caller} → ${expected}`,
      operation,
      caller,
      expected,
    };
  }),
);

/** The route template as a pattern matching its concrete paths (query string allowed). */
function routePattern(route: string): RegExp {
  const escaped = route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/?]+');
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
  let ctx: Omit<Ctx, 'fresh'>;
  const gitbookOperations = new Set(listGitbookOperationIds());

  beforeAll(async () => {
    t = await createTestApp();
    const organization = await t.factories.organization();
    const members = {} as Record<MemberCaller, TestUser>;
    for (const caller of MEMBER_CALLERS) {
      members[caller] = await t.factories.member(organization, caller === 'guest' ? null : caller);
    }
    const stranger = (await t.factories.organization()).owner;
    const target = await t.factories.member(organization, 'edit');

    const base = `/v1/orgs/${organization.id}`;
    const client = organization.owner.client;
    const team = await client.put(`${base}/teams`, { title: 'Writers' }).expect(201);
    await client.put(`${base}/teams/${team.body.id}/members/${target.id}`, {}).expect(204);
    const saml = await client
      .post(`${base}/saml`, { label: 'IdP', ssoURL: IDP_SSO_URL })
      .expect(201);
    const invite = await client.post(`${base}/link-invites`, { role: 'read' }).expect(201);

    ctx = {
      org: organization,
      callers: { ...members, stranger },
      target: { id: target.id, role: 'edit' },
      team: team.body.id as string,
      saml: saml.body.id as string,
      invite: invite.body.id as string,
      factories: t.factories,
    };
  });
  afterAll(() => t.close());

  it.each(CASES)('$title', async ({ operation, caller, expected }) => {
    const fresh = operation.fresh ? await operation.fresh({ ...ctx, fresh: '' }) : '';
    const caseCtx: Ctx = { ...ctx, fresh };
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
      if (gitbookOperations.has(operation.name)) expectConforms(res, operation.name);
    } else if (expected === 403) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { error: { code: 403, message: expect.any(String) } },
      });
    } else {
      // Exactly what an organization that does not exist answers: nothing is revealed.
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: 404, message: 'Organization not found.' } },
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

  it('covers every organization-scoped route, except the any-user ones listed in EXCLUDED', () => {
    const scoped = listRouteAccess(t.bindery.app)
      .map((route) => `${route.method} /v1${route.path}`)
      .filter((route) => route.includes(' /v1/orgs/:organizationId'));
    const covered = OPERATIONS.map((operation) => `${operation.method} ${operation.route}`);
    expect(new Set(covered).size).toBe(covered.length);
    expect([...covered, ...EXCLUDED].sort()).toEqual(scoped.sort());
  });
});
