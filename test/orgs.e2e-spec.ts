import { ROLES } from '../src/platform/policy/roles';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';

describe('organizations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /v1/orgs (createOrganization)', () => {
    it('creates the organization with the caller as its admin', async () => {
      const user = await t.factories.user();
      const res = await user.client
        .post('/v1/orgs', {
          title: 'Acme Docs',
          emailDomains: ['Acme.com'],
          type: 'business',
          useCase: 'productDocs',
        })
        .expect(201);
      expect(res.headers.location).toBe(`${TEST_PUBLIC_URL}/v1/orgs/${res.body.id}`);
      expect(res.body).toEqual(
        expect.objectContaining({
          object: 'organization',
          title: 'Acme Docs',
          emailDomains: ['acme.com'],
          useCase: 'productDocs',
          plan: 'enterprise_2024',
          mergeRules: { type: 'none' },
          trial: { status: 'notapplicable', count: 0 },
        }),
      );
      expect(res.body.permissions.admin).toBe(true);
      // Its response is an Organization (0.146.0 has no createOrganization operation).
      expectConforms({ status: 200, body: res.body }, 'getOrganizationById');

      const read = await user.client.get(`/v1/orgs/${res.body.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it.each([
      [{}, 'title'],
      [{ title: 'A' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ title: 'Ok', emailDomains: ['not a domain'] }, 'emailDomains'],
      [{ title: 'Ok', type: 'enterprise' }, 'type'],
      [
        { title: 'Ok', onboardingPreferences: { interests: ['telepathy'] } },
        'onboardingPreferences.interests',
      ],
      [{ title: 'Ok', plan: 'free' }, 'plan'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const user = await t.factories.user();
      const res = await user.client.post('/v1/orgs', body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      const orgs = await user.client.get('/v1/orgs').expect(200);
      expect(orgs.body.count).toBe(0);
    });

    it('answers 401 without a token and 403 to the administrator token', async () => {
      await t.anonymous.post('/v1/orgs', { title: 'Nope' }).expect(401);
      await t.admin.post('/v1/orgs', { title: 'Nope' }).expect(403);
    });
  });

  describe('GET /v1/orgs (listOrganizationsForAuthenticatedUser)', () => {
    it("lists the caller's organizations only, newest first, across pages", async () => {
      const user = await t.factories.user();
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.set(new Date(Date.UTC(2026, 5, 1, 0, 0, i)));
        created.push((await t.factories.organization({ owner: user })).id);
      }
      await t.factories.organization(); // someone else's
      const first = await user.client.get('/v1/orgs?limit=2').expect(200);
      expectConforms(first, 'listOrganizationsForAuthenticatedUser');
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((o: { id: string }) => o.id)).toEqual([created[2], created[1]]);
      const second = await user.client
        .get(`/v1/orgs?limit=2&page=${first.body.next.page}`)
        .expect(200);
      expect(second.body.items.map((o: { id: string }) => o.id)).toEqual([created[0]]);
      expect(second.body).not.toHaveProperty('next');
      expectConforms(second, 'listOrganizationsForAuthenticatedUser');
    });

    it("shows each organization with the caller's permissions there", async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const res = await reader.client.get('/v1/orgs').expect(200);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0].permissions).toEqual(
        expect.objectContaining({ view: true, admin: false, listMembers: true }),
      );
    });

    it('refuses limit=1001 with 400', async () => {
      const user = await t.factories.user();
      await user.client.get('/v1/orgs?limit=1001').expect(400);
    });
  });

  describe('GET /v1/orgs/{organizationId} (getOrganizationById)', () => {
    it.each(ROLES.map((role) => [role]))('computes permissions for a %s member', async (role) => {
      const org = await t.factories.organization();
      const member = await t.factories.member(org, role);
      const res = await member.client.get(`/v1/orgs/${org.id}`).expect(200);
      expectConforms(res, 'getOrganizationById');
      expect(res.body.id).toBe(org.id);
      expect(res.body.permissions.admin).toBe(role === 'admin');
      expect(res.body.permissions.createContent).toBe(role === 'admin' || role === 'create');
      expect(res.body.permissions.listMembers).toBe(true);
    });

    it('lets a guest see the organization and nothing more', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.member(org, null);
      const res = await guest.client.get(`/v1/orgs/${org.id}`).expect(200);
      expectConforms(res, 'getOrganizationById');
      // `access`: it may open the organization in the application (to the content granted to it).
      expect(Object.entries(res.body.permissions).filter(([, allowed]) => allowed)).toEqual([
        ['view', true],
        ['access', true],
      ]);
    });

    it('answers 404 to a member of another organization, as for an unknown id', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(`/v1/orgs/${org.id}`).expect(404);
      const unknown = await stranger.owner.client.get('/v1/orgs/does-not-exist').expect(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      expectConforms(hidden, 'getOrganizationById');
    });

    it('answers 404 to a disabled membership', async () => {
      const org = await t.factories.organization();
      const member = await t.factories.member(org, 'admin');
      await t.dataSource.query(
        'UPDATE organization_members SET disabled = true WHERE user_id = $1',
        [member.id],
      );
      await member.client.get(`/v1/orgs/${org.id}`).expect(404);
    });

    it('answers 403 to the administrator token', async () => {
      const org = await t.factories.organization();
      await t.admin.get(`/v1/orgs/${org.id}`).expect(403);
    });
  });
});
