import { listRouteAccess } from '../../src/platform/auth/route-access';
import { createTestApp, TestApp } from '../helpers/app';

/**
 * Every route and what it requires. A change of access shows up here, in review; a route
 * without a requirement fails the start (and so this file).
 */
const EXPECTED = [
  'GET /health -> public',
  'GET /v1/admin/users -> instance administrator',
  'POST /v1/admin/users -> instance administrator',
  'PATCH /v1/admin/users/:userId -> instance administrator',
  'POST /v1/admin/users/:userId/tokens -> instance administrator',
  'GET /v1/orgs -> any user',
  'POST /v1/orgs -> any user',
  'GET /v1/orgs/:organizationId -> organization:view',
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
