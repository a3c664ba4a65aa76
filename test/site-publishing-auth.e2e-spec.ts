import { SitePublishingAuthService } from '../src/sites/publishing-auth/site-publishing-auth.service';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/** A site's visitor authentication: its private key, fallback (login) and logout URLs. */

interface PublishingAuthBody {
  object: 'publishing-auth';
  privateKey: string;
  backend: string;
  fallbackURL?: string;
  logoutURL?: string;
}

describe('site publishing auth', () => {
  let t: TestApp;
  let service: SitePublishingAuthService;
  beforeAll(async () => {
    t = await createTestApp();
    service = t.bindery.app.get(SitePublishingAuthService);
  });
  afterAll(() => t.close());

  const authPath = (org: TestOrganization, siteId: string) =>
    `/v1/orgs/${org.id}/sites/${siteId}/publishing/auth`;

  async function siteOf(org?: TestOrganization) {
    const organization = org ?? (await t.factories.organization());
    const site = await t.factories.site(organization, { visibility: 'visitor-auth' });
    return { org: organization, siteId: site.id, path: authPath(organization, site.id) };
  }

  describe('getSitePublishingAuthById', () => {
    it('makes a strong key on first read, keeps it, and stores it sealed', async () => {
      const { org, siteId, path } = await siteOf();
      expect(await service.visitorAuth(siteId)).toBeNull();

      const first = await org.owner.client.get(path).expect(200);
      expectConforms(first, 'getSitePublishingAuthById', GITBOOK_0201);
      const body = first.body as PublishingAuthBody;
      expect(body).toEqual({
        object: 'publishing-auth',
        privateKey: expect.stringMatching(/^[\w-]{43}$/),
        backend: 'custom',
      });
      const again = await org.owner.client.get(path).expect(200);
      expect(again.body.privateKey).toBe(body.privateKey);
      await expect(service.visitorAuth(siteId)).resolves.toEqual({
        privateKey: body.privateKey,
        fallbackURL: null,
        logoutURL: null,
      });

      const rows = await t.dataSource.query(
        'SELECT row_to_json(a)::text AS row FROM site_publishing_auth a WHERE site_id = $1',
        [siteId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].row).not.toContain(body.privateKey);
    });

    it('gives each site its own key, and two first reads at once one key', async () => {
      const { org, path } = await siteOf();
      const [a, b] = await Promise.all([
        org.owner.client.get(path).expect(200),
        org.owner.client.get(path).expect(200),
      ]);
      expect(a.body.privateKey).toBe(b.body.privateKey);
      const other = await siteOf(org);
      const c = await org.owner.client.get(other.path).expect(200);
      expect(c.body.privateKey).not.toBe(a.body.privateKey);
    });

    it('answers 404 for an unknown site and to a caller of another organization', async () => {
      const { org, path } = await siteOf();
      const unknown = await org.owner.client.get(authPath(org, 'unknownSite')).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(path).expect(404);
      // The site named under the other organization's path is not found either.
      await stranger.owner.client.get(path.replace(org.id, stranger.id)).expect(404);
    });

    it('needs the role that changes the site (the key opens it): 403 below it', async () => {
      const { org, path } = await siteOf();
      for (const role of ['read', 'edit', 'review'] as const) {
        const member = await t.factories.asMember(org, role);
        const res = await member.get(path).expect(403);
        expect(res.body.error.code).toBe(403);
      }
      const creator = await t.factories.asMember(org, 'create');
      await creator.get(path).expect(200);
    });
  });

  describe('updateSitePublishingAuthById', () => {
    it('sets the URLs, keeps an absent one, unsets a null one, keeps the key', async () => {
      const { org, siteId, path } = await siteOf();
      const { privateKey } = (await org.owner.client.get(path).expect(200)).body;

      const set = await org.owner.client
        .patch(path, {
          backend: 'custom',
          fallbackURL: 'https://login.example.com/bindery',
          logoutURL: 'https://login.example.com/logout',
        })
        .expect(200);
      expectConforms(set, 'updateSitePublishingAuthById', GITBOOK_0201);
      expect(set.body).toEqual({
        object: 'publishing-auth',
        privateKey,
        backend: 'custom',
        fallbackURL: 'https://login.example.com/bindery',
        logoutURL: 'https://login.example.com/logout',
      });

      const kept = await org.owner.client
        .patch(path, { backend: 'custom', logoutURL: null })
        .expect(200);
      expect(kept.body).toEqual({
        object: 'publishing-auth',
        privateKey,
        backend: 'custom',
        fallbackURL: 'https://login.example.com/bindery',
      });
      expect((await org.owner.client.get(path).expect(200)).body).toEqual(kept.body);
      await expect(service.visitorAuth(siteId)).resolves.toEqual({
        privateKey,
        fallbackURL: 'https://login.example.com/bindery',
        logoutURL: null,
      });
    });

    it('configures a site never read before', async () => {
      const { org, siteId, path } = await siteOf();
      const res = await org.owner.client
        .patch(path, { backend: 'custom', fallbackURL: 'http://localhost:4000/login' })
        .expect(200);
      expect(res.body.privateKey).toMatch(/^[\w-]{43}$/);
      expect((await service.visitorAuth(siteId))?.fallbackURL).toBe('http://localhost:4000/login');
    });

    it.each([
      [
        'an integration backend',
        { backend: 'integration' },
        /backend must be "custom".*no integrations/,
      ],
      ['no backend', {}, /backend is required/],
      [
        'a URL that is not http(s)',
        { backend: 'custom', fallbackURL: 'javascript:alert(1)' },
        /fallbackURL must be an http/,
      ],
      [
        'a URL that is not a string',
        { backend: 'custom', logoutURL: 42 },
        /logoutURL must be a string/,
      ],
      [
        'a URL over 2048 characters',
        { backend: 'custom', fallbackURL: `https://example.com/${'a'.repeat(2048)}` },
        /fallbackURL must be shorter than or equal to 2048/,
      ],
      [
        'an unknown field',
        { backend: 'custom', integration: 'okta' },
        /property integration should not exist/,
      ],
    ])('answers 400 to %s', async (_, body, message) => {
      const { org, path } = await siteOf();
      const res = await org.owner.client.patch(path, body).expect(400);
      expectConforms(res, 'updateSitePublishingAuthById', GITBOOK_0201);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    });

    it('answers 404 for an unknown site or another organization, 403 below the create role', async () => {
      const { org, siteId, path } = await siteOf();
      const body = { backend: 'custom', fallbackURL: 'https://login.example.com' };
      await org.owner.client.patch(authPath(org, 'unknownSite'), body).expect(404);
      const stranger = await t.factories.organization();
      await stranger.owner.client.patch(path, body).expect(404);
      const editor = await t.factories.asMember(org, 'edit');
      await editor.patch(path, body).expect(403);
      expect(await service.visitorAuth(siteId)).toBeNull();
    });
  });

  describe('regenerateSitePublishingAuthById', () => {
    it('replaces the key (the old one no longer is the site’s) and keeps the URLs', async () => {
      const { org, siteId, path } = await siteOf();
      const before = (
        await org.owner.client
          .patch(path, { backend: 'custom', fallbackURL: 'https://login.example.com' })
          .expect(200)
      ).body as PublishingAuthBody;

      const res = await org.owner.client.post(`${path}/regenerate`).expect(200);
      expectConforms(res, 'regenerateSitePublishingAuthById', GITBOOK_0201);
      expect(res.body).toEqual({
        object: 'publishing-auth',
        privateKey: expect.stringMatching(/^[\w-]{43}$/),
        backend: 'custom',
        fallbackURL: 'https://login.example.com',
      });
      expect(res.body.privateKey).not.toBe(before.privateKey);
      expect((await org.owner.client.get(path).expect(200)).body.privateKey).toBe(
        res.body.privateKey,
      );
      expect((await service.visitorAuth(siteId))?.privateKey).toBe(res.body.privateKey);
    });

    it('makes the first key of a site never read', async () => {
      const { org, siteId, path } = await siteOf();
      const res = await org.owner.client.post(`${path}/regenerate`).expect(200);
      expect((await service.visitorAuth(siteId))?.privateKey).toBe(res.body.privateKey);
    });

    it('answers 400 to a body, 404 for an unknown site or another organization, 403 below the create role', async () => {
      const { org, siteId, path } = await siteOf();
      const bad = await org.owner.client
        .post(`${path}/regenerate`, '{"oops"')
        .set('Content-Type', 'application/json');
      expect(bad.status).toBe(400);
      expectConforms(bad, 'regenerateSitePublishingAuthById', GITBOOK_0201);
      await org.owner.client.post(`${authPath(org, 'unknownSite')}/regenerate`).expect(404);
      const stranger = await t.factories.organization();
      await stranger.owner.client.post(`${path}/regenerate`).expect(404);
      const reader = await t.factories.asMember(org, 'read');
      await reader.post(`${path}/regenerate`).expect(403);
      expect(await service.visitorAuth(siteId)).toBeNull();
    });
  });

  it('goes with its site', async () => {
    const { org, siteId, path } = await siteOf();
    await org.owner.client.get(path).expect(200);
    await org.owner.client.delete(`/v1/orgs/${org.id}/sites/${siteId}`).expect(204);
    expect(await service.visitorAuth(siteId)).toBeNull();
  });
});
