import { createTestApp, TestApp } from './helpers/app';
import type { SiteBody, SiteSpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/** Site redirects: GitBook's redirect routes, their lookup, and the redirects moves leave. */

interface RedirectBody {
  object: 'site-redirect';
  id: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: Record<string, string>;
  createdAt: string;
  updatedAt?: string;
}

interface PageNode {
  id: string;
  title: string;
  path?: string;
  pages?: PageNode[];
}

/** A published site showing one space, `Handbook`, with two pages at its top. */
interface PublishedHandbook {
  org: TestOrganization;
  site: SiteBody;
  spaceId: string;
  siteSpaceId: string;
  /** The site's published URL. */
  url: string;
  pages: { start: PageNode; install: PageNode };
}

const EXTERNAL = { kind: 'external', url: 'https://example.com/docs' };

describe('site redirects', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const redirectsPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/redirects`;
  const lookup = (org: TestOrganization, siteId: string, source: string) =>
    `${sitePath(org, siteId)}/redirect?source=${encodeURIComponent(source)}`;

  /** Every page of the space's primary content, by title. */
  async function pagesOf(client: Client, spaceId: string): Promise<Map<string, PageNode>> {
    const res = await client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    const pages = new Map<string, PageNode>();
    const visit = (nodes: PageNode[]) =>
      nodes.forEach((node) => {
        pages.set(node.title, node);
        visit(node.pages ?? []);
      });
    visit(res.body.pages as PageNode[]);
    return pages;
  }

  async function publishedHandbook(): Promise<PublishedHandbook> {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Handbook' });
    await t.factories.changeRequest(org, space.id, {
      changes: [insertPage('Getting started', 'Hello'), insertPage('Install', 'Run it')],
      merge: true,
    });
    const site = await t.factories.site(org, { spaces: [space.id] });
    await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
    const siteSpaces = await org.owner.client
      .get(`${sitePath(org, site.id)}/site-spaces`)
      .expect(200);
    const pages = await pagesOf(org.owner.client, space.id);
    return {
      org,
      site,
      spaceId: space.id,
      siteSpaceId: (siteSpaces.body.items as SiteSpaceBody[])[0].id,
      url: `http://bindery.test/sites/${org.id}/${site.id}`,
      pages: { start: pages.get('Getting started')!, install: pages.get('Install')! },
    };
  }

  /** An unpublished site of a new organization, without site spaces. */
  async function emptySite() {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    return { org, site, path: redirectsPath(org, site.id) };
  }

  async function create(
    org: TestOrganization,
    siteId: string,
    body: object,
  ): Promise<RedirectBody> {
    t.clock.advance(1000);
    const res = await org.owner.client.post(redirectsPath(org, siteId), body).expect(201);
    return res.body as RedirectBody;
  }

  /** Merges a change request of `changes` into the space. */
  async function merge(org: TestOrganization, spaceId: string, changes: object[]) {
    t.clock.advance(1000);
    await t.factories.changeRequest(org, spaceId, { changes, merge: true });
  }

  const stranger = async () => (await t.factories.organization()).owner.client;

  const expectError = (res: { status: number; body: unknown }, status: number) =>
    expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });

  describe('createSiteRedirect', () => {
    it('creates a live redirect and answers it with its location', async () => {
      const { org, site, path } = await emptySite();
      const res = await org.owner.client
        .post(path, { source: '/old/Page', destination: EXTERNAL, permanent: true })
        .expect(201);
      expectConforms(res, 'createSiteRedirect', GITBOOK_0201);
      expect(res.body).toEqual({
        object: 'site-redirect',
        id: expect.any(String),
        source: '/old/Page',
        draft: false,
        captureWildcard: false,
        permanent: true,
        destination: EXTERNAL,
        createdAt: expect.any(String),
      });
      expect(res.headers.location).toBe(
        `http://bindery.test${sitePath(org, site.id)}/redirects/${res.body.id}`,
      );
      const listed = await org.owner.client.get(path).expect(200);
      expect(listed.body.items.map((r: RedirectBody) => r.id)).toEqual([res.body.id]);
    });

    it('keeps a page named by its path as the page, and a draft apart from the live one', async () => {
      const h = await publishedHandbook();
      const path = redirectsPath(h.org, h.site.id);
      const byPath = await h.org.owner.client
        .post(path, {
          source: '/setup',
          destination: { kind: 'path', spaceId: h.spaceId, path: '/install' },
        })
        .expect(201);
      expectConforms(byPath, 'createSiteRedirect', GITBOOK_0201);
      expect(byPath.body.destination).toEqual({
        kind: 'site-page',
        siteSpaceId: h.siteSpaceId,
        pageId: h.pages.install.id,
      });
      const draft = await h.org.owner.client
        .post(path, { source: '/setup', draft: true, destination: EXTERNAL })
        .expect(201);
      expect(draft.body.draft).toBe(true);
    });

    it('answers 400 for a bad source or destination, or one not in the site', async () => {
      const h = await publishedHandbook();
      const path = redirectsPath(h.org, h.site.id);
      const bad = [
        { source: 'old', destination: EXTERNAL },
        { source: '/a b', destination: EXTERNAL },
        { source: '/a/*/b', destination: EXTERNAL },
        { source: '/old' },
        { source: '/old', destination: { kind: 'moon' } },
        { source: '/old', destination: { kind: 'external', url: 'javascript:alert(1)' } },
        { source: '/old', destination: { kind: 'external', url: 'https://example.com/a b' } },
        { source: '/old', destination: { ...EXTERNAL, extra: true } },
        { source: '/old', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        {
          source: '/old',
          destination: { kind: 'site-page', siteSpaceId: h.siteSpaceId, pageId: 'nope' },
        },
        { source: '/old', destination: { kind: 'path', spaceId: h.spaceId, path: 'nowhere' } },
        { source: '/old', destination: EXTERNAL, permanent: 'yes' },
        { source: '/old', destination: EXTERNAL, unknown: 1 },
      ];
      for (const body of bad) {
        const res = await h.org.owner.client.post(path, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expectError(res, 400);
      }
      const listed = await h.org.owner.client.get(path).expect(200);
      expect(listed.body.count).toBe(0);
    });

    it('answers 409 for a source the site redirects already, whatever its case and escapes', async () => {
      const { org, site, path } = await emptySite();
      await create(org, site.id, { source: '/Old/%C3%89t%C3%A9', destination: EXTERNAL });
      const res = await org.owner.client
        .post(path, { source: `/old/${encodeURIComponent('été')}`, destination: EXTERNAL })
        .expect(409);
      expectError(res, 409);
    });

    it('answers 404 for an unknown site or a caller of another organization, 403 below create', async () => {
      const { org, site, path } = await emptySite();
      const body = { source: '/old', destination: EXTERNAL };
      expectError(
        await org.owner.client.post(redirectsPath(org, 'nosuchsite'), body).expect(404),
        404,
      );
      expectError(await (await stranger()).post(path, body).expect(404), 404);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await editor.post(path, body).expect(403), 403);
      const creator = await t.factories.asMember(org, 'create');
      await creator.post(path, body).expect(201);
      const listed = await org.owner.client.get(redirectsPath(org, site.id)).expect(200);
      expect(listed.body.count).toBe(1);
    });
  });

  describe('listSiteRedirects', () => {
    it('pages the live redirects newest first, by update or by source, and the drafts apart', async () => {
      const { org, site, path } = await emptySite();
      const b = await create(org, site.id, { source: '/b', destination: EXTERNAL });
      const a = await create(org, site.id, { source: '/a', destination: EXTERNAL });
      const c = await create(org, site.id, { source: '/c-guide', destination: EXTERNAL });
      const draft = await create(org, site.id, {
        source: '/a',
        draft: true,
        destination: EXTERNAL,
      });
      t.clock.advance(1000);
      await org.owner.client.patch(`${path}/${b.id}`, { permanent: true }).expect(200);
      const ids = (res: { body: { items: RedirectBody[] } }) => res.body.items.map((r) => r.id);

      const newest = await org.owner.client.get(path).expect(200);
      expectConforms(newest, 'listSiteRedirects', GITBOOK_0201);
      expect(ids(newest)).toEqual([c.id, a.id, b.id]);
      expect(newest.body.count).toBe(3);
      expect(ids(await org.owner.client.get(`${path}?orderBy=updatedAt`).expect(200))).toEqual([
        b.id,
        c.id,
        a.id,
      ]);
      expect(ids(await org.owner.client.get(`${path}?orderBy=source`).expect(200))).toEqual([
        a.id,
        b.id,
        c.id,
      ]);
      expect(ids(await org.owner.client.get(`${path}?draft=true`).expect(200))).toEqual([draft.id]);
      expect(ids(await org.owner.client.get(`${path}?search=GUIDE`).expect(200))).toEqual([c.id]);

      const first = await org.owner.client.get(`${path}?orderBy=source&limit=2`).expect(200);
      expect(ids(first)).toEqual([a.id, b.id]);
      const second = await org.owner.client
        .get(`${path}?orderBy=source&limit=2&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      expect(ids(second)).toEqual([c.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('is read by every member with a role; 400, 404 and 403 as the other site reads', async () => {
      const { org, site, path } = await emptySite();
      await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const reader = await t.factories.asMember(org, 'read');
      const read = await reader.get(path).expect(200);
      expect(read.body.count).toBe(1);
      expectError(await reader.get(`${path}?orderBy=title`).expect(400), 400);
      expectError(await reader.get(`${path}?draft=maybe`).expect(400), 400);
      expectError(await reader.get(redirectsPath(org, 'nosuchsite')).expect(404), 404);
      expectError(await (await stranger()).get(path).expect(404), 404);
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(path).expect(403), 403);
    });
  });

  describe('updateSiteRedirectById', () => {
    it('changes the fields given and stamps updatedAt', async () => {
      const h = await publishedHandbook();
      const path = redirectsPath(h.org, h.site.id);
      const redirect = await create(h.org, h.site.id, { source: '/old', destination: EXTERNAL });
      t.clock.advance(1000);
      const res = await h.org.owner.client
        .patch(`${path}/${redirect.id}`, {
          source: '/older/*',
          captureWildcard: true,
          destination: { kind: 'site-space', siteSpaceId: h.siteSpaceId },
        })
        .expect(200);
      expectConforms(res, 'updateSiteRedirectById', GITBOOK_0201);
      expect(res.body).toMatchObject({
        id: redirect.id,
        source: '/older/*',
        captureWildcard: true,
        permanent: false,
        destination: { kind: 'site-space', siteSpaceId: h.siteSpaceId },
        createdAt: redirect.createdAt,
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(redirect.createdAt));
      const found = await h.org.owner.client.get(lookup(h.org, h.site.id, '/older/x')).expect(200);
      expect(found.body.redirect.id).toBe(redirect.id);
    });

    it('makes a draft live in place of the live redirect of its source; other clashes are 409', async () => {
      const { org, site, path } = await emptySite();
      const live = await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const draft = await create(org, site.id, {
        source: '/OLD',
        draft: true,
        destination: { kind: 'external', url: 'https://example.com/new' },
      });
      const other = await create(org, site.id, { source: '/other', destination: EXTERNAL });
      expectError(
        await org.owner.client.patch(`${path}/${other.id}`, { source: '/Old' }).expect(409),
        409,
      );
      const promoted = await org.owner.client
        .patch(`${path}/${draft.id}`, { draft: false })
        .expect(200);
      expect(promoted.body).toMatchObject({ id: draft.id, draft: false });
      const listed = await org.owner.client.get(`${path}?orderBy=source`).expect(200);
      expect(listed.body.items.map((r: RedirectBody) => r.id)).toEqual([draft.id, other.id]);
      expect(listed.body.items.map((r: RedirectBody) => r.id)).not.toContain(live.id);
    });

    it('answers 400 for bad input, 404 for an unknown redirect or another organization, 403 below create', async () => {
      const { org, site, path } = await emptySite();
      const redirect = await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const at = `${path}/${redirect.id}`;
      for (const body of [
        {},
        { source: '/a b' },
        { source: null },
        { destination: { kind: 'path', spaceId: 'x', path: 'y' } },
        { draft: 'no' },
      ]) {
        const res = await org.owner.client.patch(at, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expectError(res, 400);
      }
      expectError(
        await org.owner.client.patch(`${path}/nosuchredirect`, { permanent: true }).expect(404),
        404,
      );
      expectError(
        await org.owner.client
          .patch(`${redirectsPath(org, 'nosuchsite')}/${redirect.id}`, { permanent: true })
          .expect(404),
        404,
      );
      expectError(await (await stranger()).patch(at, { permanent: true }).expect(404), 404);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await editor.patch(at, { permanent: true }).expect(403), 403);
    });
  });

  describe('deleteSiteRedirectById', () => {
    it('answers 205 when it deleted the redirect, 204 when there was none', async () => {
      const { org, site, path } = await emptySite();
      const redirect = await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const deleted = await org.owner.client.delete(`${path}/${redirect.id}`).expect(205);
      expectConforms(deleted, 'deleteSiteRedirectById', GITBOOK_0201);
      const again = await org.owner.client.delete(`${path}/${redirect.id}`).expect(204);
      expectConforms(again, 'deleteSiteRedirectById', GITBOOK_0201);
      expect((await org.owner.client.get(path).expect(200)).body.count).toBe(0);
    });

    it('answers 404 for an unknown site or another organization, 403 below create', async () => {
      const { org, site, path } = await emptySite();
      const redirect = await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const at = `${path}/${redirect.id}`;
      expectError(
        await org.owner.client
          .delete(`${redirectsPath(org, 'nosuchsite')}/${redirect.id}`)
          .expect(404),
        404,
      );
      expectError(await (await stranger()).delete(at).expect(404), 404);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await editor.delete(at).expect(403), 403);
      expect((await org.owner.client.get(path).expect(200)).body.count).toBe(1);
    });
  });

  describe('bulkUpsertSiteRedirects', () => {
    it('creates, updates, deletes and publishes in order, answering each item', async () => {
      const { org, site, path } = await emptySite();
      const existing = await create(org, site.id, {
        source: '/kept',
        destination: EXTERNAL,
        permanent: true,
      });
      const doomed = await create(org, site.id, { source: '/doomed', destination: EXTERNAL });
      await create(org, site.id, {
        source: '/beta',
        draft: true,
        destination: { kind: 'external', url: 'https://example.com/beta' },
      });
      const live = await create(org, site.id, { source: '/beta', destination: EXTERNAL });
      const res = await org.owner.client
        .put(path, {
          redirects: [
            { source: '/new', destination: EXTERNAL },
            { source: '/KEPT', destination: { kind: 'external', url: 'https://example.com/kept' } },
            { source: '/doomed', destination: null },
            { source: '/beta', intent: 'publish' },
            { source: '/draft-only', intent: 'draft', destination: EXTERNAL },
            { source: '/nothing', intent: 'publish' },
            { source: '/gone', destination: null },
            { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
          ],
        })
        .expect(200);
      expectConforms(res, 'bulkUpsertSiteRedirects', GITBOOK_0201);
      const results = res.body.results as Record<string, unknown>[];
      expect(results.map((r) => [r.status, r.source, r.draft])).toEqual([
        ['created', '/new', false],
        ['updated', '/KEPT', false],
        ['deleted', '/doomed', false],
        ['published', '/beta', false],
        ['created', '/draft-only', true],
        ['error', '/nothing', false],
        ['error', '/gone', false],
        ['error', '/x', false],
      ]);
      expect(results[1].id).toBe(existing.id);
      expect(results[3].id).toBe(live.id);
      expect(results[7].error).toContain('redirects.7.destination.siteSpaceId');

      const listed = await org.owner.client.get(path).expect(200);
      const bySource = new Map((listed.body.items as RedirectBody[]).map((r) => [r.source, r]));
      expect([...bySource.keys()].sort()).toEqual(['/KEPT', '/beta', '/new']);
      // Updated in place: the new spelling, the new destination, `permanent` kept.
      expect(bySource.get('/KEPT')).toMatchObject({
        id: existing.id,
        permanent: true,
        destination: { kind: 'external', url: 'https://example.com/kept' },
      });
      expect(bySource.get('/beta')?.destination).toEqual({
        kind: 'external',
        url: 'https://example.com/beta',
      });
      expect(bySource.has('/doomed')).toBe(false);
      expect(doomed.id).not.toBe(existing.id);
      const drafts = await org.owner.client.get(`${path}?draft=true`).expect(200);
      expect(drafts.body.items.map((r: RedirectBody) => r.source)).toEqual(['/draft-only']);
    });

    it('answers 400 for a bad body, 404 for an unknown site or another organization, 403 below create', async () => {
      const { org, path } = await emptySite();
      const item = { source: '/old', destination: EXTERNAL };
      for (const body of [
        {},
        { redirects: [] },
        { redirects: Array.from({ length: 501 }, (_, i) => ({ ...item, source: `/old-${i}` })) },
        { redirects: [{ source: '/old' }] },
        { redirects: [{ ...item, intent: 'later' }] },
        { redirects: [{ source: 'no-slash', intent: 'publish' }] },
        { redirects: [{ source: '/old', intent: 'publish', destination: EXTERNAL }] },
        { redirects: [null] },
      ]) {
        const res = await org.owner.client.put(path, body);
        expect({ status: res.status }).toEqual({ status: 400 });
        expectError(res, 400);
      }
      expectError(
        await org.owner.client
          .put(redirectsPath(org, 'nosuchsite'), { redirects: [item] })
          .expect(404),
        404,
      );
      expectError(await (await stranger()).put(path, { redirects: [item] }).expect(404), 404);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await editor.put(path, { redirects: [item] }).expect(403), 403);
      expect((await org.owner.client.get(path).expect(200)).body.count).toBe(0);
    });
  });

  describe('getSiteRedirectBySource', () => {
    it('resolves a path to its live redirect with an absolute target, whatever its case and escapes', async () => {
      const h = await publishedHandbook();
      const { org, site } = h;
      const redirect = await create(org, site.id, {
        source: '/Guides/%C3%89t%C3%A9',
        permanent: true,
        destination: { kind: 'site-page', siteSpaceId: h.siteSpaceId, pageId: h.pages.install.id },
      });
      const res = await org.owner.client
        .get(lookup(org, site.id, `/guides/${encodeURIComponent('été')}`))
        .expect(200);
      expectConforms(res, 'getSiteRedirectBySource', GITBOOK_0201);
      expect(res.body).toEqual({
        redirect: expect.objectContaining({ id: redirect.id, permanent: true }),
        target: `${h.url}/install`,
      });
      // With a share key (accepted, not needed by members).
      await org.owner.client
        .get(`${lookup(org, site.id, '/GUIDES/%c3%a9t%c3%a9')}&shareKey=abc`)
        .expect(200);
    });

    it('follows wildcards, the longest first, appending what they captured when they say so', async () => {
      const h = await publishedHandbook();
      const { org, site } = h;
      await create(org, site.id, {
        source: '/docs/*',
        captureWildcard: true,
        destination: { kind: 'external', url: 'https://example.com/v2?ref=old' },
      });
      const api = await create(org, site.id, {
        source: '/docs/api/*',
        destination: { kind: 'site-space', siteSpaceId: h.siteSpaceId },
      });
      await create(org, site.id, {
        source: '/release-*',
        captureWildcard: true,
        destination: { kind: 'external', url: 'https://example.com/notes/v' },
      });
      const target = async (source: string) =>
        (await org.owner.client.get(lookup(org, site.id, source)).expect(200)).body.target;
      expect(await target('/docs/Guide/Intro')).toBe('https://example.com/v2/Guide/Intro?ref=old');
      expect(await target('/DOCS/api/v1/users')).toBe(h.url);
      expect(await target('/release-2.1')).toBe('https://example.com/notes/v2.1');
      const exact = await org.owner.client.get(lookup(org, site.id, '/docs/api/*')).expect(200);
      expect(exact.body.redirect.id).toBe(api.id);
      const none = await org.owner.client.get(lookup(org, site.id, '/docs')).expect(404);
      expectConforms(none, 'getSiteRedirectBySource', GITBOOK_0201);
    });

    it('answers sections and site spaces at their published URLs, and 404 for drafts and what is gone', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const guides = await t.factories.siteSection(org, site.id, { spaceTitle: 'Guides' });
      const api = await t.factories.siteSection(org, site.id, { spaceTitle: 'API' });
      const v2 = (
        await org.owner.client
          .post(`${sitePath(org, site.id)}/site-spaces`, {
            spaceId: (await t.factories.space(org, { title: 'API v2' })).id,
            sectionId: api.id,
          })
          .expect(201)
      ).body as SiteSpaceBody;
      const url = `http://bindery.test/sites/${org.id}/${site.id}`;
      await create(org, site.id, {
        source: '/a',
        destination: { kind: 'site-section', siteSectionId: guides.id },
      });
      await create(org, site.id, {
        source: '/b',
        destination: { kind: 'site-section', siteSectionId: api.id },
      });
      await create(org, site.id, {
        source: '/c',
        destination: { kind: 'site-space', siteSpaceId: v2.id },
      });
      await create(org, site.id, { source: '/d', draft: true, destination: EXTERNAL });
      const target = async (source: string) =>
        (await org.owner.client.get(lookup(org, site.id, source)).expect(200)).body.target;
      expect(await target('/a')).toBe(url);
      expect(await target('/b')).toBe(`${url}/${api.path}`);
      expect(await target('/c')).toBe(`${url}/${api.path}/${v2.path}`);
      expectError(await org.owner.client.get(lookup(org, site.id, '/d')).expect(404), 404);
      await org.owner.client.delete(`${sitePath(org, site.id)}/site-spaces/${v2.id}`).expect(204);
      expectError(await org.owner.client.get(lookup(org, site.id, '/c')).expect(404), 404);
    });

    it('answers 400 for a bad source, 404 for an unknown site or another organization, 403 for a guest', async () => {
      const { org, site } = await emptySite();
      await create(org, site.id, { source: '/old', destination: EXTERNAL });
      const reader = await t.factories.asMember(org, 'read');
      expect((await reader.get(lookup(org, site.id, '/old')).expect(200)).body.target).toBe(
        EXTERNAL.url,
      );
      expectError(await reader.get(`${sitePath(org, site.id)}/redirect`).expect(400), 400);
      expectError(await reader.get(lookup(org, site.id, 'old')).expect(400), 400);
      expectError(await reader.get(lookup(org, site.id, '/a//b')).expect(400), 400);
      expectError(await reader.get(lookup(org, 'nosuchsite', '/old')).expect(404), 404);
      expectError(await (await stranger()).get(lookup(org, site.id, '/old')).expect(404), 404);
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(lookup(org, site.id, '/old')).expect(403), 403);
    });
  });

  describe('automatic redirects', () => {
    it('redirects the old path of a moved or renamed page of a published space to the page', async () => {
      const h = await publishedHandbook();
      const { org, site, pages } = h;
      const path = redirectsPath(org, site.id);
      expect(pages.install.path).toBe('install');

      // Install moves under Getting started: /install → the page, now at getting-started/install.
      await merge(org, h.spaceId, [
        { operation: 'update_page', page: pages.install.id, into: pages.start.id },
      ]);
      const moved = await org.owner.client.get(path).expect(200);
      expect(moved.body.items).toEqual([
        expect.objectContaining({
          source: '/install',
          draft: false,
          destination: { kind: 'site-page', siteSpaceId: h.siteSpaceId, pageId: pages.install.id },
        }),
      ]);
      const found = await org.owner.client.get(lookup(org, site.id, '/install')).expect(200);
      expectConforms(found, 'getSiteRedirectBySource', GITBOOK_0201);
      expect(found.body.target).toBe(`${h.url}/getting-started/install`);

      // Getting started is renamed: both of its old paths redirect, and /install follows.
      await merge(org, h.spaceId, [
        { operation: 'update_page', page: pages.start.id, slug: 'start' },
      ]);
      const renamed = await org.owner.client.get(`${path}?orderBy=source`).expect(200);
      expect(renamed.body.items.map((r: RedirectBody) => r.source)).toEqual([
        '/getting-started',
        '/getting-started/install',
        '/install',
      ]);
      const target = async (source: string) =>
        (await org.owner.client.get(lookup(org, site.id, source)).expect(200)).body.target;
      expect(await target('/install')).toBe(`${h.url}/start/install`);
      expect(await target('/getting-started/install')).toBe(`${h.url}/start/install`);
      expect(await target('/Getting-Started')).toBe(`${h.url}/start`);
    });

    it('keeps a redirect the site has from that path, and redirects under the site space path', async () => {
      const h = await publishedHandbook();
      const { org, site, pages } = h;
      const path = redirectsPath(org, site.id);
      const mine = await create(org, site.id, { source: '/Install', destination: EXTERNAL });
      // A second site space of the space makes it a variant with a path of its own.
      const second = (
        await org.owner.client
          .post(`${sitePath(org, site.id)}/site-spaces`, { spaceId: h.spaceId })
          .expect(201)
      ).body as SiteSpaceBody;
      await merge(org, h.spaceId, [
        { operation: 'update_page', page: pages.install.id, slug: 'installation' },
      ]);
      // Newest first: the automatic one, then the one made before.
      const listed = await org.owner.client.get(path).expect(200);
      expect(
        (listed.body.items as RedirectBody[]).map((r) => [r.id, r.source, r.destination]),
      ).toEqual([
        [
          expect.any(String),
          `/${second.path}/install`,
          { kind: 'site-page', siteSpaceId: second.id, pageId: pages.install.id },
        ],
        [mine.id, '/Install', EXTERNAL],
      ]);
      const found = await org.owner.client
        .get(lookup(org, site.id, `/${second.path}/install`))
        .expect(200);
      expect(found.body.target).toBe(`${h.url}/${second.path}/installation`);
    });

    it('leaves spaces no published site shows alone', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org, { title: 'Drafts' });
      await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Notes', 'Hi')],
        merge: true,
      });
      const site = await t.factories.site(org, { spaces: [space.id] });
      const [notes] = [...(await pagesOf(org.owner.client, space.id)).values()].filter(
        (page) => page.title === 'Notes',
      );
      await merge(org, space.id, [{ operation: 'update_page', page: notes.id, slug: 'memo' }]);
      const content = await pagesOf(org.owner.client, space.id);
      expect(content.get('Notes')?.path).toBe('memo');
      const listed = await org.owner.client.get(redirectsPath(org, site.id)).expect(200);
      expect(listed.body.count).toBe(0);
    });
  });
});
