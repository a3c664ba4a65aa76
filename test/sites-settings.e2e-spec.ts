import { SiteShareLinksService } from '../src/sites/share-links/share-links.service';
import { createTestApp, TestApp } from './helpers/app';
import type { ShareLinkBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/** Site share links, adaptive schema and template conditions, site and site-space customization. */

const VISITOR_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'Whether the visitor tests beta features' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan of the visitor' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { prefersDark: { type: 'boolean', description: 'Prefers dark mode' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('site settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;

  describe('share links', () => {
    const linksPath = (org: TestOrganization, siteId: string) =>
      `${sitePath(org, siteId)}/share-links`;

    it('creates, lists, renames, deactivates and deletes share links', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      t.clock.advance(1000);
      const created = await org.owner.client
        .post(linksPath(org, siteId), { name: 'Partners' })
        .expect(201);
      expectConforms(created, 'createSiteShareLink');
      const link = created.body as ShareLinkBody;
      expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
      expect(created.headers.location).toBe(
        `${sitePath(org, siteId).replace('/v1', 'http://bindery.test/v1')}/share-links/${link.id}`,
      );
      const key = new URL(link.urls.published as string).pathname.split('/').pop();
      expect(key).toMatch(/^[\w-]{40,}$/);
      t.clock.advance(1000);
      const second = (await org.owner.client.post(linksPath(org, siteId), { name: '' }).expect(201))
        .body as ShareLinkBody;

      const list = await org.owner.client.get(linksPath(org, siteId)).expect(200);
      expectConforms(list, 'listSiteShareLinks');
      expect(list.body.items.map((l: ShareLinkBody) => l.id)).toEqual([link.id, second.id]);
      const paged = await org.owner.client.get(`${linksPath(org, siteId)}?limit=1`).expect(200);
      expect(paged.body.next).toBeDefined();

      const renamed = await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { name: 'Resellers' })
        .expect(200);
      expectConforms(renamed, 'updateSiteShareLinkById');
      expect(renamed.body).toMatchObject({ name: 'Resellers', active: true });
      const inactive = await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { active: false })
        .expect(200);
      expect(inactive.body).toMatchObject({ name: 'Resellers', active: false });
      expect(inactive.body.urls.published).toBe(link.urls.published);

      const deleted = await org.owner.client
        .delete(`${linksPath(org, siteId)}/${link.id}`)
        .expect(204);
      expectConforms(deleted, 'deleteSiteShareLinkById');
      await org.owner.client.delete(`${linksPath(org, siteId)}/${link.id}`).expect(204);
      const after = await org.owner.client.get(linksPath(org, siteId)).expect(200);
      expect(after.body.items.map((l: ShareLinkBody) => l.id)).toEqual([second.id]);
    });

    it('an inactive or deleted link no longer opens the site', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      await org.owner.client.patch(sitePath(org, siteId), { visibility: 'share-link' }).expect(200);
      await org.owner.client.post(`${sitePath(org, siteId)}/publish`).expect(200);
      const link = (
        await org.owner.client.post(linksPath(org, siteId), { name: 'Beta' }).expect(201)
      ).body as ShareLinkBody;
      const key = new URL(link.urls.published as string).pathname.split('/').pop() as string;
      const stranger = await t.factories.user();
      const published = `${sitePath(org, siteId)}/published?shareKey=${key}`;
      await stranger.client.get(published).expect(200);
      await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { active: false })
        .expect(200);
      await stranger.client.get(published).expect(404);
      await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { active: true })
        .expect(200);
      await stranger.client.get(published).expect(200);
      await org.owner.client.delete(`${linksPath(org, siteId)}/${link.id}`).expect(204);
      await stranger.client.get(published).expect(404);
    });

    it('keeps keys out of the database in clear: a hash finds the link, a sealed copy shows it', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      await org.owner.client.patch(sitePath(org, siteId), { visibility: 'share-link' }).expect(200);
      await org.owner.client.post(`${sitePath(org, siteId)}/publish`).expect(200);
      const link = (
        await org.owner.client.post(linksPath(org, siteId), { name: 'Sealed' }).expect(201)
      ).body as ShareLinkBody;
      const key = new URL(link.urls.published as string).pathname.split('/').pop() as string;
      const [row] = await t.dataSource.query(
        'SELECT row_to_json(l)::text AS row FROM site_share_links l WHERE id = $1',
        [link.id],
      );
      expect(row.row).not.toContain(key);
      const listed = await org.owner.client.get(linksPath(org, siteId)).expect(200);
      expect(listed.body.items[0].urls.published).toBe(link.urls.published);
      const stranger = await t.factories.user();
      await stranger.client.get(`${sitePath(org, siteId)}/published?shareKey=${key}`).expect(200);

      // A link made before keys were sealed keeps working, and the next start seals its key.
      const legacyKey = 'legacy-share-key-0123456789abcdef0123456789';
      await t.dataSource.query(
        `INSERT INTO site_share_links (id, site_id, key, key_hash, key_sealed, name, active, created_at)
         VALUES ('legacyLink0000000000', $1, $2::text, encode(sha256(convert_to($2::text, 'UTF8')), 'hex'),
                 NULL, 'Old', true, now())`,
        [siteId, legacyKey],
      );
      await stranger.client
        .get(`${sitePath(org, siteId)}/published?shareKey=${legacyKey}`)
        .expect(200);
      await t.bindery.app.get(SiteShareLinksService).onApplicationBootstrap();
      const [sealed] = await t.dataSource.query(
        `SELECT key, key_sealed FROM site_share_links WHERE id = 'legacyLink0000000000'`,
      );
      expect(sealed.key).toBeNull();
      expect(sealed.key_sealed).not.toContain(legacyKey);
      const all = await org.owner.client.get(linksPath(org, siteId)).expect(200);
      const old = (all.body.items as ShareLinkBody[]).find((l) => l.id === 'legacyLink0000000000');
      expect(old?.urls.published).toMatch(new RegExp(`/${legacyKey}$`));
      await stranger.client
        .get(`${sitePath(org, siteId)}/published?shareKey=${legacyKey}`)
        .expect(200);
    });

    it.each([
      [{}, /name is required/],
      [{ name: 'x'.repeat(51) }, /name must be shorter than or equal to 50/],
    ])('answers 400 to a creation with %j', async (body, message) => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const res = await org.owner.client.post(linksPath(org, siteId), body).expect(400);
      expect(res.body.error.message).toMatch(message);
    });

    it('answers 400 to an empty or bad update, 404 to an unknown link or site', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const link = (await org.owner.client.post(linksPath(org, siteId), { name: 'A' }).expect(201))
        .body as ShareLinkBody;
      await org.owner.client.patch(`${linksPath(org, siteId)}/${link.id}`, {}).expect(400);
      await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { active: 'no' })
        .expect(400);
      await org.owner.client.patch(`${linksPath(org, siteId)}/unknown`, { name: 'B' }).expect(404);
      await org.owner.client.get(linksPath(org, 'unknown')).expect(404);
      await org.owner.client.post(linksPath(org, 'unknown'), { name: 'B' }).expect(404);
      // A link of another site of the organization is not found through this one.
      const { id: otherSite } = await t.factories.later.site(org);
      await org.owner.client
        .patch(`${linksPath(org, otherSite)}/${link.id}`, { name: 'B' })
        .expect(404);
    });

    it('needs the create role, even to list (the links hold secrets)', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.get(linksPath(org, siteId)).expect(403);
      await reader.post(linksPath(org, siteId), { name: 'Mine' }).expect(403);
      const creator = await t.factories.asMember(org, 'create');
      await creator.post(linksPath(org, siteId), { name: 'Ours' }).expect(201);
      const other = await t.factories.organization();
      await other.owner.client.get(linksPath(other, siteId)).expect(404);
    });
  });

  describe('adaptive schema', () => {
    const schemaPath = (org: TestOrganization, siteId: string) =>
      `${sitePath(org, siteId)}/adaptive-schema`;

    it('is 404 before the first PUT, then what was PUT', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      await org.owner.client.get(schemaPath(org, siteId)).expect(404);
      const empty = await org.owner.client
        .get(`${schemaPath(org, siteId)}/template-conditions`)
        .expect(200);
      expectConforms(empty, 'listSiteAdaptiveTemplateConditions');
      expect(empty.body).toEqual({ items: [] });

      t.clock.set('2025-03-01T10:00:00.000Z');
      const put = await org.owner.client
        .put(schemaPath(org, siteId), { jsonSchema: VISITOR_SCHEMA })
        .expect(200);
      expectConforms(put, 'updateSiteAdaptiveSchema');
      expect(put.body).toEqual({
        object: 'site-adaptive-schema',
        jsonSchema: VISITOR_SCHEMA,
        updatedAt: '2025-03-01T10:00:00.000Z',
      });
      const reader = await t.factories.asMember(org, 'read');
      const got = await reader.get(schemaPath(org, siteId)).expect(200);
      expectConforms(got, 'getSiteAdaptiveSchema');
      expect(got.body).toEqual(put.body);
    });

    it('derives template conditions from the claims', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      await org.owner.client
        .put(schemaPath(org, siteId), { jsonSchema: VISITOR_SCHEMA })
        .expect(200);
      const res = await org.owner.client
        .get(`${schemaPath(org, siteId)}/template-conditions`)
        .expect(200);
      expectConforms(res, 'listSiteAdaptiveTemplateConditions');
      expect(res.body.items).toEqual([
        {
          description: 'Whether the visitor tests beta features',
          condition: 'visitor.claims.isBetaUser === true',
        },
        { description: 'Plan of the visitor: free', condition: 'visitor.claims.plan === "free"' },
        { description: 'Plan of the visitor: pro', condition: 'visitor.claims.plan === "pro"' },
        {
          description: 'Prefers dark mode',
          condition: 'visitor.claims.unsigned.prefersDark === true',
        },
      ]);
    });

    it.each([
      [{ ...VISITOR_SCHEMA, type: 'array' }, /jsonSchema.type must be "object"/],
      [{ ...VISITOR_SCHEMA, additionalProperties: true }, /additionalProperties must be false/],
      [
        { ...VISITOR_SCHEMA, properties: { isBetaUser: { type: 'boolean' } } },
        /jsonSchema.properties.isBetaUser.description is required/,
      ],
      [
        { ...VISITOR_SCHEMA, properties: { x: { type: 'date', description: 'x' } } },
        /jsonSchema.properties.x.type must be one of/,
      ],
      [{ ...VISITOR_SCHEMA, $schema: 'http://json-schema.org/draft-04/schema#' }, /draft-07/],
    ])('answers 400 naming what is wrong (%#)', async (jsonSchema, message) => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const res = await org.owner.client.put(schemaPath(org, siteId), { jsonSchema }).expect(400);
      expect(res.body.error.message).toMatch(message);
      await org.owner.client.get(schemaPath(org, siteId)).expect(404);
    });

    it('answers 400 without a jsonSchema object', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      await org.owner.client.put(schemaPath(org, siteId), {}).expect(400);
      await org.owner.client.put(schemaPath(org, siteId), { jsonSchema: 'x' }).expect(400);
    });

    it('needs the create role to change it, 404 for an unknown site', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.put(schemaPath(org, siteId), { jsonSchema: VISITOR_SCHEMA }).expect(403);
      await org.owner.client
        .put(schemaPath(org, 'unknown'), { jsonSchema: VISITOR_SCHEMA })
        .expect(404);
      await org.owner.client.get(schemaPath(org, 'unknown')).expect(404);
      await org.owner.client.get(`${schemaPath(org, 'unknown')}/template-conditions`).expect(404);
    });
  });

  describe('site customization', () => {
    const customizationPath = (org: TestOrganization, siteId: string) =>
      `${sitePath(org, siteId)}/customization`;

    it('answers the defaults until customized, then the written settings completed', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const defaults = await org.owner.client.get(customizationPath(org, siteId)).expect(200);
      expectConforms(defaults, 'getSiteCustomizationById');
      expect(defaults.body).toMatchObject({
        styling: { theme: 'clean', font: 'Inter' },
        themes: { default: 'light', toggeable: true },
        ai: { mode: 'none' },
      });

      const put = await org.owner.client
        .put(customizationPath(org, siteId), {
          title: 'Acme Docs',
          styling: { theme: 'bold', primaryColor: { light: '#ff0000', dark: '#00ff00' } },
          themes: { default: 'dark', toggeable: false },
          announcement: { enabled: true, message: 'New release', style: 'success' },
          header: {
            preset: 'default',
            links: [
              {
                title: 'Beta',
                to: { kind: 'url', url: 'https://example.com/beta' },
                links: [],
                condition: 'visitor.claims.isBetaUser === true',
              },
            ],
          },
        })
        .expect(200);
      expectConforms(put, 'updateSiteCustomizationById');
      expect(put.body).toMatchObject({
        title: 'Acme Docs',
        styling: { theme: 'bold', primaryColor: { light: '#ff0000' }, font: 'Inter' },
        themes: { default: 'dark', toggeable: false },
      });
      const reader = await t.factories.asMember(org, 'read');
      const got = await reader.get(customizationPath(org, siteId)).expect(200);
      expectConforms(got, 'getSiteCustomizationById');
      expect(got.body).toEqual(put.body);

      // PUT replaces: what is left out goes back to its default.
      const replaced = await org.owner.client
        .put(customizationPath(org, siteId), { styling: { corners: 'straight' } })
        .expect(200);
      expect(replaced.body.title).toBeUndefined();
      expect(replaced.body.styling).toMatchObject({ theme: 'clean', corners: 'straight' });
    });

    it.each([
      [{ styling: { theme: 'neon' } }, /styling.theme must be one of/],
      [{ styling: { primaryColor: { light: 'red', dark: '#000' } } }, /primaryColor.light/],
      [{ themes: { default: 'sepia', toggeable: true } }, /themes.default must be one of/],
      [{ announcement: { enabled: true, message: 'x', style: 'info' } }, /announcement.message/],
      [{ favicon: { emoji: '🎉', icon: {} } }, /favicon/],
      [{ colour: 'blue' }, /unknown property colour/],
      [
        {
          header: {
            preset: 'default',
            links: [{ title: 'x', to: null, links: [], condition: 'visitor.claims.a ===' }],
          },
        },
        /header.links.0.condition/,
      ],
    ])('answers 400 to %j', async (body, message) => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const res = await org.owner.client.put(customizationPath(org, siteId), body).expect(400);
      expect(res.body.error.message).toMatch(message);
    });

    it('needs the create role to change it, 404 for an unknown site', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.put(customizationPath(org, siteId), {}).expect(403);
      await org.owner.client.get(customizationPath(org, 'unknown')).expect(404);
      await org.owner.client.put(customizationPath(org, 'unknown'), {}).expect(404);
    });
  });

  describe('site space customization', () => {
    async function siteWithSpaces(org: TestOrganization): Promise<{
      siteId: string;
      siteSpaceIds: string[];
    }> {
      const { id: siteId } = await t.factories.later.site(org, {
        spaces: [
          (await t.factories.space(org, { title: 'Guide' })).id,
          (await t.factories.space(org, { title: 'API' })).id,
        ],
      });
      const structure = await org.owner.client.get(`${sitePath(org, siteId)}/structure`);
      return {
        siteId,
        siteSpaceIds: (structure.body as { structure: { id: string }[] }).structure.map(
          (s) => s.id,
        ),
      };
    }
    const overridePath = (org: TestOrganization, siteId: string, siteSpaceId: string) =>
      `${sitePath(org, siteId)}/site-spaces/${siteSpaceId}/customization`;

    it("overrides the site's customization for one site space, and resets it", async () => {
      const org = await t.factories.organization();
      const { siteId, siteSpaceIds } = await siteWithSpaces(org);
      const [first, second] = siteSpaceIds;
      await org.owner.client
        .put(`${sitePath(org, siteId)}/customization`, { styling: { theme: 'muted' } })
        .expect(200);

      const inherited = await org.owner.client.get(overridePath(org, siteId, first)).expect(200);
      expectConforms(inherited, 'getSiteSpaceCustomizationById');
      expect(inherited.body.styling.theme).toBe('muted');

      const patched = await org.owner.client
        .patch(overridePath(org, siteId, first), {
          title: 'API docs',
          styling: { theme: 'gradient', sidebar: { list: 'pill' } },
        })
        .expect(200);
      expectConforms(patched, 'overrideSiteSpaceCustomizationById');
      expect(patched.body).toMatchObject({
        title: 'API docs',
        styling: { theme: 'gradient', sidebar: { background: 'default', list: 'pill' } },
      });
      // The other site space, and the site, are unchanged.
      const other = await org.owner.client.get(overridePath(org, siteId, second)).expect(200);
      expect(other.body.styling.theme).toBe('muted');

      // The site's later changes show through where there is no override.
      await org.owner.client
        .put(`${sitePath(org, siteId)}/customization`, {
          styling: { theme: 'muted', corners: 'circular' },
        })
        .expect(200);
      const published = await org.owner.client
        .get(`${sitePath(org, siteId)}/published`)
        .expect(200);
      expectConforms(published, 'getPublishedContentSite');
      expect(published.body.customizations.siteSpaces[first].styling).toMatchObject({
        theme: 'gradient',
        corners: 'circular',
      });
      expect(published.body.customizations.siteSpaces[second].styling.theme).toBe('muted');

      // null removes one override; DELETE removes them all.
      const partly = await org.owner.client
        .patch(overridePath(org, siteId, first), { styling: { theme: null } })
        .expect(200);
      expect(partly.body.styling.theme).toBe('muted');
      expect(partly.body.title).toBe('API docs');
      const reset = await org.owner.client.delete(overridePath(org, siteId, first)).expect(204);
      expectConforms(reset, 'deleteSiteSpaceCustomizationById');
      const after = await org.owner.client.get(overridePath(org, siteId, first)).expect(200);
      expect(after.body.title).toBeUndefined();
      expect(after.body.styling.sidebar.list).toBe('default');
      await org.owner.client.delete(overridePath(org, siteId, first)).expect(204);
    });

    it('answers 400 to invalid overrides, 404 to unknown site spaces, 403 to readers', async () => {
      const org = await t.factories.organization();
      const { siteId, siteSpaceIds } = await siteWithSpaces(org);
      const path = overridePath(org, siteId, siteSpaceIds[0]);
      const bad = await org.owner.client.patch(path, { styling: { theme: 'neon' } }).expect(400);
      expect(bad.body.error.message).toMatch(/styling.theme must be one of/);
      const unknown = await org.owner.client.patch(path, { ai: { mode: 'none' } }).expect(400);
      expect(unknown.body.error.message).toMatch(/ai cannot be overridden/);
      await org.owner.client.patch(path, []).expect(400);

      await org.owner.client.get(overridePath(org, siteId, 'unknown')).expect(404);
      await org.owner.client.patch(overridePath(org, siteId, 'unknown'), {}).expect(404);
      await org.owner.client.delete(overridePath(org, siteId, 'unknown')).expect(404);
      const { id: otherSite } = await t.factories.later.site(org);
      await org.owner.client.get(overridePath(org, otherSite, siteSpaceIds[0])).expect(404);

      const reader = await t.factories.asMember(org, 'read');
      await reader.get(path).expect(200);
      await reader.patch(path, { title: 'Mine' }).expect(403);
      await reader.delete(path).expect(403);
    });
  });
});
