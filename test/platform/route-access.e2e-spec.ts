import { listRouteAccess } from '../../src/platform/auth/route-access';
import { createTestApp, TestApp } from '../helpers/app';

/**
 * Every route and what it requires. A change of access shows up here, in review; a route
 * without a requirement fails the start (and so this file). `organization:view` routes whose
 * rule depends on the target (a team owner, a member removing itself) decide the rest in
 * their service.
 */
const EXPECTED = [
  'GET /health -> public',
  'GET /v1/files/sha256/:digest -> public',
  'GET /v1/admin/users -> instance administrator',
  'POST /v1/admin/users -> instance administrator',
  'PATCH /v1/admin/users/:userId -> instance administrator',
  'POST /v1/admin/users/:userId/tokens -> instance administrator',
  'DELETE /v1/collections/:collectionId -> any user',
  'GET /v1/collections/:collectionId -> collection:view',
  'PATCH /v1/collections/:collectionId -> collection:admin',
  'POST /v1/collections/:collectionId/move -> collection:admin',
  'POST /v1/collections/:collectionId/permissions -> collection:admin',
  'GET /v1/collections/:collectionId/permissions/aggregate -> collection:admin',
  'GET /v1/collections/:collectionId/permissions/teams -> collection:admin',
  'PATCH /v1/collections/:collectionId/permissions/teams/:teamId -> collection:admin',
  'DELETE /v1/collections/:collectionId/permissions/teams/:teamId -> collection:admin',
  'GET /v1/collections/:collectionId/permissions/users -> collection:admin',
  'PATCH /v1/collections/:collectionId/permissions/users/:userId -> collection:admin',
  'DELETE /v1/collections/:collectionId/permissions/users/:userId -> collection:admin',
  'GET /v1/collections/:collectionId/spaces -> collection:view',
  'POST /v1/collections/:collectionId/transfer -> collection:admin',
  'GET /v1/email-domains/:emailDomain/orgs -> instance administrator',
  'GET /v1/orgs -> any user',
  'POST /v1/orgs -> any user',
  'PATCH /v1/orgs/:organizationId -> organization:admin',
  'GET /v1/orgs/:organizationId -> organization:view',
  'GET /v1/orgs/:organizationId/agent-instructions -> organization:read',
  'GET /v1/orgs/:organizationId/change-requests -> organization:view',
  'GET /v1/orgs/:organizationId/collections -> organization:view',
  'POST /v1/orgs/:organizationId/collections -> organization:view',
  'PUT /v1/orgs/:organizationId/agent-instructions -> organization:admin',
  'POST /v1/orgs/:organizationId/invites -> organization:admin',
  'POST /v1/orgs/:organizationId/invites/:inviteId -> any user',
  'POST /v1/orgs/:organizationId/join -> any user',
  'GET /v1/orgs/:organizationId/link-invites -> organization:admin',
  'POST /v1/orgs/:organizationId/link-invites -> organization:admin',
  'DELETE /v1/orgs/:organizationId/link-invites/:inviteId -> organization:admin',
  'GET /v1/orgs/:organizationId/link-invites/:inviteId -> any user',
  'PATCH /v1/orgs/:organizationId/link-invites/:inviteId -> organization:admin',
  'GET /v1/orgs/:organizationId/members -> organization:read',
  'DELETE /v1/orgs/:organizationId/members/:userId -> organization:view',
  'GET /v1/orgs/:organizationId/members/:userId -> organization:read',
  'PATCH /v1/orgs/:organizationId/members/:userId -> organization:admin',
  'GET /v1/orgs/:organizationId/members/:userId/spaces -> organization:read',
  'POST /v1/orgs/:organizationId/members/:userId/sso -> organization:admin',
  'GET /v1/orgs/:organizationId/members/:userId/teams -> organization:view',
  'POST /v1/orgs/:organizationId/ping -> organization:view',
  'GET /v1/orgs/:organizationId/saml -> organization:admin',
  'POST /v1/orgs/:organizationId/saml -> organization:admin',
  'DELETE /v1/orgs/:organizationId/saml/:samlProviderId -> organization:admin',
  'GET /v1/orgs/:organizationId/saml/:samlProviderId -> organization:admin',
  'PATCH /v1/orgs/:organizationId/saml/:samlProviderId -> organization:admin',
  'GET /v1/orgs/:organizationId/search -> organization:view',
  'GET /v1/orgs/:organizationId/spaces -> organization:view',
  'POST /v1/orgs/:organizationId/spaces -> organization:view',
  'GET /v1/orgs/:organizationId/sso -> organization:view',
  'GET /v1/orgs/:organizationId/teams -> organization:read',
  'PUT /v1/orgs/:organizationId/teams -> organization:admin',
  'DELETE /v1/orgs/:organizationId/teams/:teamId -> organization:admin',
  'GET /v1/orgs/:organizationId/teams/:teamId -> organization:view',
  'PATCH /v1/orgs/:organizationId/teams/:teamId -> organization:view',
  'GET /v1/orgs/:organizationId/teams/:teamId/members -> organization:view',
  'PUT /v1/orgs/:organizationId/teams/:teamId/members -> organization:view',
  'DELETE /v1/orgs/:organizationId/teams/:teamId/members/:userId -> organization:view',
  'PUT /v1/orgs/:organizationId/teams/:teamId/members/:userId -> organization:view',
  'DELETE /v1/spaces/:spaceId -> any user',
  'GET /v1/spaces/:spaceId -> spaceIncludingDeleted:view',
  'PATCH /v1/spaces/:spaceId -> space:admin',
  'GET /v1/spaces/:spaceId/change-requests -> space:view',
  'POST /v1/spaces/:spaceId/change-requests -> space:edit',
  'GET /v1/spaces/:spaceId/change-requests/:changeRequestId -> space:view',
  'PATCH /v1/spaces/:spaceId/change-requests/:changeRequestId -> space:edit',
  'GET /v1/spaces/:spaceId/content -> space:view',
  'GET /v1/spaces/:spaceId/content/files -> space:view',
  'GET /v1/spaces/:spaceId/content/files/:fileId -> space:view',
  'GET /v1/spaces/:spaceId/content/files/:fileId/backlinks -> space:view',
  'GET /v1/spaces/:spaceId/content/page/:pageId -> space:view',
  'GET /v1/spaces/:spaceId/content/page/:pageId/links -> space:view',
  'GET /v1/spaces/:spaceId/content/pages -> space:view',
  'GET /v1/spaces/:spaceId/content/path/*pagePath -> space:view',
  'POST /v1/spaces/:spaceId/content/template -> space:edit',
  'POST /v1/spaces/:spaceId/duplicate -> space:view',
  'GET /v1/spaces/:spaceId/links -> space:view',
  'POST /v1/spaces/:spaceId/move -> space:admin',
  'POST /v1/spaces/:spaceId/permissions -> space:admin',
  'GET /v1/spaces/:spaceId/permissions/aggregate -> space:admin',
  'GET /v1/spaces/:spaceId/permissions/teams -> space:admin',
  'PATCH /v1/spaces/:spaceId/permissions/teams/:teamId -> space:admin',
  'DELETE /v1/spaces/:spaceId/permissions/teams/:teamId -> space:admin',
  'GET /v1/spaces/:spaceId/permissions/users -> space:admin',
  'PATCH /v1/spaces/:spaceId/permissions/users/:userId -> space:admin',
  'DELETE /v1/spaces/:spaceId/permissions/users/:userId -> space:admin',
  'POST /v1/spaces/:spaceId/restore -> spaceIncludingDeleted:admin',
  'GET /v1/spaces/:spaceId/revisions/:revisionId -> space:view',
  'GET /v1/spaces/:spaceId/revisions/:revisionId/files -> space:view',
  'GET /v1/spaces/:spaceId/revisions/:revisionId/files/:fileId -> space:view',
  'GET /v1/spaces/:spaceId/revisions/:revisionId/page/:pageId -> space:view',
  'GET /v1/spaces/:spaceId/revisions/:revisionId/pages -> space:view',
  'GET /v1/spaces/:spaceId/revisions/:revisionId/path/*pagePath -> space:view',
  'GET /v1/spaces/:spaceId/search -> space:view',
  'POST /v1/spaces/:spaceId/transfer -> space:admin',
  'GET /v1/user -> any user',
  'GET /v1/users/:userId -> any user',
];

describe('route access requirements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists every route with its requirement', () => {
    const routes = listRouteAccess(t.bindery.app).map((route) => {
      const path = route.path === '/health' ? route.path : `/v1${route.path}`;
      return `${route.method} ${path} -> ${route.access ?? 'NONE'}`;
    });
    expect(routes.sort()).toEqual([...EXPECTED].sort());
  });
});
