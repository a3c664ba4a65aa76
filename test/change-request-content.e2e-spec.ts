import { ContentEngine } from '../src/content-engine/content-engine';
import type {
  DocumentBlock,
  DocumentInline,
  JSONDocument,
} from '../src/content-engine/documents/document';
import { Revision } from '../src/content-engine/entities/revision.entity';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { ChangeRequestBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { commitOnSpace } from './helpers/content';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

const APP_URL = 'https://app.bindery.test';

interface PageBody {
  type: string;
  id: string;
  title: string;
  path?: string;
  urls?: { app: string };
  pages?: PageBody[];
  document?: JSONDocument;
  markdown?: string;
}

interface FileBody {
  id: string;
  name: string;
  downloadURL: string;
}

interface RevisionBody {
  object: 'revision';
  id: string;
  type: string;
  pages: PageBody[];
  files: FileBody[];
  urls: { app: string };
  mergedFrom?: ChangeRequestBody;
}

interface Location {
  kind: string;
  page?: PageBody;
  file?: FileBody;
  space?: { id: string };
  versionContext?: { type: string; changeRequest: ChangeRequestBody };
  internalLocation?: { type: string; node?: string };
  url?: string;
}

interface LinksBody {
  items: {
    status: string;
    relation: string;
    targetReference?: Location;
    locationReferences: Location[];
  }[];
  count: number;
  next?: { page: string };
  stats: { total: number; broken: { total: number; changeRequest?: number } };
}

/** What GitBook's 0.146.0 requires of a ChangeRequest: all a location's versionContext has. */
const CHANGE_REQUEST_SUMMARY = [
  'object',
  'id',
  'number',
  'status',
  'subject',
  'createdBy',
  'createdAt',
  'updatedAt',
  'space',
  'revision',
  'revisionInitial',
  'comments',
  'outdated',
  'urls',
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

const paragraph = (key: string, ...nodes: (DocumentInline | ReturnType<typeof text>)[]) =>
  ({ object: 'block', type: 'paragraph', key, data: {}, nodes }) as DocumentBlock;

/** Home links to Guide, to the file, to a missing page and to a URL. */
const HOME: JSONDocument = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'heading-1',
      key: 'title',
      data: {},
      nodes: [text('Setup')],
    },
    paragraph(
      'p1',
      text('See '),
      link('toGuide', { kind: 'page', page: 'pgGuide' }),
      link('toFile', { kind: 'file', file: 'flDiagram' }),
      link('toGone', { kind: 'page', page: 'pgGone' }),
      link('external', { kind: 'url', url: 'https://example.com/docs' }),
    ),
  ],
};

const GUIDE: JSONDocument = {
  object: 'document',
  data: {},
  nodes: [paragraph('g1', text('The guide.'))],
};

/** What a change request fixture is made of, and what the primary became after it. */
interface Fixture {
  org: TestOrganization;
  spaceId: string;
  changeRequest: ChangeRequestBody;
  /** The primary before the change request was created: the change request's content. */
  before: Revision;
  /** The primary after it moved on: Home renamed, Guide and the file deleted, News added. */
  after: Revision;
}

