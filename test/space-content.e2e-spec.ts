import { ContentEngine } from '../src/content-engine/content-engine';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { Revision } from '../src/content-engine/entities/revision.entity';
import type { PageChange } from '../src/content-engine/tree/commit';
import { commitOnSpace } from './helpers/content';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

interface PageBody {
  type: string;
  kind?: string;
  id: string;
  title: string;
  slug?: string;
  path?: string;
  urls?: { app: string };
  pages?: PageBody[];
  layout?: Record<string, unknown>;
  documentId?: string;
  document?: JSONDocument;
  markdown?: string;
  [key: string]: unknown;
}

interface RevisionBody {
  object: 'revision';
  id: string;
  parents: string[];
  type: string;
  pages: PageBody[];
  files: unknown[];
  reusableContents: unknown[];
  variables?: Record<string, unknown>;
  createdAt: string;
  urls: { app: string };
  git?: Record<string, unknown>;
}

const LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  coverMask: 'none',
  tags: true,
  actions: true,
  anchors: true,
};

const paragraph = (text: string) => ({
  object: 'block' as const,
  type: 'paragraph',
  data: {},
  key: `k-${text.replace(/\W+/g, '-')}`,
  nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text, marks: [] }] }],
});

const DOCUMENT: JSONDocument = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'heading-1',
      key: 'k-title',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Install', marks: [] }] }],
    },
    paragraph('Run the installer.'),
  ],
} as JSONDocument;

