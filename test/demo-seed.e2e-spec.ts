import { DemoSeed } from '../src/seed/demo-seed.service';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';

describe('demo seed (SEED_DEMO on an empty database)', () => {
  let t: TestApp;
  let demo: Client;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'true' });
    demo = t.as(t.bindery.demo!.token);
  });
  afterAll(() => t.close());

  it('makes a demo user, whose token works, admin of a demo organization', async () => {
    const seeded = t.bindery.demo!;
    expect(seeded.userEmail).toBe('demo@bindery.local');
    const res = await demo.get(`/v1/orgs/${seeded.organizationId}`).expect(200);
    expectConforms(res, 'getOrganizationById');
    expect(res.body).toEqual(
      expect.objectContaining({ id: seeded.organizationId, title: 'Demo Organization' }),
    );
    expect(res.body.permissions.admin).toBe(true);
  });

  it('gives the demo organization one space, "Getting started", readable with the demo token', async () => {
    const { organizationId, spaceId } = t.bindery.demo!;
    const list = await demo.get(`/v1/orgs/${organizationId}/spaces`).expect(200);
    expectConforms(list, 'listSpacesInOrganizationById');
    expect(list.body.items.map((space: { id: string }) => space.id)).toEqual([spaceId]);

    const res = await demo.get(`/v1/spaces/${spaceId}`).expect(200);
    expectConforms(res, 'getSpaceById');
    expect(res.body).toEqual(
      expect.objectContaining({
        object: 'space',
        id: spaceId,
        title: 'Getting started',
        organization: organizationId,
        visibility: 'private',
      }),
    );
    expect(res.body.parent).toBeUndefined();
    expect(res.body.permissions.admin).toBe(true);

    // Its first revision exists (the space was made by the same use case as createSpace).
    const revisions: { id: string }[] = await t.dataSource.query(
      'SELECT id FROM revisions WHERE space_id = $1',
      [spaceId],
    );
    expect(revisions.map((revision) => revision.id)).toEqual([res.body.revision]);
  });

  it('counts the space in the demo member', async () => {
    const { organizationId } = t.bindery.demo!;
    const members = await demo.get(`/v1/orgs/${organizationId}/members`).expect(200);
    expect(members.body.items).toEqual([expect.objectContaining({ spaces: 1 })]);
  });

  it('does nothing once a user exists', async () => {
    expect(await t.bindery.app.get(DemoSeed).run()).toBeUndefined();
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM spaces');
    expect(n).toBe(1);
  });
});