describe('change request content (reads)', () => {
  let t: TestApp;
  let engine: ContentEngine;
  beforeAll(async () => {
    t = await createTestApp({ APP_URL });
    engine = t.bindery.app.get(ContentEngine);
  });
  afterAll(() => t.close());

  const crContent = (f: Fixture, rest = '', changeRequest: string | number = f.changeRequest.id) =>
    `/v1/spaces/${f.spaceId}/change-requests/${changeRequest}/content${rest}`;
  const spaceContent = (f: Fixture, rest = '') => `/v1/spaces/${f.spaceId}/content${rest}`;
  const crAppUrl = (f: Fixture) =>
    `${APP_URL}/o/${f.org.id}/s/${f.spaceId}/~/changes/${f.changeRequest.number}`;

  /**
   * A space whose primary had Home (links), Guide and the file `flDiagram` when change request
   * 1 was created; then the primary moved on without them.
   */
  async function fixture(): Promise<Fixture> {
    const org = await t.factories.organization();
    const { id: spaceId } = await t.factories.later.space(org, { empty: true });
    const manager = t.dataSource.manager;
    const [home, guide, file] = await Promise.all([
      engine.put(manager, 'document', HOME),
      engine.put(manager, 'document', GUIDE),
      // Metadata only: no test downloads the bytes.
      engine.put(manager, 'file', {
        id: 'flDiagram',
        name: 'diagram.png',
        contentType: 'image/png',
        size: 12,
        blob: 'ab'.repeat(32),
      }),
    ]);
    const before = await commitOnSpace(t, spaceId, [
      { operation: 'insert_file', file },
      { operation: 'insert_page', id: 'pgHome', meta: { title: 'Home' }, document: home },
      {
        operation: 'insert_page',
        id: 'pgGuide',
        meta: { title: 'Guide' },
        document: guide,
        into: 'pgHome',
      },
    ]);
    const changeRequest = await t.factories.changeRequest(org, spaceId, { subject: 'Docs' });
    const after = await commitOnSpace(t, spaceId, [
      { operation: 'update_page', page: 'pgHome', meta: { title: 'Welcome' } },
      { operation: 'delete_page', page: 'pgGuide' },
      { operation: 'delete_file', file: 'flDiagram' },
      { operation: 'insert_page', id: 'pgNews', meta: { title: 'News' } },
    ]);
    return { org, spaceId, changeRequest, before, after };
  }

  describe('GET .../change-requests/{changeRequestId}/content (getRevisionOfChangeRequestById)', () => {
    it("answers the change request's revision, by id or number, after the primary moved", async () => {
      const f = await fixture();
      expect(f.changeRequest.revision).toBe(f.before.id);
      const reader = await t.factories.asMember(f.org, 'read');
      const res = await reader.get(crContent(f)).expect(200);
      expectConforms(res, 'getRevisionOfChangeRequestById');
      const body = res.body as RevisionBody;
      expect(body).toMatchObject({
        object: 'revision',
        id: f.before.id,
        type: 'edits',
        urls: { app: crAppUrl(f) },
      });
      expect(body.mergedFrom).toBeUndefined();
      expect(body.pages.map((page) => [page.id, page.title, page.urls?.app])).toEqual([
        ['pgHome', 'Home', `${crAppUrl(f)}/home`],
      ]);
      expect(body.pages[0].pages?.map((page) => [page.id, page.urls?.app])).toEqual([
        ['pgGuide', `${crAppUrl(f)}/home/guide`],
      ]);
      expect(body.files).toEqual([
        {
          id: 'flDiagram',
          name: 'diagram.png',
          contentType: 'image/png',
          size: 12,
          downloadURL: expect.stringContaining(`${TEST_PUBLIC_URL}/v1/files/sha256/`) as string,
        },
      ]);
      const byNumber = await reader.get(crContent(f, '', 1)).expect(200);
      expect(byNumber.body).toEqual(body);

      const primary = (await reader.get(spaceContent(f)).expect(200)).body as RevisionBody;
      expect(primary.id).toBe(f.after.id);
      expect(primary.pages.map((page) => page.title)).toEqual(['Welcome', 'News']);
      expect(primary.files).toEqual([]);
    });

    it('rejects a metadata flag that is not a boolean', async () => {
      const f = await fixture();
      expectError(await f.org.owner.client.get(crContent(f, '?metadata=maybe')), 400, 'metadata');
    });
  });

  describe('GET .../content/pages (listPagesInChangeRequest)', () => {
    it("answers {pages}, the change request's page tree", async () => {
      const f = await fixture();
      const res = await f.org.owner.client.get(crContent(f, '/pages?metadata=false')).expect(200);
      expectConforms(res, 'listPagesInChangeRequest');
      const { pages } = res.body as { pages: PageBody[] };
      expect(pages.map((page) => [page.id, page.title, page.path])).toEqual([
        ['pgHome', 'Home', 'home'],
      ]);
      expect(pages[0].pages?.map((page) => [page.id, page.path])).toEqual([
        ['pgGuide', 'home/guide'],
      ]);
      const revision = await f.org.owner.client.get(crContent(f)).expect(200);
      expect(pages).toEqual((revision.body as RevisionBody).pages);
    });

    it('rejects a computed flag that is not a boolean', async () => {
      const f = await fixture();
      expectError(
        await f.org.owner.client.get(crContent(f, '/pages?computed=yes')),
        400,
        'computed',
      );
    });
  });

  describe('GET .../content/files (listFilesInChangeRequestById)', () => {
    it("lists the change request's files, paginated, when the primary has none", async () => {
      const f = await fixture();
      const res = await f.org.owner.client.get(crContent(f, '/files?limit=1')).expect(200);
      expectConforms(res, 'listFilesInChangeRequestById');
      expect(res.body).toEqual({
        items: [expect.objectContaining({ id: 'flDiagram', name: 'diagram.png' })],
        count: 1,
      });
      const primary = await f.org.owner.client.get(spaceContent(f, '/files')).expect(200);
      expect(primary.body).toEqual({ items: [], count: 0 });
    });

    it('rejects a bad limit and a bad page cursor', async () => {
      const f = await fixture();
      expectError(await f.org.owner.client.get(crContent(f, '/files?limit=0')), 400, 'limit');
      expectError(await f.org.owner.client.get(crContent(f, '/files?page=garbage')), 400, 'page');
    });
  });

  describe('GET .../content/files/{fileId} (getFileInChangeRequestById)', () => {
    it('answers a file that the primary no longer has', async () => {
      const f = await fixture();
      const res = await f.org.owner.client.get(crContent(f, '/files/flDiagram')).expect(200);
      expectConforms(res, 'getFileInChangeRequestById');
      expect(res.body).toEqual({
        id: 'flDiagram',
        name: 'diagram.png',
        contentType: 'image/png',
        size: 12,
        downloadURL: expect.stringContaining(`${TEST_PUBLIC_URL}/v1/files/sha256/`) as string,
      });
      expectError(
        await f.org.owner.client.get(spaceContent(f, '/files/flDiagram')),
        404,
        'File not found',
      );
    });

    it('answers 404 for an unknown file; 400 for a bad metadata flag', async () => {
      const f = await fixture();
      expectError(await f.org.owner.client.get(crContent(f, '/files/nope')), 404, 'File not found');
      expectError(
        await f.org.owner.client.get(crContent(f, '/files/flDiagram?metadata=1')),
        400,
        'metadata',
      );
    });
  });

  describe('GET .../content/files/{fileId}/backlinks (listChangeRequestFileBacklinks)', () => {
    it('lists the pages of the change request that reference the file', async () => {
      const f = await fixture();
      const reader = await t.factories.asMember(f.org, 'read');
      const res = await reader.get(crContent(f, '/files/flDiagram/backlinks')).expect(200);
      expectConforms(res, 'listChangeRequestFileBacklinks');
      const body = res.body as { items: Location[]; count: number; next?: unknown };
      expect(body.count).toBe(1);
      expect(body.next).toBeUndefined();
      const [location] = body.items;
      expect(location).toMatchObject({
        kind: 'page',
        space: { id: f.spaceId },
        page: { id: 'pgHome', title: 'Home', pages: [], urls: { app: `${crAppUrl(f)}/home` } },
        versionContext: {
          type: 'changeRequest',
          changeRequest: { object: 'change-request', id: f.changeRequest.id, number: 1 },
        },
      });
      // The primary no longer has the file.
      expectError(await reader.get(spaceContent(f, '/files/flDiagram/backlinks')), 404, 'File');
    });

    it('answers 404 for an unknown file; 400 for a bad limit', async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      expectError(await client.get(crContent(f, '/files/nope/backlinks')), 404, 'File not found');
      expectError(
        await client.get(crContent(f, '/files/flDiagram/backlinks?limit=0')),
        400,
        'limit',
      );
    });
  });

  describe('GET .../content/page/{pageId} (getPageInChangeRequestById)', () => {
    it("answers the change request's version of a page, with its body", async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      const res = await client.get(crContent(f, '/page/pgHome')).expect(200);
      expectConforms(res, 'getPageInChangeRequestById');
      const page = res.body as PageBody;
      expect(page).toMatchObject({
        type: 'document',
        id: 'pgHome',
        title: 'Home',
        urls: { app: `${crAppUrl(f)}/home` },
        document: { object: 'document' },
      });
      expect(page.pages?.map((child) => child.id)).toEqual(['pgGuide']);
      const primary = await client.get(spaceContent(f, '/page/pgHome')).expect(200);
      expect((primary.body as PageBody).title).toBe('Welcome');

      const markdown = await client.get(crContent(f, '/page/pgGuide?format=markdown')).expect(200);
      expectConforms(markdown, 'getPageInChangeRequestById');
      expect((markdown.body as PageBody).markdown).toContain('The guide.');
      expect((markdown.body as PageBody).document).toBeUndefined();
      expectError(await client.get(spaceContent(f, '/page/pgGuide')), 404, 'Page not found');
    });

    it('answers 404 for an unknown page; 400 for an unknown format or evaluated value', async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      expectError(await client.get(crContent(f, '/page/pgNews')), 404, 'Page not found');
      expectError(await client.get(crContent(f, '/page/pgHome?format=html')), 400, 'format');
      expectError(await client.get(crContent(f, '/page/pgHome?evaluated=maybe')), 400, 'evaluated');
      await client.get(crContent(f, '/page/pgHome?evaluated=deterministic-only')).expect(200);
    });
  });

  describe('GET .../content/page/{pageId}/links (listPageLinksInChangeRequest)', () => {
    it("lists a page's links resolved in the change request, not in the primary", async () => {
      const f = await fixture();
      const reader = await t.factories.asMember(f.org, 'read');
      const res = await reader.get(crContent(f, '/page/pgHome/links')).expect(200);
      expectConforms(res, 'listPageLinksInChangeRequest');
      const body = res.body as LinksBody;
      const summary = (items: LinksBody['items']) =>
        items.map((usage) => ({
          status: usage.status,
          target:
            usage.targetReference?.page?.id ??
            usage.targetReference?.file?.id ??
            usage.targetReference?.url ??
            null,
          at: usage.locationReferences.map((l) => `${l.page?.id}@${l.internalLocation?.node}`),
        }));
      expect(summary(body.items)).toEqual([
        { status: 'ok', target: 'pgGuide', at: ['pgHome@toGuide'] },
        { status: 'ok', target: 'flDiagram', at: ['pgHome@toFile'] },
        { status: 'broken', target: null, at: ['pgHome@toGone'] },
        { status: 'ok', target: 'https://example.com/docs', at: ['pgHome@external'] },
      ]);
      expect(body.count).toBe(4);
      // The missing page was missing already in the revision the change request started from.
      expect(body.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 0 } });
      const guide = body.items[0].targetReference!;
      expect(guide.page?.urls?.app).toBe(`${crAppUrl(f)}/home/guide`);
      expect(guide.versionContext?.changeRequest.id).toBe(f.changeRequest.id);
      expect(Object.keys(guide.versionContext!.changeRequest).sort()).toEqual(
        [...CHANGE_REQUEST_SUMMARY].sort(),
      );

      // On the primary, Guide and the file are gone: those links are broken there, and Guide
      // is named as the revision before had it.
      const primary = await reader.get(spaceContent(f, '/page/pgHome/links')).expect(200);
      expectConforms(primary, 'listPageLinksInSpace');
      const primaryBody = primary.body as LinksBody;
      expect(primaryBody.stats).toEqual({ total: 4, broken: { total: 3 } });
      expect(
        primaryBody.items.every((usage) => usage.targetReference?.versionContext === undefined),
      ).toBe(true);
      expect(primaryBody.items[0]).toMatchObject({
        status: 'broken',
        targetReference: { kind: 'page', page: { id: 'pgGuide', title: 'Guide' } },
      });
      expect(primaryBody.items[0].targetReference!.page!.urls!.app).toContain(f.before.id);
    });

    it('counts in broken.changeRequest the links the change request broke', async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      await client
        .post(`/v1/spaces/${f.spaceId}/change-requests/${f.changeRequest.id}/content`, {
          changes: [{ operation: 'delete_page', page: 'pgGuide' }],
        })
        .expect(200);
      const res = await client.get(crContent(f, '/page/pgHome/links')).expect(200);
      expectConforms(res, 'listPageLinksInChangeRequest');
      const body = res.body as LinksBody;
      // Guide, deleted in the change request; the missing page was already broken before it.
      expect(body.stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 1 } });
      const [guide] = body.items;
      expect(guide.status).toBe('broken');
      expect(guide.targetReference).toMatchObject({
        kind: 'page',
        page: { id: 'pgGuide', title: 'Guide' },
      });
      // Named as an earlier revision has it, not in the change request.
      expect(guide.targetReference!.versionContext).toBeUndefined();
      expect(guide.locationReferences[0].versionContext?.changeRequest.id).toBe(f.changeRequest.id);
      expectError(await client.get(crContent(f, '/page/pgGuide/backlinks')), 404, 'Page not found');
    });

    it('pages with limit; rejects a bad limit and the space-only status filter', async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      const first = await client.get(crContent(f, '/page/pgHome/links?limit=3')).expect(200);
      expectConforms(first, 'listPageLinksInChangeRequest');
      const firstBody = first.body as LinksBody;
      expect(firstBody.items).toHaveLength(3);
      const rest = await client
        .get(crContent(f, `/page/pgHome/links?limit=3&page=${firstBody.next!.page}`))
        .expect(200);
      expect((rest.body as LinksBody).items).toHaveLength(1);
      expect((rest.body as LinksBody).next).toBeUndefined();
      expectError(await client.get(crContent(f, '/page/pgHome/links?limit=0')), 400, 'limit');
      expectError(await client.get(crContent(f, '/page/pgHome/links?status=ok')), 400, 'status');
      expectError(await client.get(crContent(f, '/page/nope/links')), 404, 'Page not found');
    });
  });

  describe('GET .../content/page/{pageId}/backlinks (listChangeRequestPageBacklinks)', () => {
    it('lists the pages of the change request that link to the page', async () => {
      const f = await fixture();
      const reader = await t.factories.asMember(f.org, 'read');
      const res = await reader.get(crContent(f, '/page/pgGuide/backlinks')).expect(200);
      expectConforms(res, 'listChangeRequestPageBacklinks');
      const body = res.body as { items: Location[]; count: number; next?: unknown };
      expect(body.count).toBe(1);
      expect(body.next).toBeUndefined();
      expect(body.items[0]).toMatchObject({
        kind: 'page',
        space: { id: f.spaceId },
        page: { id: 'pgHome', title: 'Home', pages: [], urls: { app: `${crAppUrl(f)}/home` } },
        versionContext: {
          type: 'changeRequest',
          changeRequest: { object: 'change-request', id: f.changeRequest.id, number: 1 },
        },
      });
      expect(Object.keys(body.items[0].versionContext!.changeRequest).sort()).toEqual(
        [...CHANGE_REQUEST_SUMMARY].sort(),
      );
      const home = await reader.get(crContent(f, '/page/pgHome/backlinks')).expect(200);
      expectConforms(home, 'listChangeRequestPageBacklinks');
      expect(home.body).toEqual({ items: [], count: 0 });
      // The primary no longer has Guide.
      expectError(await reader.get(spaceContent(f, '/page/pgGuide/backlinks')), 404, 'Page');
    });

    it('answers 404 for an unknown page; 400 for a bad limit or page', async () => {
      const f = await fixture();
      const client = f.org.owner.client;
      expectError(await client.get(crContent(f, '/page/nope/backlinks')), 404, 'Page not found');
      expectError(await client.get(crContent(f, '/page/pgGuide/backlinks?limit=0')), 400, 'limit');
      expectError(await client.get(crContent(f, '/page/pgGuide/backlinks?page=x')), 400, 'page');
    });
  });

  describe('not found', () => {
    const ROUTES = [
      ['getRevisionOfChangeRequestById', ''],
      ['listPagesInChangeRequest', '/pages'],
      ['listFilesInChangeRequestById', '/files'],
      ['getFileInChangeRequestById', '/files/flDiagram'],
      ['listChangeRequestFileBacklinks', '/files/flDiagram/backlinks'],
      ['getPageInChangeRequestById', '/page/pgHome'],
      ['listPageLinksInChangeRequest', '/page/pgHome/links'],
      ['listChangeRequestPageBacklinks', '/page/pgGuide/backlinks'],
      ['listChangeRequestPageMetaLinks', '/page/pgGuide/meta-links'],
    ] as const;

    it.each(ROUTES)(
      '%s: 404 for an unknown change request id or number, another organization and a guest',
      async (_operationId, rest) => {
        const f = await fixture();
        const client: Client = f.org.owner.client;
        await client.get(crContent(f, rest)).expect(200);
        expectError(await client.get(crContent(f, rest, 'nope')), 404, 'Change request not found');
        expectError(await client.get(crContent(f, rest, 2)), 404, 'Change request not found');
        const other = await t.factories.organization();
        expectError(await other.owner.client.get(crContent(f, rest)), 404, 'not found');
        const guest = await t.factories.asMember(f.org, null);
        expectError(await guest.get(crContent(f, rest)), 404, 'not found');
      },
    );

    it('a change request of another space of the organization is not found', async () => {
      const f = await fixture();
      const g = await fixture();
      const res = await f.org.owner.client.get(
        `/v1/spaces/${f.spaceId}/change-requests/${g.changeRequest.id}/content`,
      );
      expectError(res, 404, 'Change request not found');
    });
  });

  describe('merge revisions (mergedFrom)', () => {
    /** Marks the change request merged into a new `merge` revision of the primary. */
    async function merge(f: Fixture): Promise<string> {
      t.clock.advance(1000);
      const id = `rvmerge${f.changeRequest.id}`.slice(0, 32);
      await t.dataSource.transaction(async (manager) => {
        await manager.insert(Revision, {
          id,
          spaceId: f.spaceId,
          parents: [f.after.id, f.before.id],
          type: 'merge',
          tree: f.after.tree,
          authorId: f.org.owner.id,
          git: null,
          createdAt: t.clock.now(),
        });
        await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [id, f.spaceId]);
        await manager.query(
          `UPDATE change_requests SET status = 'merged', revision_merged = $1 WHERE id = $2`,
          [id, f.changeRequest.id],
        );
      });
      return id;
    }

    it('a merge revision carries the change request it merged', async () => {
      const f = await fixture();
      const mergeId = await merge(f);
      const client = f.org.owner.client;
      const byId = await client.get(`/v1/spaces/${f.spaceId}/revisions/${mergeId}`).expect(200);
      expectConforms(byId, 'getRevisionById');
      const body = byId.body as RevisionBody;
      expect(body.type).toBe('merge');
      const changeRequest = await client
        .get(`/v1/spaces/${f.spaceId}/change-requests/${f.changeRequest.id}`)
        .expect(200);
      expect(body.mergedFrom).toEqual(changeRequest.body);
      expect(body.mergedFrom).toMatchObject({ status: 'merged', revisionMerged: mergeId });

      const current = await client.get(spaceContent(f)).expect(200);
      expectConforms(current, 'getCurrentRevision');
      expect((current.body as RevisionBody).mergedFrom?.id).toBe(f.changeRequest.id);

      // Other revisions carry none.
      const older = await client.get(`/v1/spaces/${f.spaceId}/revisions/${f.after.id}`).expect(200);
      expect((older.body as RevisionBody).mergedFrom).toBeUndefined();
    });
  });
});
