import { randomBytes } from 'node:crypto';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { PageOf, SiteBody, SiteSpaceBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Sites: create, list (filters, pages), get, update, delete, publish, unpublish, and the
 * published profile with share keys; who may do what.
 */

interface PublishedBody {
  object: 'published-content-site';
  site: SiteBody;
  structure: { type: string; structure: SiteSpaceBody[] };
  customizations: { site: Record<string, unknown>; siteSpaces: Record<string, object> };
  scripts: unknown[];
}

const unique = () => randomBytes(4).toString('hex');
const ids = (body: PageOf<{ id: string }>) => body.items.map((item) => item.id);

describe('sites', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitesPath = (org: TestOrganization) => `/v1/orgs/${org.id}/sites`;
  const sitePath = (org: TestOrganization, siteId: string) => `${sitesPath(org)}/${siteId}`;

  async function siteSpaces(org: TestOrganization, siteId: string): Promise<SiteSpaceBody[]> {
    const res = await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(200);
    return (res.body as { structure: SiteSpaceBody[] }).structure;
  }

  describe('createSite', () => {
    it('creates an unpublished basic public site with self-hosted defaults', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(sitesPath(org), { title: 'Developer docs' })
        .expect(201);
      expectConforms(res, 'createSite');
      const site = res.body as SiteBody;
      expect(site).toMatchObject({
        object: 'site',
        type: 'basic',
        title: 'Developer docs',
        visibility: 'public',
        published: false,
        siteSpaces: 0,
        adaptiveContent: { enabled: false },
        ads: { status: 'disabled' },
        agentsContext: 'included',
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/sites/${site.id}`,
          app: `${TEST_PUBLIC_URL}/o/${org.id}/sites/${site.id}`,
        },
      });
      expect(site.urls.published).toBeUndefined();
      expect(res.headers.location).toBe(site.urls.location);
      // Self-hosted: every feature (but ads) on the highest plan, none frozen.
      expect(site.features.map((feature) => feature.id)).toEqual(
        expect.arrayContaining(['sites-adaptive-content', 'sites-share-links', 'sites-sections']),
      );
      expect(site.features.map((feature) => feature.id)).not.toContain('sites-ads');
      expect(site.features.every((f) => f.plan === 'ultimate' && !f.frozen)).toBe(true);
      await org.owner.client.get(sitePath(org, site.id)).expect(200);
    });

    it('takes type and visibility, and titles an untitled site', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(sitesPath(org), { type: 'premium', visibility: 'share-link' })
        .expect(201);
      expectConforms(res, 'createSite');
      expect(res.body).toMatchObject({
        type: 'premium',
        visibility: 'share-link',
        title: 'Untitled site',
      });
    });

    it('publishes `spaces` as site spaces in order, the first the default', async () => {
      const org = await t.factories.organization();
      const { id: guide } = await t.factories.space(org, { title: 'User guide' });
      const { id: api } = await t.factories.space(org, { title: 'API reference' });
      const res = await org.owner.client
        .post(sitesPath(org), { title: 'Docs', spaces: [guide, api] })
        .expect(201);
      expectConforms(res, 'createSite');
      expect((res.body as SiteBody).siteSpaces).toBe(2);
      const structure = await siteSpaces(org, (res.body as SiteBody).id);
      expect(structure.map((s) => [s.space.id, s.default])).toEqual([
        [guide, true],
        [api, false],
      ]);
    });

    it.each([
      [{ title: 'D' }, /title must be longer than or equal to 2 characters/],
      [{ title: 'x'.repeat(129) }, /title must be shorter than or equal to 128 characters/],
      [{ type: 'enterprise' }, /type must be one of/],
      [{ visibility: 'private' }, /visibility must be one of/],
      [{ spaces: 'abc' }, /spaces must be an array/],
      [{ unknown: true }, /property unknown should not exist/],
    ])('answers 400 to %j', async (body, message) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.post(sitesPath(org), body).expect(400);
      expect(res.body.error.message).toMatch(message);
    });

    it('answers 400 for a space of another organization, and creates nothing', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: foreign } = await t.factories.space(other, { title: 'Theirs' });
      const res = await org.owner.client
        .post(sitesPath(org), { title: 'Docs', spaces: [foreign] })
        .expect(400);
      expect(res.body.error.message).toMatch(/spaces/);
      const list = await org.owner.client.get(sitesPath(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('needs the create role: 403 for read members and guests, 404 for non-members', async () => {
      const org = await t.factories.organization();
      const creator = await t.factories.asMember(org, 'create');
      await t.factories.later.site(org, { by: creator });
      const reader = await t.factories.asMember(org, 'read');
      await reader.post(sitesPath(org), { title: 'Docs' }).expect(403);
      const guest = await t.factories.asMember(org, null);
      await guest.post(sitesPath(org), { title: 'Docs' }).expect(403);
      const stranger = await t.factories.user();
      await stranger.client.post(sitesPath(org), { title: 'Docs' }).expect(404);
    });
  });

  describe('listSites', () => {
    it('lists the organization sites oldest first, in pages', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.site(org, { title: 'Alpha' });
      const b = await t.factories.later.site(org, { title: 'Beta' });
      const c = await t.factories.later.site(org, { title: 'Gamma' });
      const other = await t.factories.organization();
      await t.factories.later.site(other);

      const res = await org.owner.client.get(sitesPath(org)).expect(200);
      expectConforms(res, 'listSites');
      expect(ids(res.body)).toEqual([a.id, b.id, c.id]);
      expect(res.body.count).toBe(3);

      const first = await org.owner.client.get(`${sitesPath(org)}?limit=2`).expect(200);
      expect(ids(first.body)).toEqual([a.id, b.id]);
      const second = await org.owner.client
        .get(`${sitesPath(org)}?limit=2&page=${first.body.next.page}`)
        .expect(200);
      expectConforms(second, 'listSites');
      expect(ids(second.body)).toEqual([c.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('filters by space, title, published and type', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: 'Guide' });
      const withSpace = await t.factories.later.site(org, {
        title: 'Product docs',
        spaces: [space],
      });
      const published = await t.factories.later.site(org, { title: 'Public API', type: 'premium' });
      await org.owner.client.post(`${sitePath(org, published.id)}/publish`).expect(200);
      const ultimate = await t.factories.later.site(org, { title: '100%_off', type: 'ultimate' });

      const get = async (query: string) => {
        const res = await org.owner.client.get(`${sitesPath(org)}?${query}`).expect(200);
        expectConforms(res, 'listSites');
        return ids(res.body);
      };
      expect(await get(`space=${space}`)).toEqual([withSpace.id]);
      expect(await get('title=DOCS')).toEqual([withSpace.id]);
      expect(await get('title=%25_')).toEqual([ultimate.id]);
      expect(await get('published=true')).toEqual([published.id]);
      expect(await get('published=false')).toEqual([withSpace.id, ultimate.id]);
      expect(await get('type=premium')).toEqual([published.id]);
      expect(await get('type=premium&type=ultimate')).toEqual([published.id, ultimate.id]);
    });

    it('answers 400 to bad filters', async () => {
      const org = await t.factories.organization();
      await org.owner.client.get(`${sitesPath(org)}?type=enterprise`).expect(400);
      await org.owner.client.get(`${sitesPath(org)}?published=maybe`).expect(400);
      await org.owner.client.get(`${sitesPath(org)}?page=nonsense`).expect(400);
    });

    it('is open to read members, 404 to non-members', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(sitesPath(org)).expect(200);
      expect(ids(res.body)).toEqual([site.id]);
      const stranger = await t.factories.user();
      await stranger.client.get(sitesPath(org)).expect(404);
    });
  });

  describe('getSiteById', () => {
    it('answers the site with its site-space count', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: 'Guide' });
      const site = await t.factories.later.site(org, { spaces: [space] });
      const res = await org.owner.client.get(sitePath(org, site.id)).expect(200);
      expectConforms(res, 'getSiteById');
      expect(res.body).toMatchObject({ id: site.id, title: 'Docs', siteSpaces: 1 });
    });

    it('answers 404 for an unknown site and for a site of another organization', async () => {
      const org = await t.factories.organization();
      await org.owner.client.get(sitePath(org, 'unknown')).expect(404);
      const other = await t.factories.organization();
      const theirs = await t.factories.later.site(other);
      const res = await org.owner.client.get(sitePath(org, theirs.id)).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
      const stranger = await t.factories.user();
      await stranger.client.get(sitePath(other, theirs.id)).expect(404);
    });
  });

  describe('updateSiteById', () => {
    it('changes title, visibility, basename, adaptive content, agents context and icon', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client
        .patch(sitePath(org, site.id), {
          title: 'Handbook',
          visibility: 'unlisted',
          basename: 'handbook',
          adaptiveContent: { enabled: true },
          agentsContext: 'excluded',
          icon: { emoji: '📘' },
        })
        .expect(200);
      expectConforms(res, 'updateSiteById');
      expect(res.body).toMatchObject({
        title: 'Handbook',
        visibility: 'unlisted',
        basename: 'handbook',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
        icon: { emoji: '📘' },
      });
      const again = await org.owner.client.get(sitePath(org, site.id)).expect(200);
      expect(again.body).toMatchObject({ title: 'Handbook', basename: 'handbook' });
      // Absent fields stay; null removes the icon.
      const cleared = await org.owner.client
        .patch(sitePath(org, site.id), { icon: null })
        .expect(200);
      expect(cleared.body.icon).toBeUndefined();
      expect(cleared.body.title).toBe('Handbook');
    });

    it('sets and removes a proxy, answered as {origin, target}', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client
        .patch(sitePath(org, site.id), { proxy: 'www.example.com/developer/docs' })
        .expect(200);
      expectConforms(res, 'updateSiteById');
      expect(res.body.proxy).toEqual({
        origin: 'www.example.com/developer/docs',
        target: `${TEST_PUBLIC_URL}/sites/${org.id}/${site.id}`,
      });
      const removed = await org.owner.client
        .patch(sitePath(org, site.id), { proxy: null })
        .expect(200);
      expect(removed.body.proxy).toBeUndefined();
    });

    it.each([
      ['https://example.com/docs', 'a scheme'],
      ['example.com', 'no path'],
      ['example/docs', 'no domain'],
      [`example.com/${'a'.repeat(510)}`, 'more than 512 characters'],
    ])('answers 400 to proxy %p (%s)', async (proxy) => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client.patch(sitePath(org, site.id), { proxy }).expect(400);
      expect(res.body.error.message).toMatch(/proxy/);
    });

    it('sets a hostname unique across sites: 409 when taken', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const hostname = `docs-${unique()}.example.com`;
      const res = await org.owner.client.patch(sitePath(org, site.id), { hostname }).expect(200);
      expectConforms(res, 'updateSiteById');
      expect(res.body.hostname).toBe(hostname);
      // Setting it again on the same site is not a conflict.
      await org.owner.client.patch(sitePath(org, site.id), { hostname }).expect(200);

      const other = await t.factories.organization();
      const theirs = await t.factories.later.site(other);
      const conflict = await other.owner.client
        .patch(sitePath(other, theirs.id), { hostname })
        .expect(409);
      expect(conflict.body.error.message).toMatch(/hostname already taken/);
      const cleared = await org.owner.client
        .patch(sitePath(org, site.id), { hostname: null })
        .expect(200);
      expect(cleared.body.hostname).toBeUndefined();
      await other.owner.client.patch(sitePath(other, theirs.id), { hostname }).expect(200);
    });

    it.each([
      ['example.com', 'two labels'],
      ['Docs.Example.com', 'upper case'],
      [`${'a'.repeat(64)}.example.com`, 'a label of 64 characters'],
      ['-docs.example.com', 'a leading hyphen'],
      ['docs..example.com', 'an empty label'],
    ])('answers 400 to hostname %p (%s)', async (hostname) => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client.patch(sitePath(org, site.id), { hostname }).expect(400);
      expect(res.body.error.message).toMatch(/hostname/);
    });

    it.each([
      [{ title: 'D' }, /title must be longer than or equal to 2 characters/],
      [{ title: null }, /title should not be null/],
      [{ basename: '' }, /basename must be longer than or equal to 1 characters/],
      [{ basename: 'x'.repeat(101) }, /basename must be shorter than or equal to 100/],
      [{ basename: 'a/b' }, /basename cannot contain/],
      [{ visibility: 'private' }, /visibility must be one of/],
      [{ agentsContext: 'maybe' }, /agentsContext must be one of/],
      [{ adaptiveContent: { enabled: 'yes' } }, /adaptiveContent.enabled must be a boolean/],
      [{ icon: { emoji: '📘', icon: {} } }, /icon must be/],
      [{ defaultSiteSpace: 'unknown' }, /defaultSiteSpace/],
      [{ defaultSiteSection: 'unknown' }, /defaultSiteSection/],
    ])('answers 400 to %j', async (body, message) => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client.patch(sitePath(org, site.id), body).expect(400);
      expect(res.body.error.message).toMatch(message);
    });

    it('makes another site space the default', async () => {
      const org = await t.factories.organization();
      const spaces = [
        (await t.factories.space(org, { title: 'One' })).id,
        (await t.factories.space(org, { title: 'Two' })).id,
      ];
      const site = await t.factories.later.site(org, { spaces });
      const [, second] = await siteSpaces(org, site.id);
      const res = await org.owner.client
        .patch(sitePath(org, site.id), { defaultSiteSpace: second.id })
        .expect(200);
      expectConforms(res, 'updateSiteById');
      const after = await siteSpaces(org, site.id);
      expect(after.map((s) => [s.id, s.default])).toEqual([
        [after[0].id, false],
        [second.id, true],
      ]);
    });

    it('needs the create role: 403 for a read member, 404 elsewhere', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.patch(sitePath(org, site.id), { title: 'Mine' }).expect(403);
      expect(res.body.error.code).toBe(403);
      await org.owner.client.patch(sitePath(org, 'unknown'), { title: 'Mine' }).expect(404);
      const other = await t.factories.organization();
      await other.owner.client.patch(sitePath(other, site.id), { title: 'Mine' }).expect(404);
      const unchanged = await org.owner.client.get(sitePath(org, site.id)).expect(200);
      expect(unchanged.body.title).toBe('Docs');
    });
  });

  describe('deleteSiteById', () => {
    it('deletes the site and its site spaces, not the spaces; 204 again when gone', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: 'Guide' });
      const site = await t.factories.later.site(org, { spaces: [space] });
      const res = await org.owner.client.delete(sitePath(org, site.id)).expect(204);
      expectConforms(res, 'deleteSiteById');
      await org.owner.client.get(sitePath(org, site.id)).expect(404);
      const rows: unknown[] = await t.dataSource.query(
        'SELECT 1 FROM site_spaces WHERE site_id = $1',
        [site.id],
      );
      expect(rows).toHaveLength(0);
      await org.owner.client.get(`/v1/spaces/${space}`).expect(200);
      await org.owner.client.delete(sitePath(org, site.id)).expect(204);
    });

    it("becomes the organization's default content, which its deletion clears", async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const other = await t.factories.organization();
      const foreign = await t.factories.later.site(other);
      await org.owner.client
        .patch(`/v1/orgs/${org.id}`, { defaultContent: { type: 'site', site: foreign.id } })
        .expect(400);
      const set = await org.owner.client
        .patch(`/v1/orgs/${org.id}`, { defaultContent: { type: 'site', site: site.id } })
        .expect(200);
      expectConforms(set, 'updateOrganizationById');
      expect(set.body).toMatchObject({ defaultContent: { type: 'site', site: site.id } });
      await org.owner.client.delete(sitePath(org, site.id)).expect(204);
      const after = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(after.body).not.toHaveProperty('defaultContent');
    });

    it('leaves sites of other organizations alone, and needs the create role', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const other = await t.factories.organization();
      await other.owner.client.delete(sitePath(other, site.id)).expect(204);
      const reader = await t.factories.asMember(org, 'read');
      await reader.delete(sitePath(org, site.id)).expect(403);
      await org.owner.client.get(sitePath(org, site.id)).expect(200);
    });
  });

  describe('publishSite and unpublishSite', () => {
    it('publishes at the instance sites URL, then unpublishes keeping the settings', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const res = await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
      expectConforms(res, 'publishSite');
      expect(res.body).toMatchObject({
        published: true,
        urls: { published: `${TEST_PUBLIC_URL}/sites/${org.id}/${site.id}` },
      });
      const listed = await org.owner.client.get(`${sitesPath(org)}?published=true`).expect(200);
      expect(ids(listed.body)).toEqual([site.id]);

      await org.owner.client.patch(sitePath(org, site.id), { basename: 'docs' }).expect(200);
      const again = await org.owner.client.get(sitePath(org, site.id)).expect(200);
      expect(again.body.urls.published).toBe(`${TEST_PUBLIC_URL}/sites/${org.id}/docs`);

      const off = await org.owner.client.post(`${sitePath(org, site.id)}/unpublish`).expect(200);
      expectConforms(off, 'unpublishSite');
      expect(off.body).toMatchObject({ published: false, basename: 'docs' });
      expect(off.body.urls.published).toBeUndefined();
      // Publishing twice, or unpublishing an unpublished site, is not an error.
      await org.owner.client.post(`${sitePath(org, site.id)}/unpublish`).expect(200);
    });

    it("uses the organization's hostname, or the site's own hostname", async () => {
      const org = await t.factories.organization();
      const orgHostname = `acme-${unique()}`;
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { hostname: orgHostname }).expect(200);
      const site = await t.factories.later.site(org);
      await org.owner.client.patch(sitePath(org, site.id), { basename: 'api' }).expect(200);
      const res = await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
      expect(res.body.urls.published).toBe(`${TEST_PUBLIC_URL}/sites/${orgHostname}/api`);

      const hostname = `docs-${unique()}.example.com`;
      const custom = await org.owner.client.patch(sitePath(org, site.id), { hostname }).expect(200);
      expect(custom.body.urls.published).toBe(`https://${hostname}/api`);
      const proxied = await org.owner.client
        .patch(sitePath(org, site.id), { proxy: 'example.com/docs' })
        .expect(200);
      expect(proxied.body.urls.published).toBe('https://example.com/docs');
    });

    it('needs the create role and a site of the organization', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.post(`${sitePath(org, site.id)}/publish`).expect(403);
      await reader.post(`${sitePath(org, site.id)}/unpublish`).expect(403);
      await org.owner.client.post(`${sitePath(org, 'unknown')}/publish`).expect(404);
      await org.owner.client.post(`${sitePath(org, 'unknown')}/unpublish`).expect(404);
    });
  });

  describe('getPublishedContentSite', () => {
    async function shareLink(org: TestOrganization, siteId: string): Promise<string> {
      const link = await t.factories.shareLink(org, siteId, { name: 'Partners' });
      // The key is the path segment after the site's own URL.
      return new URL(link.urls.published as string).pathname.split('/').pop() as string;
    }

    it('gives members the site, its structure, customizations and scripts', async () => {
      const org = await t.factories.organization();
      const spaces = [
        (await t.factories.space(org, { title: 'Guide' })).id,
        (await t.factories.space(org, { title: 'API' })).id,
      ];
      const site = await t.factories.later.site(org, { spaces });
      const reader = await t.factories.asMember(org, 'read');
      // Unpublished: a preview for members.
      const res = await reader.get(`${sitePath(org, site.id)}/published`).expect(200);
      expectConforms(res, 'getPublishedContentSite');
      const body = res.body as PublishedBody;
      expect(body.object).toBe('published-content-site');
      expect(body.site).toMatchObject({ id: site.id, siteSpaces: 2 });
      expect(body.structure.type).toBe('siteSpaces');
      expect(body.structure.structure.map((s) => s.space.id)).toEqual(spaces);
      expect(body.customizations.site).toMatchObject({
        styling: { theme: 'clean' },
        trademark: { enabled: false },
      });
      expect(Object.keys(body.customizations.siteSpaces).sort()).toEqual(
        body.structure.structure.map((s) => s.id).sort(),
      );
      expect(body.scripts).toEqual([]);
    });

    it('opens published public and unlisted sites to anyone, others only to members', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.user();
      const guest = await t.factories.asMember(org, null);
      const site = await t.factories.later.site(org);
      const path = `${sitePath(org, site.id)}/published`;
      await stranger.client.get(path).expect(404);
      await guest.get(path).expect(404);
      await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
      const res = await stranger.client.get(path).expect(200);
      expectConforms(res, 'getPublishedContentSite');
      await guest.get(path).expect(200);
      await org.owner.client.patch(sitePath(org, site.id), { visibility: 'unlisted' }).expect(200);
      await stranger.client.get(path).expect(200);
      await org.owner.client
        .patch(sitePath(org, site.id), { visibility: 'visitor-auth' })
        .expect(200);
      await stranger.client.get(path).expect(404);
      await org.owner.client.get(path).expect(200);
      // Under another organization's path: not found, even for its owner.
      const other = await t.factories.organization();
      await other.owner.client.get(`${sitePath(other, site.id)}/published`).expect(404);
    });

    it('opens a published share-link site with an active share key, 404 otherwise', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org, { visibility: 'share-link' });
      const key = await shareLink(org, site.id);
      const stranger = await t.factories.user();
      const path = `${sitePath(org, site.id)}/published`;
      await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);

      await stranger.client.get(path).expect(404);
      const res = await stranger.client.get(`${path}?shareKey=${key}`).expect(200);
      expectConforms(res, 'getPublishedContentSite');
      expect((res.body as PublishedBody).site.id).toBe(site.id);
      // An unknown key is 404, for members too.
      await stranger.client.get(`${path}?shareKey=nope`).expect(404);
      await org.owner.client.get(`${path}?shareKey=nope`).expect(404);
      // The key of another site opens nothing here.
      const otherSite = await t.factories.later.site(org, { visibility: 'share-link' });
      const otherKey = await shareLink(org, otherSite.id);
      await stranger.client.get(`${path}?shareKey=${otherKey}`).expect(404);
      // Unpublished, the key opens nothing for non-members.
      await org.owner.client.post(`${sitePath(org, site.id)}/unpublish`).expect(200);
      await stranger.client.get(`${path}?shareKey=${key}`).expect(404);
    });

    it('answers 404 for an unknown site', async () => {
      const org = await t.factories.organization();
      await org.owner.client.get(`${sitePath(org, 'unknown')}/published`).expect(404);
    });
  });
});
