import { ContentEngine } from '../src/content-engine/content-engine';
import type {
  DocumentBlock,
  DocumentInline,
  JSONDocument,
} from '../src/content-engine/documents/document';
import { Revision } from '../src/content-engine/entities/revision.entity';
import { commitOnSpace } from './helpers/content';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

interface Location {
  kind: string;
  file?: { id: string; name: string };
  organization?: { id: string; object: string };
  space?: { id: string; object: string };
  page?: { id: string; title?: string; pages: unknown[]; urls?: { app: string } };
  internalLocation?: { type: string; anchor?: string; node?: string };
  url?: string;
}

interface Usage {
  status: string;
  relation: string;
  targetReference?: Location;
  locationReferences: Location[];
}

interface LinksBody {
  items: Usage[];
  count: number;
  next?: { page: string };
  stats: { total: number; broken: { total: number; changeRequest?: number } };
}

/** What GitBook's 0.146.0 requires of an Organization and a Space: all a location embeds. */
const ORGANIZATION_SUMMARY = [
  'object',
  'id',
  'title',
  'createdAt',
  'emailDomains',
  'type',
  'inviteLinks',
  'plan',
  'mergeRules',
  'urls',
  'trial',
  'permissions',
];
const SPACE_SUMMARY = [
  'object',
  'id',
  'title',
  'emoji',
  'organization',
  'visibility',
  'revision',
  'createdAt',
  'updatedAt',
  'comments',
  'changeRequests',
  'changeRequestsOpen',
  'changeRequestsDraft',
  'mergeRules',
  'urls',
  'defaultLevel',
  'permissions',
];

const text = (value: string) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
});

const link = (key: string, ref: object): DocumentInline => ({
  object: 'inline',
  type: 'link',
  key,
  data: { ref },
  nodes: [text(key)],
});

const paragraph = (key: string, ...inlines: DocumentInline[]): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  key,
  data: {},
  nodes: [text('x'), ...inlines],
});

const heading = (key: string, title: string): DocumentBlock => ({
  object: 'block',
  type: 'heading-2',
  key,
  data: {},
  nodes: [text(title)],
});

/** A compact view of a usage: target, status, relation and where (page#node). */
function summary(usage: Usage) {
  const target = usage.targetReference;
  return {
    status: usage.status,
    relation: usage.relation,
    target: !target
      ? null
      : target.kind === 'url'
        ? target.url
        : `${target.kind}:${target.page?.id}${target.internalLocation?.anchor ? `#${target.internalLocation.anchor}` : ''}`,
    at: usage.locationReferences.map(
      (location) =>
        `${location.page?.id}${location.internalLocation ? `@${location.internalLocation.node}` : ''}`,
    ),
  };
}

