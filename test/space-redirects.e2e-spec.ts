import { Revalidation } from '../src/platform/revalidation/revalidation.service';
import { SpaceRedirects, type SpacePathRedirect } from '../src/spaces/content/space-redirects';
import { createTestApp, TestApp } from './helpers/app';
import type { SiteBody, SiteSpaceBody } from './helpers/bodies';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * The redirects a space asks for (SpaceRedirects, fed by a repository's `.gitbook.yaml`): made
 * as live site redirects on the published sites that show the space.
 */

interface RedirectBody {
  id: string;
  source: string;
  draft: boolean;
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

/** A published site showing one space with two pages, `Getting started` and `Install`. */
interface PublishedSpace {
  org: TestOrganization;
  site: SiteBody;
  spaceId: string;
  siteSpaceId: string;
  /** The site's published URL. */
  url: string;
  start: PageNode;
  install: PageNode;
}

const EXTERNAL = { kind: 'external', url: 'https://example.com/docs' };

describe('space redirects', () => {
  let t: TestApp;
  let spaceRedirects: SpaceRedirects;
  /** The cache tags of every change since the test began. */
  let changed: string[];
  beforeAll(async () => {
    t = await createTestApp();
    spaceRedirects = t.bindery.app.get(SpaceRedirects);
    t.bindery.app.get(Revalidation).onChange((tags) => changed.push(...tags));
  });
  beforeEach(() => {
    changed = [];
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const redirectsPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/redirects`;

  /** What the space asks for now, applied in a transaction of its own. */
  function apply(spaceId: string, redirects: SpacePathRedirect[], previous: string[] = []) {
    t.clock.advance(1000);
    return t.dataSource.transaction((manager) =>
      spaceRedirects.apply({ manager, spaceId, redirects, previous }),
    );
  }

  /** The site's live redirects, by source (as code points order them). */
  async function live(org: TestOrganization, siteId: string): Promise<RedirectBody[]> {
    const res = await org.owner.client.get(`${redirectsPath(org, siteId)}?limit=100`).expect(200);
    return (res.body.items as RedirectBody[]).sort((a, b) =>
      a.source < b.source ? -1 : a.source > b.source ? 1 : 0,
    );
  }

  /** Where the site's live redirect of `source` sends to (404: none). */
  async function target(org: TestOrganization, siteId: string, source: string) {
    const res = await org.owner.client.get(
      `${sitePath(org, siteId)}/redirect?source=${encodeURIComponent(source)}`,
    );
    return res.status === 200 ? (res.body.target as string) : res.status;
  }

  async function pagesOf(org: TestOrganization, spaceId: string): Promise<Map<string, PageNode>> {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    const pages = new Map<string, PageNode>();
    const visit = (nodes: PageNode[]) =>
      nodes.forEach((node) => {
        pages.set(node.title, node);
        visit(node.pages ?? []);
      });
    visit(res.body.pages as PageNode[]);
    return pages;
  }

  async function spaceWithPages(org: TestOrganization) {
    const space = await t.factories.space(org, { title: 'Handbook' });
    await t.factories.changeRequest(org, space.id, {
      changes: [insertPage('Getting started', 'Hello'), insertPage('Install', 'Run it')],
      merge: true,
    });
    const pages = await pagesOf(org, space.id);
    return {
      spaceId: space.id,
      start: pages.get('Getting started')!,
      install: pages.get('Install')!,
    };
  }

  async function publishedSpace(): Promise<PublishedSpace> {
    const org = await t.factories.organization();
    const { spaceId, start, install } = await spaceWithPages(org);
    const site = await t.factories.site(org, { spaces: [spaceId] });
    await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
    const siteSpaces = await org.owner.client
      .get(`${sitePath(org, site.id)}/site-spaces`)
      .expect(200);
    return {
      org,
      site,
      spaceId,
      siteSpaceId: (siteSpaces.body.items as SiteSpaceBody[])[0].id,
      url: `http://bindery.test/sites/${org.id}/${site.id}`,
      start,
      install,
    };
  }

  const toPage = (siteSpaceId: string, page: PageNode) => ({
    kind: 'site-page',
    siteSpaceId,
    pageId: page.id,
  });

  it('makes live redirects to the pages on the published site, and revalidates it', async () => {
    const h = await publishedSpace();
    await apply(h.spaceId, [
      { source: 'old/start', pageId: h.start.id },
      { source: 'Guides/Install Me', pageId: h.install.id },
    ]);
    expect(await live(h.org, h.site.id)).toEqual([
      expect.objectContaining({
        source: '/Guides/Install%20Me',
        draft: false,
        permanent: false,
        destination: toPage(h.siteSpaceId, h.install),
      }),
      expect.objectContaining({
        source: '/old/start',
        draft: false,
        permanent: false,
        destination: toPage(h.siteSpaceId, h.start),
      }),
    ]);
    expect(await target(h.org, h.site.id, '/guides/install%20me')).toBe(`${h.url}/install`);
    expect(await target(h.org, h.site.id, '/old/start')).toBe(`${h.url}/getting-started`);
    expect(changed).toContain(`site:${h.site.id}`);

    // The same again changes nothing, and tells nobody.
    const before = await live(h.org, h.site.id);
    changed = [];
    await apply(
      h.spaceId,
      [
        { source: 'old/start', pageId: h.start.id },
        { source: 'Guides/Install Me', pageId: h.install.id },
      ],
      ['old/start', 'Guides/Install Me'],
    );
    expect(await live(h.org, h.site.id)).toEqual(before);
    expect(changed).toEqual([]);
  });

  it('removes the redirects of the sources the space no longer asks for', async () => {
    const h = await publishedSpace();
    await apply(h.spaceId, [
      { source: 'old/start', pageId: h.start.id },
      { source: 'old/install', pageId: h.install.id },
    ]);
    changed = [];
    await apply(
      h.spaceId,
      [{ source: 'old/start', pageId: h.install.id }],
      ['old/start', 'Old/Install'],
    );
    expect(await live(h.org, h.site.id)).toEqual([
      expect.objectContaining({
        source: '/old/start',
        destination: toPage(h.siteSpaceId, h.install),
        updatedAt: expect.any(String),
      }),
    ]);
    expect(await target(h.org, h.site.id, '/old/install')).toBe(404);
    expect(changed).toContain(`site:${h.site.id}`);

    // Everything dropped: nothing left.
    await apply(h.spaceId, [], ['old/start']);
    expect(await live(h.org, h.site.id)).toEqual([]);
  });

  it('sends a live redirect the site had from that source to the page, and leaves drafts alone', async () => {
    const h = await publishedSpace();
    const path = redirectsPath(h.org, h.site.id);
    const mine = (
      await h.org.owner.client
        .post(path, { source: '/Legacy', destination: EXTERNAL, permanent: true })
        .expect(201)
    ).body as RedirectBody;
    const draft = (
      await h.org.owner.client
        .post(path, { source: '/legacy', destination: EXTERNAL, draft: true })
        .expect(201)
    ).body as RedirectBody;
    // An automatic redirect: Install renamed leaves /install behind.
    t.clock.advance(1000);
    await t.factories.changeRequest(h.org, h.spaceId, {
      changes: [{ operation: 'update_page', page: h.install.id, slug: 'installation' }],
      merge: true,
    });
    const automatic = (await live(h.org, h.site.id)).find((r) => r.source === '/install')!;
    expect(automatic.destination).toEqual(toPage(h.siteSpaceId, h.install));

    await apply(h.spaceId, [
      { source: 'legacy', pageId: h.start.id },
      { source: 'install', pageId: h.start.id },
    ]);
    const redirects = await live(h.org, h.site.id);
    expect(redirects).toEqual([
      expect.objectContaining({
        id: mine.id,
        source: '/Legacy',
        permanent: true,
        destination: toPage(h.siteSpaceId, h.start),
        createdAt: mine.createdAt,
        updatedAt: expect.any(String),
      }),
      expect.objectContaining({
        id: automatic.id,
        source: '/install',
        destination: toPage(h.siteSpaceId, h.start),
        updatedAt: expect.any(String),
      }),
    ]);
    expect(await target(h.org, h.site.id, '/legacy')).toBe(`${h.url}/getting-started`);
    const drafts = await h.org.owner.client.get(`${path}?draft=true`).expect(200);
    expect(drafts.body.items).toEqual([
      expect.objectContaining({ id: draft.id, destination: EXTERNAL }),
    ]);
  });

  it('never deletes a redirect sent elsewhere than a page of that site space', async () => {
    const h = await publishedSpace();
    const path = redirectsPath(h.org, h.site.id);
    await apply(h.spaceId, [
      { source: 'a', pageId: h.start.id },
      { source: 'b', pageId: h.start.id },
      { source: 'c', pageId: h.start.id },
    ]);
    // Someone points /a outside, /b to the site space itself; /c stays the space's.
    const [a, b] = await live(h.org, h.site.id);
    await h.org.owner.client.patch(`${path}/${a.id}`, { destination: EXTERNAL }).expect(200);
    await h.org.owner.client
      .patch(`${path}/${b.id}`, { destination: { kind: 'site-space', siteSpaceId: h.siteSpaceId } })
      .expect(200);
    await apply(h.spaceId, [], ['a', 'b', 'c']);
    expect(
      (await live(h.org, h.site.id)).map((redirect) => [redirect.source, redirect.destination]),
    ).toEqual([
      ['/a', EXTERNAL],
      ['/b', { kind: 'site-space', siteSpaceId: h.siteSpaceId }],
    ]);
  });

  it("makes the redirects under each site space's path in the site", async () => {
    const org = await t.factories.organization();
    const { spaceId, start } = await spaceWithPages(org);
    const site = await t.factories.site(org);
    await t.factories.siteSection(org, site.id, { spaceTitle: 'Home' });
    const guides = await t.factories.siteSection(org, site.id, { spaceId });
    // A second variant of the Guides section, showing the same space.
    const variant = await t.factories.siteSpace(org, site.id, { spaceId, sectionId: guides.id });
    await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
    const siteSpaces = (
      await org.owner.client.get(`${sitePath(org, site.id)}/site-spaces`).expect(200)
    ).body.items as SiteSpaceBody[];
    const first = siteSpaces.find((s) => s.space.id === spaceId && s.id !== variant.id)!;

    await apply(spaceId, [{ source: 'old', pageId: start.id }]);
    expect(
      (await live(org, site.id)).map((redirect) => [redirect.source, redirect.destination]),
    ).toEqual([
      [`/${guides.path}/${variant.path}/old`, toPage(variant.id, start)],
      [`/${guides.path}/old`, toPage(first.id, start)],
    ]);
    const url = `http://bindery.test/sites/${org.id}/${site.id}`;
    expect(await target(org, site.id, `/${guides.path}/old`)).toBe(
      `${url}/${guides.path}/getting-started`,
    );

    // Someone sends /guides/old to the page in the other variant: not that site space's any more.
    const [inVariant, inFirst] = await live(org, site.id);
    await org.owner.client
      .patch(`${redirectsPath(org, site.id)}/${inFirst.id}`, {
        destination: toPage(variant.id, start),
      })
      .expect(200);
    await apply(spaceId, [], ['old']);
    expect((await live(org, site.id)).map((redirect) => redirect.id)).toEqual([inFirst.id]);
    expect(inVariant.source).toBe(`/${guides.path}/${variant.path}/old`);
  });

  it('changes nothing for a space no published site shows', async () => {
    const org = await t.factories.organization();
    const { spaceId, start } = await spaceWithPages(org);
    const site = await t.factories.site(org, { spaces: [spaceId] });
    await apply(spaceId, [{ source: 'old', pageId: start.id }]);
    expect(await live(org, site.id)).toEqual([]);
    expect(changed).toEqual([]);

    const alone = await spaceWithPages(org);
    await apply(alone.spaceId, [{ source: 'old', pageId: alone.start.id }], ['older']);
    expect(changed).toEqual([]);
  });

  it('leaves out the sources that make no valid source path', async () => {
    const h = await publishedSpace();
    await apply(h.spaceId, [
      { source: '', pageId: h.start.id },
      { source: '/', pageId: h.start.id },
      { source: 'a/../b', pageId: h.start.id },
      { source: 'x'.repeat(600), pageId: h.start.id },
      { source: '/été/', pageId: h.start.id },
      { source: 'old/*', pageId: h.install.id },
    ]);
    expect((await live(h.org, h.site.id)).map((redirect) => redirect.source)).toEqual([
      '/%C3%A9t%C3%A9',
      '/old/%2A',
    ]);
    // A `*` is part of the path: nothing below /old is redirected.
    expect(await target(h.org, h.site.id, '/old/more')).toBe(404);
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    const h = await publishedSpace();
    await expect(
      t.dataSource.transaction(async (manager) => {
        await spaceRedirects.apply({
          manager,
          spaceId: h.spaceId,
          redirects: [{ source: 'old', pageId: h.start.id }],
          previous: [],
        });
        throw new Error('the import failed');
      }),
    ).rejects.toThrow('the import failed');
    expect(await live(h.org, h.site.id)).toEqual([]);
  });

  it('takes one handler only', () => {
    expect(() => spaceRedirects.register(async () => undefined)).toThrow(/already registered/);
  });
});
