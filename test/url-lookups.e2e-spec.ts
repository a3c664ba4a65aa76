import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * GitBook's `urls` group beyond the published lookup: `getContentByUrl` (a URL of Bindery, an
 * app URL or a published site's, resolved to the content it names, as the caller sees it) and
 * `getEmbedByUrl` (a link card of an external page, outside any space).
 */
describe('URL lookups', () => {
  let t: TestApp;
  let external: http.Server;
  let origin: string;
  const hits = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp();
    external = http.createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<html><head><meta property="og:title" content="Launch notes">' +
            '<meta property="og:site_name" content="Acme Blog"><script>steal()</script>' +
            '</head><body><iframe src="https://evil.example"></iframe></body></html>',
        );
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => external.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(external.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => external.close(resolve));
    await t.close();
  });

  const error = (code: number) => ({ error: { code, message: expect.any(String) } });

  describe('GET /v1/urls/content (getContentByUrl)', () => {
    const content = (url: string) => `/v1/urls/content?url=${encodeURIComponent(url)}`;

    /** An organization with a space holding the page 'Guide' (path `guide`), and change request 2 open. */
    async function fixture(): Promise<{
      org: TestOrganization;
      space: { id: string; app: string };
      changeRequest: { number: number; app: string };
    }> {
      const org = await t.factories.organization();
      const created = await t.factories.space(org, { title: 'Handbook' });
      await t.factories.changeRequest(org, created.id, {
        subject: 'Start',
        changes: [insertPage('Guide', '# Guide\n\nHi.')],
        merge: true,
      });
      const open = await t.factories.changeRequest(org, created.id, {
        subject: 'More',
        changes: [insertPage('Draft', '# Draft\n\nSoon.')],
      });
      const space = (await org.owner.client.get(`/v1/spaces/${created.id}`).expect(200)).body;
      return {
        org,
        space: { id: created.id, app: space.urls.app as string },
        changeRequest: { number: open.number, app: open.urls.app as string },
      };
    }

    it("resolves a space's app URL, and a page's under it, to what the caller sees", async () => {
      const { org, space } = await fixture();
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(content(space.app)).expect(200);
      expectConforms(res, 'getContentByUrl');
      expect(res.body.space).toMatchObject({ id: space.id, object: 'space' });
      expect(res.body.page).toBeUndefined();

      const page = await reader.get(content(`${space.app}/guide`)).expect(200);
      expectConforms(page, 'getContentByUrl');
      expect(page.body.space.id).toBe(space.id);
      expect(page.body.page).toMatchObject({ title: 'Guide', path: 'guide', kind: 'sheet' });
      expect(page.body.page.urls.app).toBe(`${space.app}/guide`);
      await reader.get(content(`${space.app}/nowhere`)).expect(404);
    });

    it('resolves a change request, and a page in it only', async () => {
      const { org, space, changeRequest } = await fixture();
      const res = await org.owner.client.get(content(`${changeRequest.app}/draft`)).expect(200);
      expectConforms(res, 'getContentByUrl');
      expect(res.body.space.id).toBe(space.id);
      expect(res.body.changeRequest).toMatchObject({ number: changeRequest.number });
      expect(res.body.page).toMatchObject({ title: 'Draft', path: 'draft' });
      // Not merged: the primary has no such page.
      await org.owner.client.get(content(`${space.app}/draft`)).expect(404);
      await org.owner.client.get(content(`${space.app}/~/changes/99`)).expect(404);
    });

    it('resolves a collection', async () => {
      const org = await t.factories.organization();
      const collection = await t.factories.collection(org, { title: 'Guides' });
      const res = await org.owner.client.get(content(collection.urls.app)).expect(200);
      expectConforms(res, 'getContentByUrl');
      expect(res.body).toEqual({ collection: expect.objectContaining({ id: collection.id }) });
    });

    it("resolves a published site's URL to the space it shows and the page", async () => {
      const { org, space } = await fixture();
      const site = await t.factories.site(org);
      await t.factories.siteSpace(org, site.id, { spaceId: space.id });
      const published = await org.owner.client
        .post(`/v1/orgs/${org.id}/sites/${site.id}/publish`)
        .expect(200);
      const url = published.body.urls.published as string;
      const res = await org.owner.client.get(content(`${url}/guide`)).expect(200);
      expectConforms(res, 'getContentByUrl');
      expect(res.body.space.id).toBe(space.id);
      expect(res.body.page).toMatchObject({ title: 'Guide' });
      // Published to the world, but the space is the organization's: a stranger sees nothing.
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(content(`${url}/guide`)).expect(404);
    });

    it('is 404 to another organization, for unknown content and a URL naming nothing', async () => {
      const { org, space } = await fixture();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(content(space.app)).expect(404);
      expect(hidden.body).toEqual(error(404));
      // The organization in the URL must be the space's.
      await org.owner.client
        .get(content(space.app.replace(`/o/${org.id}/`, `/o/${stranger.id}/`)))
        .expect(404);
      await org.owner.client
        .get(content(space.app.replace(space.id, 'nospace0000000000000')))
        .expect(404);
      await org.owner.client.get(content('https://elsewhere.example.com/docs')).expect(404);
    });

    it('is 400 without an absolute http(s) URL, 401 without a token, 403 to a limited token', async () => {
      const { org, space } = await fixture();
      for (const bad of ['not a url', 'ftp://example.com/file', '/o/x/s/y']) {
        const res = await org.owner.client.get(content(bad)).expect(400);
        expect(res.body).toEqual(error(400));
      }
      expect((await org.owner.client.get('/v1/urls/content').expect(400)).body).toEqual(error(400));
      await t.anonymous.get(content(space.app)).expect(401);
      const token = await org.owner.client
        .post('/v1/user/tokens', { label: 'limited', scopes: { organization: org.id } })
        .expect(201);
      expect((await t.as(token.body.token).get(content(space.app)).expect(403)).body).toEqual(
        error(403),
      );
    });
  });

  describe('GET /v1/urls/embed (getEmbedByUrl)', () => {
    const embed = (url: string) => `/v1/urls/embed?url=${encodeURIComponent(url)}`;

    it("answers a link card from the page's head, kept, to any user and a limited token", async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(embed(`${origin}/article`)).expect(200);
      expectConforms(res, 'getEmbedByUrl', GITBOOK_0202);
      expect(res.body).toEqual({ type: 'link', title: 'Launch notes', site: 'Acme Blog' });
      for (const markup of ['<script', 'steal', 'iframe', 'evil.example']) {
        expect(JSON.stringify(res.body)).not.toContain(markup);
      }
      const token = await org.owner.client
        .post('/v1/user/tokens', { label: 'limited', scopes: { organization: org.id } })
        .expect(201);
      const again = await t
        .as(token.body.token)
        .get(embed(`${origin}/article`))
        .expect(200);
      expect(again.body).toEqual(res.body);
      expect(hits.get('/article')).toBe(1);
    });

    it('is 404 for a page that cannot be fetched, 400 for no http(s) URL, 401 without a token', async () => {
      const org = await t.factories.organization();
      const gone = await org.owner.client.get(embed(`${origin}/gone`)).expect(404);
      expect(gone.body).toEqual(error(404));
      expect(gone.body.error.message).toMatch(/HTTP 404/);
      for (const bad of ['ftp://example.com/file', 'nope']) {
        expect((await org.owner.client.get(embed(bad)).expect(400)).body).toEqual(error(400));
      }
      await org.owner.client.get('/v1/urls/embed').expect(400);
      await t.anonymous.get(embed(`${origin}/article`)).expect(401);
    });

    it('fetches under the outbound policy: no private address unless OUTBOUND_ALLOW_PRIVATE', async () => {
      const strict = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
      try {
        const org = await strict.factories.organization();
        const before = hits.get('/article') ?? 0;
        const res = await org.owner.client.get(embed(`${origin}/article?strict`)).expect(404);
        expect(res.body.error.message).toMatch(/only public internet addresses/);
        expect(hits.get('/article?strict')).toBeUndefined();
        expect(hits.get('/article')).toBe(before);
      } finally {
        await strict.close();
      }
    });
  });
});