describe('space content (reads)', () => {
  let t: TestApp;
  let engine: ContentEngine;
  beforeAll(async () => {
    t = await createTestApp();
    engine = t.bindery.app.get(ContentEngine);
  });
  afterAll(() => t.close());

  const content = (spaceId: string, rest = '') => `/v1/spaces/${spaceId}/content${rest}`;
  const revisions = (spaceId: string, rest = '') => `/v1/spaces/${spaceId}/revisions${rest}`;

  async function putDocument(document: JSONDocument): Promise<string> {
    return engine.put(t.dataSource.manager, 'document', document);
  }

  /**
   * A space with: Getting started (document, with a body) > Install (document, empty);
   * Reference (group) > API (document); Website (link); and the initial page removed.
   */
  async function handbook(org: TestOrganization) {
    const created = await t.factories.later.space(org, { empty: true });
    const document = await putDocument(DOCUMENT);
    const revision = await commitOnSpace(t, created.id, [
      {
        operation: 'insert_page',
        id: 'pgStart',
        meta: { title: 'Getting started', emoji: '1f680', description: 'First steps' },
        document,
      },
      {
        operation: 'insert_page',
        id: 'pgInstall',
        meta: { title: 'Install', layout: { width: 'wide' } },
        document,
        into: 'pgStart',
      },
      { operation: 'insert_page', id: 'pgEmpty', meta: { title: 'Empty' }, into: 'pgStart' },
      { operation: 'insert_page', id: 'pgRef', type: 'group', meta: { title: 'Reference' } },
      { operation: 'insert_page', id: 'pgApi', meta: { title: 'API' }, into: 'pgRef' },
      {
        operation: 'insert_page',
        id: 'pgLink',
        type: 'link',
        meta: { title: 'Website', target: { kind: 'url', url: 'https://example.com' } },
      },
    ]);
    return { spaceId: created.id, revision, document };
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  describe('new spaces', () => {
    it('start in tree format 2 with one empty "Untitled" page', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const res = await org.owner.client.get(content(created.id)).expect(200);
      expectConforms(res, 'getCurrentRevision');
      const body = res.body as RevisionBody;
      expect(body.pages).toEqual([
        {
          kind: 'sheet',
          type: 'document',
          id: expect.any(String),
          title: 'Untitled',
          urls: { app: expect.stringMatching(new RegExp(`/s/${created.id}/untitled$`)) },
          slug: 'untitled',
          path: 'untitled',
          pages: [],
          layout: LAYOUT,
          tags: [],
        },
      ]);
      const [tree]: { data: { version: number } }[] = await t.dataSource.query(
        `SELECT o.data FROM spaces s JOIN revisions r ON r.id = s.revision_id
           JOIN content_objects o ON o.hash = r.tree WHERE s.id = $1`,
        [created.id],
      );
      expect(tree.data.version).toBe(2);
    });
  });

  describe('GET /v1/spaces/{spaceId}/content (getCurrentRevision)', () => {
    it('answers the primary revision with its nested page tree', async () => {
      const org = await t.factories.organization();
      const { spaceId, revision, document } = await handbook(org);
      const reader = await t.factories.member(org, 'read');
      const res = await reader.client.get(content(spaceId)).expect(200);
      expectConforms(res, 'getCurrentRevision');
      const body = res.body as RevisionBody;
      expect(body).toMatchObject({
        object: 'revision',
        id: revision.id,
        parents: revision.parents,
        type: 'edits',
        files: [],
        reusableContents: [],
        variables: {},
        createdAt: revision.createdAt.toISOString(),
        urls: { app: expect.stringContaining(`/s/${spaceId}/~/revisions/${revision.id}`) },
      });
      expect(body.git).toBeUndefined();
      expect(body.pages.map((page) => [page.id, page.type, page.path])).toEqual([
        ['pgStart', 'document', 'getting-started'],
        ['pgRef', 'group', 'reference'],
        ['pgLink', 'link', undefined],
      ]);
      const [start, group, link] = body.pages;
      expect(start).toMatchObject({
        kind: 'sheet',
        title: 'Getting started',
        emoji: '1f680',
        description: 'First steps',
        documentId: document,
        layout: LAYOUT,
      });
      expect(start.document).toBeUndefined();
      expect(start.pages).toEqual([
        expect.objectContaining({
          id: 'pgInstall',
          path: 'getting-started/install',
          slug: 'install',
          documentId: document,
          layout: { ...LAYOUT, width: 'wide' },
          urls: { app: expect.stringMatching(/\/getting-started\/install$/) },
        }),
        expect.not.objectContaining({ documentId: expect.anything() }),
      ]);
      expect(group).toEqual({
        kind: 'group',
        type: 'group',
        id: 'pgRef',
        title: 'Reference',
        slug: 'reference',
        path: 'reference',
        pages: [expect.objectContaining({ id: 'pgApi', path: 'reference/api' })],
      });
      expect(link).toEqual({
        kind: 'link',
        type: 'link',
        id: 'pgLink',
        title: 'Website',
        target: { kind: 'url', url: 'https://example.com' },
      });
    });

    it('shows Git metadata unless metadata=false', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const git = { oid: 'abc123', message: 'Import', createdByDocs: false };
      await t.dataSource.query(
        `UPDATE revisions SET git = $1::jsonb
          WHERE id = (SELECT revision_id FROM spaces WHERE id = $2)`,
        [JSON.stringify(git), created.id],
      );
      const client = org.owner.client;
      expect((await client.get(content(created.id)).expect(200)).body.git).toEqual(git);
      const without = await client.get(`${content(created.id)}?metadata=false&computed=false`);
      expect(without.status).toBe(200);
      expect(without.body.git).toBeUndefined();
      expectConforms(without, 'getCurrentRevision');
    });

    it('rejects a metadata flag that is not a boolean', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(
        await org.owner.client.get(`${content(created.id)}?metadata=maybe`),
        400,
        'metadata',
      );
    });

    it('answers 404 for an unknown space, a space of another organization and a guest', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(await org.owner.client.get(content('nope')), 404, 'not found');
      expectError(await other.owner.client.get(content(created.id)), 404, 'not found');
      const guest = await t.factories.member(org, null);
      expectError(await guest.client.get(content(created.id)), 404, 'not found');
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/pages (listPages)', () => {
    it('answers {pages}, the same tree as the revision', async () => {
      const org = await t.factories.organization();
      const { spaceId } = await handbook(org);
      const client = org.owner.client;
      const res = await client.get(content(spaceId, '/pages')).expect(200);
      expectConforms(res, 'listPages');
      const revision = (await client.get(content(spaceId)).expect(200)).body as RevisionBody;
      expect(res.body).toEqual({ pages: revision.pages });
    });

    it('reads many pages with one query per level of the tree', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { empty: true });
      const changes: PageChange[] = [];
      for (let i = 0; i < 60; i++) {
        changes.push({ operation: 'insert_page', id: `top${i}`, meta: { title: `Top ${i}` } });
        changes.push({
          operation: 'insert_page',
          id: `sub${i}`,
          meta: { title: `Sub ${i}` },
          into: `top${i}`,
        });
      }
      await commitOnSpace(t, created.id, changes);
      const query = jest.spyOn(t.dataSource.manager, 'query');
      const res = await org.owner.client.get(content(created.id, '/pages')).expect(200);
      const objectReads = query.mock.calls.filter(([sql]) => sql.includes('content_objects'));
      query.mockRestore();
      // The root, then the 60 top-level pages together, then their 60 subpages together.
      expect(objectReads).toHaveLength(3);
      const pages = (res.body as { pages: PageBody[] }).pages;
      expect(pages).toHaveLength(60);
      expect(pages[59]).toMatchObject({
        id: 'top59',
        path: 'top-59',
        pages: [expect.objectContaining({ id: 'sub59', path: 'top-59/sub-59' })],
      });
    });

    it('answers 404 for another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(await other.owner.client.get(content(created.id, '/pages')), 404, 'not found');
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/page/{pageId} (getPageById)', () => {
    let org: TestOrganization;
    let spaceId: string;
    let reader: Client;
    beforeAll(async () => {
      org = await t.factories.organization();
      ({ spaceId } = await handbook(org));
      reader = (await t.factories.member(org, 'read')).client;
    });

    it('answers a document page with its JSON document by default, and its subpages', async () => {
      const res = await reader.get(content(spaceId, '/page/pgStart')).expect(200);
      expectConforms(res, 'getPageById');
      const body = res.body as PageBody;
      expect(body).toMatchObject({ id: 'pgStart', path: 'getting-started', document: DOCUMENT });
      expect(body.markdown).toBeUndefined();
      expect(body.pages?.map((page) => page.id)).toEqual(['pgInstall', 'pgEmpty']);
      expect(body.pages?.[0].document).toBeUndefined();
    });

    it('answers markdown with format=markdown', async () => {
      const res = await reader
        .get(content(spaceId, '/page/pgInstall?format=markdown&evaluated=deterministic-only'))
        .expect(200);
      expectConforms(res, 'getPageById');
      const body = res.body as PageBody;
      // The title as the first heading, then the body (which has a heading of its own here).
      expect(body.markdown).toBe('# Install\n\n# Install\n\nRun the installer.\n');
      expect(body.document).toBeUndefined();
      expect(body.path).toBe('getting-started/install');
    });

    it('answers an empty document page in markdown with its title, a group and a link without a body', async () => {
      const empty = await reader.get(content(spaceId, '/page/pgEmpty?format=markdown')).expect(200);
      expectConforms(empty, 'getPageById');
      expect(empty.body).toMatchObject({ id: 'pgEmpty', markdown: '# Empty\n' });
      expect(empty.body).not.toHaveProperty('documentId');
      const document = await reader.get(content(spaceId, '/page/pgEmpty')).expect(200);
      expect(document.body).not.toHaveProperty('document');
      for (const id of ['pgRef', 'pgLink']) {
        const res = await reader.get(content(spaceId, `/page/${id}?format=markdown`)).expect(200);
        expectConforms(res, 'getPageById');
        expect(res.body).not.toHaveProperty('markdown');
        expect(res.body).not.toHaveProperty('document');
        expect(res.body).not.toHaveProperty('documentId');
      }
    });

    it('rejects an unknown format', async () => {
      expectError(await reader.get(content(spaceId, '/page/pgStart?format=html')), 400, 'format');
    });

    it('writes a file of the space as its download URL, in both ref forms, and takes it back', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { empty: true });
      const owner = org.owner.client;
      const bytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
      const created = await t.factories.changeRequest(org, space, {
        changes: [
          {
            operation: 'insert_files',
            files: [
              {
                ref: 'guide',
                name: 'guide.pdf',
                contentType: 'application/pdf',
                base64: bytes.toString('base64'),
              },
            ],
          },
          {
            operation: 'insert_page',
            title: 'Guide',
            document: { markdown: 'Read [the guide](./guide).\n\n{% file src="./guide" %}\n' },
          },
        ],
        merge: true,
      });
      expect(created.status).toBe('merged');
      const [page] = (await owner.get(content(space, '/pages')).expect(200)).body.pages as {
        id: string;
      }[];
      const before = await owner.get(content(space, `/page/${page.id}`)).expect(200);
      for (const refs of ['relative', 'stable']) {
        const res = await owner
          .get(content(space, `/page/${page.id}?format=markdown&format.markdown.refs=${refs}`))
          .expect(200);
        expectConforms(res, 'getPageById');
        const markdown = res.body.markdown as string;
        expect(
          markdown.startsWith('# Guide\n\nRead [the guide](http://bindery.test/v1/files/'),
        ).toBe(true);
        const urls = [...markdown.matchAll(/http:\/\/bindery\.test(\/v1\/files\/[^\s")]+)/g)].map(
          ([, path]) => path.replace(/\\&/g, '&'),
        );
        expect(urls).toHaveLength(2);
        // A reader fetches it with no token: the URL is signed.
        const download = await t.anonymous
          .get(urls[0])
          .buffer(true)
          .parse((response, done) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200);
        expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);

        // Written back, the title heading is the title again and the URLs name the file.
        const changeRequest = await t.factories.changeRequest(org, space, {
          changes: [{ operation: 'update_page', page: page.id, document: { markdown } }],
        });
        const after = await owner
          .get(`/v1/spaces/${space}/revisions/${changeRequest.revision}/page/${page.id}`)
          .expect(200);
        expect(after.body.title).toBe('Guide');
        expect(stripKeys(after.body.document)).toEqual(stripKeys(before.body.document));
      }
    });

    it('answers 404 for an unknown page and for another organization', async () => {
      expectError(await reader.get(content(spaceId, '/page/nope')), 404, 'Page not found');
      const other = await t.factories.organization();
      expectError(
        await other.owner.client.get(content(spaceId, '/page/pgStart')),
        404,
        'not found',
      );
    });
  });

  describe('GET /v1/spaces/{spaceId}/content/path/{pagePath} (getPageByPath)', () => {
    let org: TestOrganization;
    let spaceId: string;
    beforeAll(async () => {
      org = await t.factories.organization();
      ({ spaceId } = await handbook(org));
    });

    it('finds a nested page by its path, with slashes plain or encoded', async () => {
      const client = org.owner.client;
      const res = await client.get(content(spaceId, '/path/getting-started/install')).expect(200);
      expectConforms(res, 'getPageByPath');
      expect(res.body).toMatchObject({ id: 'pgInstall', document: DOCUMENT });
      const encoded = await client
        .get(content(spaceId, '/path/getting-started%2Finstall?format=markdown'))
        .expect(200);
      expect(encoded.body).toMatchObject({ id: 'pgInstall', markdown: expect.any(String) });
      const group = await client.get(content(spaceId, '/path/reference')).expect(200);
      expectConforms(group, 'getPageByPath');
      expect(group.body).toMatchObject({ id: 'pgRef', type: 'group' });
    });

    it('answers 404 for an unknown path; 400 for an unknown format', async () => {
      const client = org.owner.client;
      expectError(await client.get(content(spaceId, '/path/getting-started/nope')), 404, 'Page');
      expectError(await client.get(content(spaceId, '/path/install')), 404, 'Page');
      expectError(await client.get(content(spaceId, '/path/reference?format=pdf')), 400, 'format');
      const other = await t.factories.organization();
      expectError(await other.owner.client.get(content(spaceId, '/path/reference')), 404, 'found');
    });
  });

  describe('files (listFiles, getFileById)', () => {
    it('lists no files yet, paginated; a file id is not found', async () => {
      const org = await t.factories.organization();
      const { spaceId } = await handbook(org);
      const client = org.owner.client;
      const res = await client.get(content(spaceId, '/files?limit=10')).expect(200);
      expectConforms(res, 'listFiles');
      expect(res.body).toEqual({ items: [], count: 0 });
      expectError(await client.get(content(spaceId, '/files?limit=0')), 400, 'limit');
      expectError(await client.get(content(spaceId, '/files?page=garbage')), 400, 'page');
      expectError(await client.get(content(spaceId, '/files/nope')), 404, 'File not found');
      const other = await t.factories.organization();
      expectError(await other.owner.client.get(content(spaceId, '/files')), 404, 'found');
    });
  });

  describe('revisions by id', () => {
    let org: TestOrganization;
    let spaceId: string;
    let first: string;
    let second: Revision;
    beforeAll(async () => {
      org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      spaceId = created.id;
      first = (
        (await org.owner.client.get(`/v1/spaces/${spaceId}`).expect(200)).body as {
          revision: string;
        }
      ).revision;
      second = await commitOnSpace(t, spaceId, [
        { operation: 'insert_page', id: 'pgNew', meta: { title: 'New page' } },
      ]);
    });

    it('getRevisionById reads an older revision of the space as it was', async () => {
      const client = (await t.factories.member(org, 'read')).client;
      const old = await client.get(revisions(spaceId, `/${first}`)).expect(200);
      expectConforms(old, 'getRevisionById');
      expect(old.body).toMatchObject({ id: first, parents: [] });
      expect((old.body as RevisionBody).pages.map((page) => page.title)).toEqual(['Untitled']);
      expect((old.body as RevisionBody).pages[0].urls?.app).toContain(
        `/s/${spaceId}/~/revisions/${first}/untitled`,
      );
      const current = await client.get(revisions(spaceId, `/${second.id}`)).expect(200);
      expect(current.body).toMatchObject({ id: second.id, parents: [first] });
      expect((current.body as RevisionBody).pages.map((page) => page.title)).toEqual([
        'Untitled',
        'New page',
      ]);
    });

    it('listPagesInRevisionById, getPageInRevisionById and getPageInRevisionByPath', async () => {
      const client = org.owner.client;
      const pages = await client.get(revisions(spaceId, `/${first}/pages`)).expect(200);
      expectConforms(pages, 'listPagesInRevisionById');
      expect((pages.body as { pages: PageBody[] }).pages).toHaveLength(1);
      const page = await client.get(revisions(spaceId, `/${second.id}/page/pgNew`)).expect(200);
      expectConforms(page, 'getPageInRevisionById');
      expect(page.body).toMatchObject({ id: 'pgNew', path: 'new-page' });
      expectError(await client.get(revisions(spaceId, `/${first}/page/pgNew`)), 404, 'Page');
      const byPath = await client.get(revisions(spaceId, `/${second.id}/path/new-page`));
      expect(byPath.status).toBe(200);
      expectConforms(byPath, 'getPageInRevisionByPath');
      expectError(
        await client.get(revisions(spaceId, `/${second.id}/page/pgNew?format=xml`)),
        400,
        'format',
      );
    });

    it('listFilesInRevisionById and getFileInRevisionById', async () => {
      const client = org.owner.client;
      const files = await client.get(revisions(spaceId, `/${first}/files`)).expect(200);
      expectConforms(files, 'listFilesInRevisionById');
      expect(files.body).toEqual({ items: [], count: 0 });
      expectError(await client.get(revisions(spaceId, `/${first}/files/f1`)), 404, 'File');
    });

    it('answers 404 for an unknown revision, another space’s, and another organization', async () => {
      const client = org.owner.client;
      const elsewhere = await t.factories.later.space(org);
      const elsewhereRevision = (
        (await client.get(`/v1/spaces/${elsewhere.id}`).expect(200)).body as { revision: string }
      ).revision;
      expectError(await client.get(revisions(spaceId, '/nope')), 404, 'Revision not found');
      expectError(
        await client.get(revisions(spaceId, `/${elsewhereRevision}`)),
        404,
        'Revision not found',
      );
      expectError(
        await client.get(revisions(spaceId, `/${elsewhereRevision}/pages`)),
        404,
        'Revision not found',
      );
      const other = await t.factories.organization();
      expectError(await other.owner.client.get(revisions(spaceId, `/${first}`)), 404, 'found');
      expectError(await client.get(revisions(spaceId, `/${first}?computed=yes`)), 400, 'computed');
    });
  });
});

/** A document without its block keys (markdown gives new ones). */
function stripKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) =>
      key === 'key' ? [] : [[key, stripKeys(child)]],
    ),
  );
}
