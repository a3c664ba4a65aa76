import { sign } from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { SiteBody, SiteSpaceBody } from './helpers/bodies';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * The published side: the URL lookup (`resolvePublishedContentByUrl`) and what its site token
 * reads, for public, share-link, visitor-auth and adaptive sites.
 */

const SITES = 'http://docs.localhost/{organization}';

interface Lookup {
  site: string;
  siteSpace: string;
  siteSection?: string;
  space: string;
  organization: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  canonicalUrl: string;
  complete: boolean;
  apiToken: string;
  shareKey?: string;
  contextId?: string;
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

describe('published content', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
  });
  afterAll(() => t.close());

  const lookup = (url: string, extra: object = {}) =>
    t.anonymous.post('/v1/urls/published', { url, visitor: { unsignedClaims: {} }, ...extra });

  /** A published site of a new organization with site spaces of new spaces, titled as given. */
  async function publishedSite(
    titles: string[],
    fields: { visibility?: string } = {},
  ): Promise<{ org: TestOrganization; site: SiteBody; siteSpaces: SiteSpaceBody[]; url: string }> {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, fields);
    const siteSpaces: SiteSpaceBody[] = [];
    for (const title of titles) {
      siteSpaces.push(await t.factories.siteSpace(org, site.id, { spaceTitle: title }));
    }
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`).expect(200);
    return { org, site, siteSpaces, url: `https://docs.localhost/${org.id}/${site.id}` };
  }

  describe('resolvePublishedContentByUrl', () => {
    it('resolves the site root, a site space path and a page path', async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'API']);
      const [guides, api] = siteSpaces;

      const root = await lookup(url).expect(200);
      expectConforms(root, 'resolvePublishedContentByUrl', GITBOOK_0201);
      const base = `/${org.id}/${site.id}/`;
      expect(root.body).toMatchObject({
        site: site.id,
        organization: org.id,
        siteSpace: guides.id,
        space: guides.space.id,
        pathname: '',
        basePath: base,
        siteBasePath: base,
        canonicalUrl: url,
        // Another site space could still follow in the URL.
        complete: false,
      });
      expect(root.body.siteSection).toBeUndefined();

      const inApi = await lookup(`${url}/${api.path}/reference/auth`).expect(200);
      expect(inApi.body).toMatchObject({
        siteSpace: api.id,
        space: api.space.id,
        pathname: 'reference/auth',
        basePath: `${base}${api.path}/`,
        siteBasePath: base,
        canonicalUrl: `${url}/${api.path}/reference/auth`,
        complete: true,
      });

      const page = await lookup(`${url}/getting-started`).expect(200);
      expect(page.body).toMatchObject({
        siteSpace: guides.id,
        pathname: 'getting-started',
        basePath: base,
        complete: true,
      });
    });

    it('gives a stable site token with GitBook SiteAPIToken claims', async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'API']);
      const first = (await lookup(url).expect(200)).body as Lookup;
      const second = (await lookup(`${url}/x`).expect(200)).body as Lookup;
      expect(second.apiToken).toBe(first.apiToken);
      const claims = claimsOf(first.apiToken);
      expect(claims).toMatchObject({
        kind: 'site',
        organization: org.id,
        site: site.id,
        siteSpace: siteSpaces[0].id,
        space: siteSpaces[0].space.id,
      });
      expect((claims.spaces as string[]).sort()).toEqual(
        siteSpaces.map((siteSpace) => siteSpace.space.id).sort(),
      );
      expect(claims.iat).toBeUndefined();
      const lifetime = (claims.exp as number) * 1000 - t.clock.now().getTime();
      expect(lifetime).toBeGreaterThanOrEqual(60 * 60 * 1000);
      expect(lifetime).toBeLessThanOrEqual(25 * 60 * 60 * 1000 + 5 * 60 * 1000);
    });

    it('answers the GET form and accepts unknown body fields such as cacheBust', async () => {
      const { site, url } = await publishedSite(['Guides']);
      const got = await t.anonymous
        .get(`/v1/urls/published?url=${encodeURIComponent(url)}`)
        .expect(200);
      expectConforms(got, 'getPublishedContentByUrl', GITBOOK_0201);
      // One site space: nothing else can follow the site's path.
      expect(got.body).toMatchObject({ site: site.id, complete: true });
      await lookup(url, { cacheBust: 'x1', redirectOnError: false }).expect(200);
    });

    it('is 404 for unknown sites, organization-only prefixes and unpublished sites', async () => {
      const { org, site, url } = await publishedSite(['Guides']);
      const unknown = await lookup(`https://docs.localhost/${org.id}/nope`).expect(404);
      expectConforms(unknown, 'resolvePublishedContentByUrl', GITBOOK_0201);
      expect(unknown.body.error.message).toBe('No content found for the URL.');
      await lookup(`https://docs.localhost/${org.id}`).expect(404);
      await lookup('https://docs.localhost/').expect(404);
      await lookup('https://elsewhere.example.com/a/b').expect(404);
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/unpublish`).expect(200);
      await lookup(url).expect(404);
    });

    it('keeps answers for moments, and drops them when the site changes', async () => {
      const { org, site, url } = await publishedSite(['Guides']);
      const first = await lookup(`${url}/install`).expect(200);
      // Changed behind the API's back (another process, say): the answer is kept a while.
      await t.dataSource.query('UPDATE sites SET published = false WHERE id = $1', [site.id]);
      const cached = await lookup(`${url}/install`).expect(200);
      expect(cached.body).toEqual(first.body);
      // A change made through the API drops what the process kept.
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}`, { title: 'Renamed' })
        .expect(200);
      await lookup(`${url}/install`).expect(404);
    });

    it('refuses what is not a URL, with the error shape', async () => {
      for (const body of [{ url: '/relative' }, { url: 'ftp://x/y' }, {}, { url: 42 }]) {
        const res = await t.anonymous.post('/v1/urls/published', body).expect(400);
        expect(res.body.error).toMatchObject({ code: 400, message: expect.any(String) });
      }
      const res = await t.anonymous
        .post('/v1/urls/published', {
          url: 'https://docs.localhost/a/b',
          visitor: { unsignedClaims: { big: 'x'.repeat(5000) } },
        })
        .expect(400);
      expect(res.body.error.message).toMatch(/unsignedClaims/);
    });

    it('resolves a custom hostname, with or without a basename', async () => {
      const { org, site, siteSpaces } = await publishedSite(['Guides']);
      const host = `docs-${randomBytes(4).toString('hex')}.example.com`;
      // Its DNS points at Bindery: the hostname is live (custom-hostnames.e2e-spec.ts for the rest).
      t.dns.cname(host, new URL(TEST_PUBLIC_URL).hostname);
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}`, { hostname: host })
        .expect(200);
      const atRoot = await lookup(`https://${host}/install`).expect(200);
      expect(atRoot.body).toMatchObject({
        site: site.id,
        siteSpace: siteSpaces[0].id,
        siteBasePath: '/',
        basePath: '/',
        pathname: 'install',
        canonicalUrl: `https://${host}/install`,
      });
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}`, { basename: 'handbook' })
        .expect(200);
      const under = await lookup(`https://${host}/handbook/install`).expect(200);
      expect(under.body).toMatchObject({ siteBasePath: '/handbook/', pathname: 'install' });
      await lookup(`https://${host}/install`).expect(404);
    });

    it('resolves sections, and their variants by path', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const docs = await t.factories.siteSection(org, site.id, { spaceTitle: 'Docs' });
      const api = await t.factories.siteSection(org, site.id, { spaceTitle: 'API' });
      const v2 = await t.factories.siteSpace(org, site.id, {
        sectionId: api.id,
        spaceTitle: 'Version 2',
      });
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`).expect(200);
      const url = `https://docs.localhost/${org.id}/${site.id}`;

      const root = await lookup(url).expect(200);
      expect(root.body).toMatchObject({ siteSection: docs.id, complete: false, pathname: '' });
      const section = await lookup(`${url}/${api.path}`).expect(200);
      // The API section has two variants: a variant's path may still follow.
      expect(section.body).toMatchObject({ siteSection: api.id, complete: false });
      const variant = await lookup(`${url}/${api.path}/${v2.path}/auth`).expect(200);
      expect(variant.body).toMatchObject({
        siteSection: api.id,
        siteSpace: v2.id,
        basePath: `/${org.id}/${site.id}/${api.path}/${v2.path}/`,
        pathname: 'auth',
        complete: true,
      });
      expectConforms(variant, 'resolvePublishedContentByUrl', GITBOOK_0201);
    });
  });

  describe('site token', () => {
    it('reads the published site, its spaces and their current revision', async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'API']);
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const reader = t.as(apiToken);

      const published = await reader
        .get(`/v1/orgs/${org.id}/sites/${site.id}/published`)
        .expect(200);
      expect(published.body.structure.structure.map((s: SiteSpaceBody) => s.id)).toEqual(
        siteSpaces.map((siteSpace) => siteSpace.id),
      );
      const space = await reader.get(`/v1/spaces/${siteSpaces[1].space.id}`).expect(200);
      expectConforms(space, 'getSpaceById');
      const revision = await reader
        .get(`/v1/spaces/${space.body.id}/revisions/${space.body.revision}?metadata=true`)
        .expect(200);
      expectConforms(revision, 'getRevisionById');
      await reader.get(`/v1/spaces/${space.body.id}/content`).expect(200);
    });

    it('reads the revisions a renderer may still hold after a merge, not a change request', async () => {
      const { org, siteSpaces, url } = await publishedSite(['Guides']);
      const spaceId = siteSpaces[0].space.id;
      const before = await org.owner.client.get(`/v1/spaces/${spaceId}`).expect(200);
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const merged = await t.factories.changeRequest(org, spaceId, {
        changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'New.' } }],
        merge: true,
      });
      const open = await t.factories.changeRequest(org, spaceId, {
        changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft.' } }],
      });
      const reader = t.as(apiToken);
      const after = await reader.get(`/v1/spaces/${spaceId}`).expect(200);
      expect(after.body.revision).not.toBe(before.body.revision);
      // The revision the renderer cached with the space before the merge: still readable.
      await reader.get(`/v1/spaces/${spaceId}/revisions/${before.body.revision}`).expect(200);
      await reader.get(`/v1/spaces/${spaceId}/revisions/${after.body.revision}`).expect(200);
      // A change request's revisions are not published content.
      expect(merged.revision).toBeDefined();
      await reader.get(`/v1/spaces/${spaceId}/revisions/${open.revision}`).expect(404);
      await org.owner.client.get(`/v1/spaces/${spaceId}/revisions/${open.revision}`).expect(200);
    });

    it('gives files download URLs that outlive a renderer cache, the same all day', async () => {
      const { org, siteSpaces, url } = await publishedSite(['Guides']);
      const spaceId = siteSpaces[0].space.id;
      await t.factories.changeRequest(org, spaceId, {
        changes: [
          {
            operation: 'insert_files',
            files: [
              {
                name: 'logo.png',
                contentType: 'image/png',
                base64: Buffer.from('not really a png').toString('base64'),
              },
            ],
          },
        ],
        merge: true,
      });
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const read = async () => {
        const files = await t.as(apiToken).get(`/v1/spaces/${spaceId}/content/files`).expect(200);
        return new URL(files.body.items[0].downloadURL as string);
      };
      const first = await read();
      t.clock.advance(60 * 1000);
      const second = await read();
      expect(second.toString()).toBe(first.toString());
      const expires = Number(first.searchParams.get('expires')) * 1000;
      expect(expires - t.clock.now().getTime()).toBeGreaterThan(31 * 24 * 60 * 60 * 1000);
      // Members still get short-lived URLs.
      const member = await org.owner.client.get(`/v1/spaces/${spaceId}/content/files`).expect(200);
      const short = Number(new URL(member.body.items[0].downloadURL).searchParams.get('expires'));
      expect(short * 1000 - t.clock.now().getTime()).toBeLessThanOrEqual(60 * 60 * 1000);
      // And the long one downloads, with no token.
      await t.anonymous.get(`${first.pathname.replace(/^\/?/, '/')}${first.search}`).expect(200);
    });

    it('reads nothing else: no writes, no other space, site or organization route', async () => {
      const { org, site, url } = await publishedSite(['Guides']);
      const { apiToken, space } = (await lookup(url).expect(200)).body as Lookup;
      const reader = t.as(apiToken);
      const elsewhere = await t.factories.space(org, { title: 'Internal' });
      await reader.get(`/v1/spaces/${elsewhere.id}`).expect(404);
      await reader.get(`/v1/spaces/${space}/revisions/nope`).expect(404);
      await reader.patch(`/v1/spaces/${space}`, { title: 'Hacked' }).expect(403);
      await reader.get(`/v1/orgs/${org.id}`).expect(403);
      await reader.get(`/v1/orgs/${org.id}/sites/${site.id}`).expect(403);
      await reader.get(`/v1/spaces/${space}/change-requests`).expect(403);
      await reader.get('/v1/user').expect(403);

      const other = await publishedSite(['Other']);
      await reader.get(`/v1/orgs/${other.org.id}/sites/${other.site.id}/published`).expect(404);
      await reader.get(`/v1/spaces/${other.siteSpaces[0].space.id}`).expect(404);
    });

    it("reads the members of the site's organization, without their email", async () => {
      const { org, url } = await publishedSite(['Guides']);
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const member = await t.as(apiToken).get(`/v1/users/${org.owner.id}`).expect(200);
      expectConforms(member, 'getUserById');
      expect(member.body).toMatchObject({ id: org.owner.id, displayName: expect.any(String) });
      expect(member.body.email).toBeUndefined();
      const stranger = await t.factories.user();
      await t.as(apiToken).get(`/v1/users/${stranger.id}`).expect(404);
      // Members still see one another's email.
      const seen = await org.owner.client.get(`/v1/users/${org.owner.id}`).expect(200);
      expect(seen.body.email).toEqual(expect.any(String));
    });

    it('is 401 when tampered, signed with another key, or expired', async () => {
      const { org, site, url } = await publishedSite(['Guides']);
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const path = `/v1/orgs/${org.id}/sites/${site.id}/published`;
      const [header, payload, signature] = apiToken.split('.');
      const widened = Buffer.from(
        JSON.stringify({ ...claimsOf(apiToken), spaces: ['everything'] }),
      ).toString('base64url');
      await t.as(`${header}.${widened}.${signature}`).get(path).expect(401);
      const forged = sign({ ...claimsOf(apiToken) }, 'not-the-key', { algorithm: 'HS256' });
      await t.as(forged).get(path).expect(401);
      expect(payload).toBeTruthy();
      t.clock.advance(26 * 60 * 60 * 1000);
      const expired = await t.as(apiToken).get(path).expect(401);
      expect(expired.body.error.message).toMatch(/not valid|expired/);
    });

    it('stops reading a site that was unpublished or a space removed from it', async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'API']);
      const { apiToken } = (await lookup(url).expect(200)).body as Lookup;
      const reader = t.as(apiToken);
      await org.owner.client
        .delete(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${siteSpaces[1].id}`)
        .expect(204);
      await reader.get(`/v1/spaces/${siteSpaces[1].space.id}`).expect(404);
      await reader.get(`/v1/spaces/${siteSpaces[0].space.id}`).expect(200);
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/unpublish`).expect(200);
      await reader.get(`/v1/spaces/${siteSpaces[0].space.id}`).expect(404);
      await reader.get(`/v1/orgs/${org.id}/sites/${site.id}/published`).expect(404);
    });
  });

  describe('share links', () => {
    it('opens a share-link site with an active key in the path only', async () => {
      const { org, site, url } = await publishedSite(['Guides'], { visibility: 'share-link' });
      const link = await t.factories.shareLink(org, site.id, { name: 'Partners' });
      const key = link.urls.published!.split('/').pop()!;
      expect(link.urls.published).toBe(`${url.replace('https:', 'http:')}/${key}`);

      await lookup(url).expect(404);
      await lookup(`${url}/not-a-key/page`).expect(404);
      const res = await lookup(`${url}/${key}/install`).expect(200);
      expectConforms(res, 'resolvePublishedContentByUrl', GITBOOK_0201);
      expect(res.body).toMatchObject({
        shareKey: key,
        siteBasePath: `/${org.id}/${site.id}/${key}/`,
        basePath: `/${org.id}/${site.id}/${key}/`,
        pathname: 'install',
        canonicalUrl: `${url}/${key}/install`,
      });
      const reader = t.as(res.body.apiToken);
      await reader.get(`/v1/orgs/${org.id}/sites/${site.id}/published`).expect(200);

      // Deactivated: the key opens nothing, and tokens made with it read nothing.
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}/share-links/${link.id}`, { active: false })
        .expect(200);
      await lookup(`${url}/${key}`).expect(404);
      await reader.get(`/v1/orgs/${org.id}/sites/${site.id}/published`).expect(404);
      await reader.get(`/v1/spaces/${res.body.space}`).expect(404);
    });
  });

  describe('adaptive content', () => {
    const SCHEMA = {
      type: 'object',
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Beta tester' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };

    it('hides a site space whose condition the visitor does not meet, everywhere', async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'Beta']);
      const [guides, beta] = siteSpaces;
      const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
      await org.owner.client.put(`${sitePath}/adaptive-schema`, { jsonSchema: SCHEMA }).expect(200);
      await org.owner.client
        .patch(`${sitePath}/site-spaces/${beta.id}`, {
          condition: 'visitor.claims.unsigned.beta === true',
        })
        .expect(200);

      // Without the claim: the beta path is a page path of the default site space.
      const plain = (await lookup(`${url}/${beta.path}`).expect(200)).body as Lookup;
      expect(plain).toMatchObject({ siteSpace: guides.id, pathname: beta.path, complete: true });
      expect(plain.contextId).toBeUndefined();
      expect(claimsOf(plain.apiToken).spaces).toEqual([guides.space.id]);
      const root = (await lookup(url).expect(200)).body as Lookup;
      expect(root.complete).toBe(true);
      const reader = t.as(plain.apiToken);
      const published = await reader.get(`${sitePath}/published`).expect(200);
      expect(published.body.structure.structure.map((s: SiteSpaceBody) => s.id)).toEqual([
        guides.id,
      ]);
      expect(JSON.stringify(published.body)).not.toContain(beta.space.id);
      await reader.get(`/v1/spaces/${beta.space.id}`).expect(404);

      // With it: the beta site space exists.
      const tester = (
        await lookup(`${url}/${beta.path}/intro`, {
          visitor: { unsignedClaims: { beta: true, ignored: 'x' } },
        }).expect(200)
      ).body as Lookup;
      expect(tester).toMatchObject({ siteSpace: beta.id, pathname: 'intro' });
      expect(tester.contextId).toEqual(expect.any(String));
      expect(claimsOf(tester.apiToken).claims).toEqual({ unsigned: { beta: true } });
      const testerView = await t.as(tester.apiToken).get(`${sitePath}/published`).expect(200);
      expect(testerView.body.structure.structure).toHaveLength(2);
      await t.as(tester.apiToken).get(`/v1/spaces/${beta.space.id}`).expect(200);

      // A claim of the wrong type is dropped: the visitor sees what one without it sees.
      const wrong = await lookup(`${url}/${beta.path}`, {
        visitor: { unsignedClaims: { beta: 'true' } },
      }).expect(200);
      expect(wrong.body.siteSpace).toBe(guides.id);
    });

    it("reads signed claims from a member's docsVisitorClaims on the organization's sites", async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'Staff']);
      const [, staff] = siteSpaces;
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${staff.id}`, {
          condition: 'visitor.claims.role === "admin"',
        })
        .expect(200);
      const ping = await org.owner.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
      const jwtToken = ping.body.docsVisitorClaims as string;
      const member = await lookup(`${url}/${staff.path}`, {
        visitor: { jwtToken, unsignedClaims: {} },
      }).expect(200);
      expect(member.body.siteSpace).toBe(staff.id);
      const anonymous = await lookup(`${url}/${staff.path}`).expect(200);
      expect(anonymous.body.siteSpace).toBe(siteSpaces[0].id);
      // Claims of another organization's member open nothing here.
      const other = await t.factories.organization();
      const theirs = await other.owner.client.post(`/v1/orgs/${other.id}/ping`).expect(200);
      const stranger = await lookup(`${url}/${staff.path}`, {
        visitor: { jwtToken: theirs.body.docsVisitorClaims, unsignedClaims: {} },
      }).expect(200);
      expect(stranger.body.siteSpace).toBe(siteSpaces[0].id);
    });
  });

  describe('page conditions', () => {
    it('leaves pages out of what a visitor who does not meet their condition reads', async () => {
      const { org, url, siteSpaces } = await publishedSite(['Guides']);
      const spaceId = siteSpaces[0].space.id;
      await t.factories.changeRequest(org, spaceId, {
        changes: [
          { operation: 'insert_page', title: 'Open', document: { markdown: 'For all.' } },
          {
            operation: 'insert_page',
            title: 'Beta',
            condition: 'visitor.claims.unsigned.beta === true',
            document: { markdown: 'For testers.' },
          },
        ],
        merge: true,
      });
      const bad = await org.owner.client
        .post(`/v1/spaces/${spaceId}/change-requests`, {})
        .expect(201);
      const refused = await org.owner.client
        .post(`/v1/spaces/${spaceId}/change-requests/${bad.body.id}/content`, {
          changes: [{ operation: 'insert_page', title: 'X', condition: 'process.exit()' }],
        })
        .expect(400);
      expect(refused.body.error.message).toMatch(/condition/);

      const titles = async (apiToken: string) => {
        const space = await t.as(apiToken).get(`/v1/spaces/${spaceId}`).expect(200);
        const revision = await t
          .as(apiToken)
          .get(`/v1/spaces/${spaceId}/revisions/${space.body.revision}`)
          .expect(200);
        return {
          revision: space.body.revision as string,
          titles: (revision.body.pages as { title: string }[]).map((page) => page.title),
        };
      };
      const plain = ((await lookup(url).expect(200)).body as Lookup).apiToken;
      const tester = (
        (await lookup(url, { visitor: { unsignedClaims: { beta: true } } }).expect(200))
          .body as Lookup
      ).apiToken;
      const seen = await titles(plain);
      expect(seen.titles).toContain('Open');
      expect(seen.titles).not.toContain('Beta');
      expect((await titles(tester)).titles).toContain('Beta');
      await t
        .as(plain)
        .get(`/v1/spaces/${spaceId}/revisions/${seen.revision}/path/beta`)
        .expect(404);
      await t
        .as(tester)
        .get(`/v1/spaces/${spaceId}/revisions/${seen.revision}/path/beta`)
        .expect(200);
      // Members see every page.
      const all = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
      expect((all.body.pages as { title: string }[]).map((page) => page.title)).toContain('Beta');
    });
  });

  describe('visitor authentication', () => {
    it('wants a valid visitor token, and never redirects without a login URL', async () => {
      const { org, site, url } = await publishedSite(['Guides'], { visibility: 'visitor-auth' });
      // GitBook's spec declares no 401 here; the renderer shows its status and message.
      const missing = await lookup(url).expect(401);
      expect(missing.body.error).toEqual({
        code: 401,
        message: 'The visitor token is not valid for this site.',
      });
      await lookup(url, { visitor: { jwtToken: 'a.b.c', unsignedClaims: {} } }).expect(401);
      const ping = await org.owner.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
      const member = await lookup(`${url}/install`, {
        visitor: { jwtToken: ping.body.docsVisitorClaims, unsignedClaims: {} },
      }).expect(200);
      expect(member.body).toMatchObject({ site: site.id, pathname: 'install' });
      await t.as(member.body.apiToken).get(`/v1/spaces/${member.body.space}`).expect(200);
    });

    it("sends visitors without a valid token to the site's login URL, and lets signed ones in", async () => {
      const { org, site, siteSpaces, url } = await publishedSite(['Guides', 'Partners'], {
        visibility: 'visitor-auth',
      });
      const authPath = `/v1/orgs/${org.id}/sites/${site.id}/publishing/auth`;
      const auth = await org.owner.client
        .patch(authPath, { backend: 'custom', fallbackURL: 'https://login.example.com/start?x=1' })
        .expect(200);
      const key = auth.body.privateKey as string;
      const [, partners] = siteSpaces;
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${partners.id}`, {
          condition: 'visitor.claims.partner === true',
        })
        .expect(200);

      const login = {
        target: 'external',
        site: site.id,
        redirect: 'https://login.example.com/start?x=1&location=%2Fguides%2Finstall',
      };
      // No token: the login redirect, whatever redirectOnError says.
      const anonymous = await lookup(`${url}/guides/install`).expect(200);
      expectConforms(anonymous, 'resolvePublishedContentByUrl', GITBOOK_0201);
      expect(anonymous.body).toEqual(login);

      const now = Math.floor(t.clock.now().getTime() / 1000);
      const expired = sign({ exp: now - 10 }, key, { algorithm: 'HS256' });
      const wrongKey = sign({ exp: now + 600 }, 'someone-else', { algorithm: 'HS256' });
      for (const jwtToken of [expired, wrongKey, 'garbage']) {
        // From ?jwt_token=: an error the visitor sees, no redirect (no login loop).
        const bad = await lookup(`${url}/guides/install`, {
          visitor: { jwtToken, unsignedClaims: {} },
        }).expect(401);
        expect(bad.body.error.message).toBe('The visitor token is not valid for this site.');
        // From the cookie: back to the login service.
        const stale = await lookup(`${url}/guides/install`, {
          visitor: { jwtToken, unsignedClaims: {} },
          redirectOnError: true,
        }).expect(200);
        expect(stale.body).toEqual(login);
      }

      const visitor = sign({ exp: now + 600, partner: true, name: 'Ann' }, key, {
        algorithm: 'HS256',
      });
      const inside = await lookup(`${url}/${partners.path}/intro`, {
        visitor: { jwtToken: visitor, unsignedClaims: {} },
      }).expect(200);
      expectConforms(inside, 'resolvePublishedContentByUrl', GITBOOK_0201);
      expect(inside.body).toMatchObject({ siteSpace: partners.id, pathname: 'intro' });
      expect(inside.body.contextId).toEqual(expect.any(String));
      const token = claimsOf(inside.body.apiToken);
      expect(token.claims).toMatchObject({ partner: true, name: 'Ann', unsigned: {} });
      // The site token ends when the visitor's does.
      expect(token.exp).toBe(now + 600);
      const reader = t.as(inside.body.apiToken);
      await reader.get(`/v1/spaces/${partners.space.id}`).expect(200);
      // The renderer's "log in" and "log out" links.
      const published = await reader
        .get(`/v1/orgs/${org.id}/sites/${site.id}/published`)
        .expect(200);
      expectConforms(published, 'getPublishedContentSite', GITBOOK_0201);
      expect(published.body.site.urls.login).toBe('https://login.example.com/start?x=1');

      // A new key: visitors signed with the old one are sent to log in again.
      await org.owner.client.post(`${authPath}/regenerate`).expect(200);
      const again = await lookup(`${url}/guides/install`, {
        visitor: { jwtToken: visitor, unsignedClaims: {} },
        redirectOnError: true,
      }).expect(200);
      expect(again.body).toEqual(login);
    });

    it('keeps a site token of a public site from reading the site once it needs visitor auth', async () => {
      const { org, site, url } = await publishedSite(['Guides']);
      const { apiToken, space } = (await lookup(url).expect(200)).body as Lookup;
      await t.as(apiToken).get(`/v1/spaces/${space}`).expect(200);
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/sites/${site.id}`, { visibility: 'visitor-auth' })
        .expect(200);
      await t.as(apiToken).get(`/v1/spaces/${space}`).expect(404);
      await t.as(apiToken).get(`/v1/orgs/${org.id}/sites/${site.id}/published`).expect(404);
    });
  });
});