describe('space links', () => {
  let t: TestApp;
  let engine: ContentEngine;
  beforeAll(async () => {
    t = await createTestApp({ APP_URL: 'https://app.bindery.test' });
    engine = t.bindery.app.get(ContentEngine);
  });
  afterAll(() => t.close());

  const links = (spaceId: string) => `/v1/spaces/${spaceId}/links`;
  const pageLinks = (spaceId: string, pageId: string) =>
    `/v1/spaces/${spaceId}/content/page/${pageId}/links`;
  const backlinks = (spaceId: string, fileId: string) =>
    `/v1/spaces/${spaceId}/content/files/${fileId}/backlinks`;
  const pageBacklinks = (spaceId: string, pageId: string) =>
    `/v1/spaces/${spaceId}/content/page/${pageId}/backlinks`;

  /**
   * Adds a file to the space's primary revision as a new revision (files cannot be written
   * through the API yet): same pages, one more file in the root.
   */
  async function addFile(spaceId: string, file: { id: string; name: string }): Promise<void> {
    t.clock.advance(1000);
    await t.dataSource.transaction(async (manager) => {
      const [row]: { revision_id: string }[] = await manager.query(
        'SELECT revision_id FROM spaces WHERE id = $1 FOR UPDATE',
        [spaceId],
      );
      const parent = await manager.findOneByOrFail(Revision, { id: row.revision_id });
      const [{ data: root }]: { data: { files: string[] } }[] = await manager.query(
        'SELECT data FROM content_objects WHERE hash = $1',
        [parent.tree],
      );
      const fileHash = await engine.put(manager, 'file', {
        ...file,
        contentType: 'image/png',
        size: 12,
      });
      const tree = await engine.put(manager, 'tree', { ...root, files: [...root.files, fileHash] });
      const id = `rv${file.id}${Date.now()}`.slice(0, 32);
      await manager.insert(Revision, {
        id,
        spaceId,
        parents: [parent.id],
        type: 'edits',
        tree,
        authorId: null,
        git: null,
        createdAt: t.clock.now(),
      });
      await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [id, spaceId]);
    });
  }

  /**
   * Home (links of every status), Guide (a `Setup` heading, a link back home) and a link page
   * to the same URL as one of Home's.
   */
  async function linkedSpace(org: TestOrganization): Promise<string> {
    const { id } = await t.factories.later.space(org, { empty: true });
    const home: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        paragraph(
          'p1',
          link('toGuide', { kind: 'page', page: 'pgGuide' }),
          link('toMissing', { kind: 'page', page: 'pgMissing' }),
          link('toSetup', { kind: 'anchor', page: 'pgGuide', anchor: 'setup' }),
          link('toNope', { kind: 'anchor', page: 'pgGuide', anchor: 'nope' }),
        ),
        paragraph(
          'p2',
          link('external', { kind: 'url', url: 'https://example.com/docs' }),
          link('inApp', { kind: 'url', url: `${t.config.appUrl}/o/x/s/y` }),
          link('relative', { kind: 'url', url: 'guide.md' }),
        ),
        {
          object: 'block',
          type: 'file',
          key: 'aFile',
          isVoid: true,
          data: { ref: { kind: 'file', file: 'fileX' } },
        },
        {
          object: 'block',
          type: 'content-ref',
          key: 'card',
          isVoid: true,
          data: { ref: { kind: 'page', page: 'pgGuide' } },
        },
      ],
    };
    const guide: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        heading('h1', 'Setup'),
        paragraph('back', link('toHome', { kind: 'page', page: 'pgHome' })),
      ],
    };
    const [homeHash, guideHash] = await Promise.all([
      engine.put(t.dataSource.manager, 'document', home),
      engine.put(t.dataSource.manager, 'document', guide),
    ]);
    await commitOnSpace(t, id, [
      {
        operation: 'insert_page',
        id: 'pgHome',
        meta: { title: 'Home', slug: 'home' },
        document: homeHash,
      },
      {
        operation: 'insert_page',
        id: 'pgGuide',
        meta: { title: 'Guide', slug: 'guide' },
        document: guideHash,
      },
      {
        operation: 'insert_page',
        id: 'pgLink',
        type: 'link',
        meta: { title: 'Docs', target: { kind: 'url', url: 'https://example.com/docs' } },
      },
    ]);
    return id;
  }

  describe('GET /v1/spaces/:spaceId/links (listSpaceLinks)', () => {
    it('lists every target with its status, relation and locations, and counts them', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(links(spaceId)).expect(200);
      expectConforms(res, 'listSpaceLinks');
      const body = res.body as LinksBody;
      expect(body.items.map(summary)).toEqual([
        {
          status: 'ok',
          relation: 'reference',
          target: 'page:pgGuide',
          at: ['pgHome@toGuide', 'pgHome@relative'],
        },
        { status: 'broken', relation: 'reference', target: null, at: ['pgHome@toMissing'] },
        {
          status: 'ok',
          relation: 'reference',
          target: 'page:pgGuide#setup',
          at: ['pgHome@toSetup'],
        },
        {
          status: 'broken',
          relation: 'reference',
          target: 'page:pgGuide#nope',
          at: ['pgHome@toNope'],
        },
        {
          status: 'ok',
          relation: 'reference',
          target: 'https://example.com/docs',
          at: ['pgHome@external', 'pgLink'],
        },
        {
          status: 'in-app',
          relation: 'reference',
          target: `${t.config.appUrl}/o/x/s/y`,
          at: ['pgHome@inApp'],
        },
        { status: 'broken', relation: 'reference', target: null, at: ['pgHome@aFile'] },
        { status: 'ok', relation: 'dependsOn', target: 'page:pgGuide', at: ['pgHome@card'] },
        { status: 'ok', relation: 'reference', target: 'page:pgHome', at: ['pgGuide@toHome'] },
      ]);
      expect(body.count).toBe(9);
      expect(body.stats).toEqual({ total: 9, broken: { total: 3 } });
      expect(body.next).toBeUndefined();
      const location = body.items[0].locationReferences[0];
      expect(location.organization).toMatchObject({ object: 'organization', id: org.id });
      expect(location.space).toMatchObject({ object: 'space', id: spaceId });
      expect(location.page).toMatchObject({ id: 'pgHome', pages: [] });
    });

    it('embeds in each location only what GitBook requires of the organization and space', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const res = await org.owner.client.get(links(spaceId)).expect(200);
      expectConforms(res, 'listSpaceLinks');
      const body = res.body as LinksBody;
      const locations = body.items.flatMap((item) => [
        ...item.locationReferences,
        ...(item.targetReference?.organization ? [item.targetReference] : []),
      ]);
      expect(locations.length).toBeGreaterThan(10);
      for (const location of locations) {
        expect(Object.keys(location.organization!).sort()).toEqual(
          [...ORGANIZATION_SUMMARY].sort(),
        );
        expect(Object.keys(location.space!).sort()).toEqual([...SPACE_SUMMARY].sort());
      }
      const { organization, space } = locations[0] as unknown as {
        organization: { urls: object; permissions: Record<string, boolean> };
        space: { urls: object; permissions: Record<string, boolean> };
      };
      expect(Object.keys(organization.urls).sort()).toEqual(['app', 'location']);
      expect(Object.keys(space.urls).sort()).toEqual(['app', 'location']);
      // Still the caller's permissions: the owner administers both.
      expect(organization.permissions.admin).toBe(true);
      expect(space.permissions.admin).toBe(true);
    });

    it('names a deleted page as its last revision had it, and counts the links to it broken', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const reader = await t.factories.asMember(org, 'read');
      const withGuide = (await reader.get(`/v1/spaces/${spaceId}`).expect(200)).body as {
        revision: string;
      };
      await commitOnSpace(t, spaceId, [{ operation: 'delete_page', page: 'pgGuide' }]);

      const res = await reader.get(links(spaceId)).expect(200);
      expectConforms(res, 'listSpaceLinks');
      const body = res.body as LinksBody;
      expect(body.items.map(summary)).toEqual([
        { status: 'broken', relation: 'reference', target: 'page:pgGuide', at: ['pgHome@toGuide'] },
        // Never existed: nothing to name.
        { status: 'broken', relation: 'reference', target: null, at: ['pgHome@toMissing'] },
        {
          status: 'broken',
          relation: 'reference',
          target: 'page:pgGuide#setup',
          at: ['pgHome@toSetup'],
        },
        {
          status: 'broken',
          relation: 'reference',
          target: 'page:pgGuide#nope',
          at: ['pgHome@toNope'],
        },
        {
          status: 'ok',
          relation: 'reference',
          target: 'https://example.com/docs',
          at: ['pgHome@external', 'pgLink'],
        },
        {
          status: 'in-app',
          relation: 'reference',
          target: `${t.config.appUrl}/o/x/s/y`,
          at: ['pgHome@inApp'],
        },
        // A path that matches no page any more is named as written.
        { status: 'broken', relation: 'reference', target: 'guide.md', at: ['pgHome@relative'] },
        { status: 'broken', relation: 'reference', target: null, at: ['pgHome@aFile'] },
        { status: 'broken', relation: 'dependsOn', target: 'page:pgGuide', at: ['pgHome@card'] },
      ]);
      expect(body.stats).toEqual({ total: 9, broken: { total: 7 } });
      const dead = body.items[0].targetReference!;
      expect(dead).toMatchObject({
        kind: 'page',
        organization: { id: org.id },
        space: { id: spaceId },
        page: { id: 'pgGuide', title: 'Guide', pages: [] },
      });
      // Its URL opens the revision that still has it.
      expect(dead.page!.urls!.app).toContain(withGuide.revision);
      const broken = await reader.get(`${links(spaceId)}?status=broken`).expect(200);
      expectConforms(broken, 'listSpaceLinks');
      expect((broken.body as LinksBody).count).toBe(7);

      // On the page that links to it too.
      const home = await reader.get(pageLinks(spaceId, 'pgHome')).expect(200);
      expectConforms(home, 'listPageLinksInSpace');
      const homeBody = home.body as LinksBody;
      expect(homeBody.items[0].targetReference?.page?.id).toBe('pgGuide');
      // Every link of the space is on Home now (`guide.md` no longer joins Guide's).
      expect(homeBody.stats).toEqual({ total: 9, broken: { total: 7 } });
    });

    it('filters by status, keeping the stats of every link', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const res = await org.owner.client.get(`${links(spaceId)}?status=broken`).expect(200);
      expectConforms(res, 'listSpaceLinks');
      const body = res.body as LinksBody;
      expect(body.items.map((item) => item.status)).toEqual(['broken', 'broken', 'broken']);
      expect(body.count).toBe(3);
      expect(body.stats).toEqual({ total: 9, broken: { total: 3 } });
      const inApp = (await org.owner.client.get(`${links(spaceId)}?status=in-app`).expect(200))
        .body as LinksBody;
      expect(inApp.items.map(summary)).toEqual([
        {
          status: 'in-app',
          relation: 'reference',
          target: `${t.config.appUrl}/o/x/s/y`,
          at: ['pgHome@inApp'],
        },
      ]);
    });

    it('pages through the links', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const seen: Usage[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const query = `?limit=4${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`;
        const res = await org.owner.client.get(`${links(spaceId)}${query}`).expect(200);
        expectConforms(res, 'listSpaceLinks');
        const body = res.body as LinksBody;
        expect(body.count).toBe(9);
        seen.push(...body.items);
        cursor = body.next?.page;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      const all = (await org.owner.client.get(links(spaceId)).expect(200)).body as LinksBody;
      expect(seen.map(summary)).toEqual(all.items.map(summary));
    });

    it('lists nothing for a space without links', async () => {
      const org = await t.factories.organization();
      t.clock.advance(1000);
      const { id } = (await org.owner.client.post(`/v1/orgs/${org.id}/spaces`, {}).expect(201))
        .body as { id: string };
      const res = await org.owner.client.get(links(id)).expect(200);
      expectConforms(res, 'listSpaceLinks');
      expect(res.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0 } } });
    });

    it('answers 400 for a bad status, limit or page', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(await org.owner.client.get(`${links(spaceId)}?status=dead`), 400, 'status');
      expectError(await org.owner.client.get(`${links(spaceId)}?limit=0`), 400, 'limit');
      expectError(await org.owner.client.get(`${links(spaceId)}?limit=1001`), 400, 'limit');
      expectError(await org.owner.client.get(`${links(spaceId)}?page=nope`), 400, 'page');
    });

    it('answers 404 for an unknown space, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const other = await t.factories.organization();
      const unknown = await org.owner.client.get(links('nope'));
      expectError(unknown, 404, 'not found');
      expectConforms(unknown, 'listSpaceLinks');
      expectError(await other.owner.client.get(links(spaceId)), 404, 'not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(links(spaceId)), 404, 'not found');
    });
  });

  describe('GET /v1/spaces/:spaceId/content/page/:pageId/links (listPageLinksInSpace)', () => {
    it("lists one page's links with only that page's locations", async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(pageLinks(spaceId, 'pgGuide')).expect(200);
      expectConforms(res, 'listPageLinksInSpace');
      const body = res.body as LinksBody;
      expect(body.items.map(summary)).toEqual([
        { status: 'ok', relation: 'reference', target: 'page:pgHome', at: ['pgGuide@toHome'] },
      ]);
      expect(body.stats).toEqual({ total: 1, broken: { total: 0 } });

      const home = await reader
        .get(`${pageLinks(spaceId, 'pgHome')}?status=ok&limit=2`)
        .expect(200);
      expectConforms(home, 'listPageLinksInSpace');
      const homeBody = home.body as LinksBody;
      expect(homeBody.items.map(summary)).toEqual([
        {
          status: 'ok',
          relation: 'reference',
          target: 'page:pgGuide',
          at: ['pgHome@toGuide', 'pgHome@relative'],
        },
        {
          status: 'ok',
          relation: 'reference',
          target: 'page:pgGuide#setup',
          at: ['pgHome@toSetup'],
        },
      ]);
      expect(homeBody.count).toBe(4);
      expect(homeBody.next).toBeDefined();
      expect(homeBody.stats).toEqual({ total: 8, broken: { total: 3 } });
    });

    it('answers 400 for a bad status or limit', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(
        await org.owner.client.get(`${pageLinks(spaceId, 'pgHome')}?status=x`),
        400,
        'status',
      );
      expectError(
        await org.owner.client.get(`${pageLinks(spaceId, 'pgHome')}?limit=-1`),
        400,
        'limit',
      );
    });

    it('answers 404 for an unknown page, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(await org.owner.client.get(pageLinks(spaceId, 'nope')), 404, 'Page not found');
      expectError(await org.owner.client.get(pageLinks('nope', 'pgHome')), 404, 'not found');
      const other = await t.factories.organization();
      expectError(await other.owner.client.get(pageLinks(spaceId, 'pgHome')), 404, 'not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(pageLinks(spaceId, 'pgHome')), 404, 'not found');
    });
  });

  describe('GET /v1/spaces/:spaceId/content/page/:pageId/backlinks (listSpacePageBacklinks)', () => {
    /** linkedSpace, and a page More linking to an anchor of Guide. */
    async function withMore(org: TestOrganization): Promise<string> {
      const spaceId = await linkedSpace(org);
      const more: JSONDocument = {
        object: 'document',
        data: {},
        nodes: [
          paragraph('m1', link('toSetup', { kind: 'anchor', page: 'pgGuide', anchor: 'setup' })),
        ],
      };
      const hash = await engine.put(t.dataSource.manager, 'document', more);
      await commitOnSpace(t, spaceId, [
        {
          operation: 'insert_page',
          id: 'pgMore',
          meta: { title: 'More', slug: 'more' },
          document: hash,
        },
      ]);
      return spaceId;
    }

    it('lists the pages that link to the page or an anchor on it, once each', async () => {
      const org = await t.factories.organization();
      const spaceId = await withMore(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(pageBacklinks(spaceId, 'pgGuide')).expect(200);
      expectConforms(res, 'listSpacePageBacklinks');
      const body = res.body as { items: Location[]; count: number; next?: unknown };
      // Home links to it five ways (page, path, anchors, content-ref card), More to an anchor.
      expect(body.items.map((location) => location.page?.id)).toEqual(['pgHome', 'pgMore']);
      expect(body.count).toBe(2);
      expect(body.next).toBeUndefined();
      expect(body.items[0]).toMatchObject({
        kind: 'page',
        organization: { object: 'organization', id: org.id },
        space: { object: 'space', id: spaceId },
        page: { id: 'pgHome', title: 'Home', pages: [] },
      });
      expect(Object.keys(body.items[0].organization!).sort()).toEqual(
        [...ORGANIZATION_SUMMARY].sort(),
      );
      expect(Object.keys(body.items[0].space!).sort()).toEqual([...SPACE_SUMMARY].sort());

      const home = await reader.get(pageBacklinks(spaceId, 'pgHome')).expect(200);
      expectConforms(home, 'listSpacePageBacklinks');
      expect((home.body as { items: Location[] }).items.map((l) => l.page?.id)).toEqual([
        'pgGuide',
      ]);
      // Nothing links to More.
      const none = await reader.get(pageBacklinks(spaceId, 'pgMore')).expect(200);
      expectConforms(none, 'listSpacePageBacklinks');
      expect(none.body).toEqual({ items: [], count: 0 });
    });

    it('pages through the backlinks', async () => {
      const org = await t.factories.organization();
      const spaceId = await withMore(org);
      const first = await org.owner.client
        .get(`${pageBacklinks(spaceId, 'pgGuide')}?limit=1`)
        .expect(200);
      expectConforms(first, 'listSpacePageBacklinks');
      const firstBody = first.body as { items: Location[]; count: number; next?: { page: string } };
      expect(firstBody.items.map((l) => l.page?.id)).toEqual(['pgHome']);
      expect(firstBody.count).toBe(2);
      const second = await org.owner.client
        .get(`${pageBacklinks(spaceId, 'pgGuide')}?limit=1&page=${firstBody.next!.page}`)
        .expect(200);
      expectConforms(second, 'listSpacePageBacklinks');
      expect((second.body as { items: Location[] }).items.map((l) => l.page?.id)).toEqual([
        'pgMore',
      ]);
      expect((second.body as { next?: unknown }).next).toBeUndefined();
    });

    it('answers 404 once the page is deleted, while links to it stay, broken', async () => {
      const org = await t.factories.organization();
      const spaceId = await withMore(org);
      await commitOnSpace(t, spaceId, [{ operation: 'delete_page', page: 'pgGuide' }]);
      // (GitBook's spec declares no 404 for this operation: the error body is Bindery's usual.)
      expectError(
        await org.owner.client.get(pageBacklinks(spaceId, 'pgGuide')),
        404,
        'Page not found',
      );
      const more = await org.owner.client.get(pageLinks(spaceId, 'pgMore')).expect(200);
      expect((more.body as LinksBody).items.map(summary)).toEqual([
        {
          status: 'broken',
          relation: 'reference',
          target: 'page:pgGuide#setup',
          at: ['pgMore@toSetup'],
        },
      ]);
    });

    it('answers 400 for a bad limit or page', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const path = pageBacklinks(spaceId, 'pgGuide');
      expectError(await org.owner.client.get(`${path}?limit=0`), 400, 'limit');
      expectError(await org.owner.client.get(`${path}?limit=x`), 400, 'limit');
      expectError(await org.owner.client.get(`${path}?page=nope`), 400, 'page');
    });

    it('answers 404 for an unknown page or space, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(
        await org.owner.client.get(pageBacklinks(spaceId, 'nope')),
        404,
        'Page not found',
      );
      expectError(await org.owner.client.get(pageBacklinks('nope', 'pgGuide')), 404, 'not found');
      const other = await t.factories.organization();
      expectError(
        await other.owner.client.get(pageBacklinks(spaceId, 'pgGuide')),
        404,
        'not found',
      );
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(pageBacklinks(spaceId, 'pgGuide')), 404, 'not found');
    });
  });

  describe('GET /v1/spaces/:spaceId/content/files/:fileId/backlinks (listSpaceFileBacklinks)', () => {
    // Files cannot be written yet: the listing itself is covered by link-analysis.spec.ts.
    it('answers 404 for a file the revision does not have, even when a page references it', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.get(backlinks(spaceId, 'fileX')), 404, 'File not found');
    });

    it('lists the pages that reference the file, once added to the revision', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      const reader = await t.factories.asMember(org, 'read');
      const before = (await reader.get(`${links(spaceId)}?status=broken`).expect(200))
        .body as LinksBody;
      expect(before.stats.broken.total).toBe(3);
      await addFile(spaceId, { id: 'fileX', name: 'diagram.png' });
      const res = await reader.get(backlinks(spaceId, 'fileX')).expect(200);
      expectConforms(res, 'listSpaceFileBacklinks');
      const body = res.body as { items: Location[]; count: number };
      expect(body.count).toBe(1);
      expect(body.items).toEqual([
        expect.objectContaining({
          kind: 'page',
          organization: expect.objectContaining({ id: org.id }),
          space: expect.objectContaining({ id: spaceId }),
          page: expect.objectContaining({ id: 'pgHome' }),
        }),
      ]);
      // The new revision's links are worked out afresh: the file link is no longer broken.
      const after = await reader.get(links(spaceId)).expect(200);
      expectConforms(after, 'listSpaceLinks');
      const fileUsage = (after.body as LinksBody).items.find(
        (item) => item.targetReference?.kind === 'file',
      );
      expect(fileUsage).toMatchObject({
        status: 'ok',
        targetReference: { kind: 'file', file: { id: 'fileX', name: 'diagram.png' } },
      });
      expect((after.body as LinksBody).stats.broken.total).toBe(2);
      expectError(await reader.get(backlinks(spaceId, 'other')), 404, 'File not found');
    });

    it('answers 400 for a bad limit', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(
        await org.owner.client.get(`${backlinks(spaceId, 'fileX')}?limit=abc`),
        400,
        'limit',
      );
    });

    it('answers 404 for an unknown space, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await linkedSpace(org);
      expectError(await org.owner.client.get(backlinks('nope', 'fileX')), 404, 'not found');
      const other = await t.factories.organization();
      expectError(await other.owner.client.get(backlinks(spaceId, 'fileX')), 404, 'not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(backlinks(spaceId, 'fileX')), 404, 'not found');
    });
  });
});
