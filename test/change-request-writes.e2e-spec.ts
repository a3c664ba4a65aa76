import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeRequest } from '../src/change-requests/entities/change-request.entity';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { Revision } from '../src/content-engine/entities/revision.entity';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { ChangeRequestBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

interface PageBody {
  id: string;
  type: string;
  title: string;
  slug?: string;
  path?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  pages: PageBody[];
  document?: JSONDocument;
  markdown?: string;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const paragraph = (key: string, text: string) => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

describe('change request content writes (updateChangeRequestContent)', () => {
  let t: TestApp;
  let files: Server;
  let filesOrigin: string;

  beforeAll(async () => {
    t = await createTestApp();
    files = createServer((request, response) => {
      if (request.url === '/logo.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(PNG);
      } else if (request.url === '/notes.txt') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Some notes.');
      } else if (request.url === '/big.bin') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.alloc(1024 * 1024 + 1));
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => files.close(resolve));
    await t.close();
  });

  interface Setup {
    org: TestOrganization;
    owner: Client;
    spaceId: string;
    primary: string;
    /** The space's initial "Untitled" page. */
    initialPage: string;
    cr: ChangeRequestBody;
  }

  async function setup(): Promise<Setup> {
    const org = await t.factories.organization();
    const owner = org.owner.client;
    const space = await t.factories.space(org, { title: 'Handbook' });
    const cr = await t.factories.changeRequest(org, space.id);
    const [initial] = await pages(owner, space.id, space.revision);
    return {
      org,
      owner,
      spaceId: space.id,
      primary: space.revision,
      initialPage: initial.id,
      cr,
    };
  }

  const contentPath = (spaceId: string, cr: string | number) =>
    `/v1/spaces/${spaceId}/change-requests/${cr}/content`;

  function write(
    s: Setup,
    changes: unknown,
    options: { ifMatch?: string; compat?: boolean; as?: Client; cr?: string | number } = {},
  ) {
    const query = options.compat === undefined ? '' : `?compat=${options.compat}`;
    const request = (options.as ?? s.owner).post(
      `${contentPath(s.spaceId, options.cr ?? s.cr.id)}${query}`,
      { changes },
    );
    return options.ifMatch === undefined ? request : request.set('If-Match', options.ifMatch);
  }

  /** Writes and answers the change request's new head. */
  async function ok(s: Setup, changes: unknown[]): Promise<string> {
    const res = await write(s, changes);
    expect(res.body).not.toHaveProperty('error');
    expect(res.status).toBe(200);
    return (res.body as ChangeRequestBody).revision;
  }

  async function pages(client: Client, spaceId: string, revision: string): Promise<PageBody[]> {
    const res = await client.get(`/v1/spaces/${spaceId}/revisions/${revision}/pages`).expect(200);
    return (res.body as { pages: PageBody[] }).pages;
  }

  async function page(
    s: Setup,
    revision: string,
    pageId: string,
    format: 'document' | 'markdown' = 'document',
  ): Promise<PageBody> {
    const res = await s.owner
      .get(`/v1/spaces/${s.spaceId}/revisions/${revision}/page/${pageId}?format=${format}`)
      .expect(200);
    return res.body as PageBody;
  }

  /** Every page of a revision by title, flattened. */
  async function byTitle(s: Setup, revision: string): Promise<Map<string, PageBody>> {
    const found = new Map<string, PageBody>();
    const visit = (list: PageBody[]) =>
      list.forEach((p) => {
        found.set(p.title, p);
        visit(p.pages ?? []);
      });
    visit(await pages(s.owner, s.spaceId, revision));
    return found;
  }

  async function head(s: Setup): Promise<ChangeRequestBody> {
    return (await s.owner.get(`/v1/spaces/${s.spaceId}/change-requests/${s.cr.id}`).expect(200))
      .body as ChangeRequestBody;
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
    expect(res.status).toBe(code);
  }

  /** Collects every ContentRef of a document, in order. */
  function refsOf(document: JSONDocument): unknown[] {
    const refs: unknown[] = [];
    const visit = (node: {
      data?: { ref?: unknown };
      nodes?: unknown[];
      fragments?: unknown[];
    }) => {
      if (node.data?.ref) refs.push(node.data.ref);
      (node.nodes ?? []).forEach((child) => visit(child as typeof node));
      (node.fragments ?? []).forEach((child) => visit(child as typeof node));
    };
    document.nodes.forEach((node) => visit(node as typeof node & object));
    return refs;
  }

  function textOf(document: JSONDocument): string {
    const visit = (node: { leaves?: { text: string }[]; nodes?: unknown[] }): string =>
      node.leaves
        ? node.leaves.map((leaf) => leaf.text).join('')
        : (node.nodes ?? []).map((child) => visit(child as typeof node)).join('');
    return document.nodes.map((node) => visit(node as never)).join('\n');
  }

  describe('pages', () => {
    it('inserts a markdown page with frontmatter as one new revision on the change request only', async () => {
      const s = await setup();
      t.clock.advance(60_000);
      const res = await write(s, [
        {
          operation: 'insert_page',
          title: 'Ignored: the frontmatter names one',
          document: {
            markdown:
              '---\ntitle: Install guide\ndescription: How to install\nemoji: "1f680"\n' +
              'hidden: true\nnoIndex: true\n---\n# Installing\n\nRun **the** installer.\n',
          },
        },
      ]).expect(200);
      expectConforms({ status: 200, body: res.body }, 'getChangeRequestById');
      const cr = res.body as ChangeRequestBody;
      expect(cr).toMatchObject({ id: s.cr.id, revisionInitial: s.primary, status: 'open' });
      expect(cr.revision).not.toBe(s.cr.revision);
      expect(res.headers.etag).toBe(`"${cr.revision}"`);
      expect(cr.updatedAt).not.toBe(s.cr.updatedAt);

      const revision = await t.dataSource
        .getRepository(Revision)
        .findOneByOrFail({ id: cr.revision });
      expect(revision).toMatchObject({
        spaceId: s.spaceId,
        parents: [s.cr.revision],
        type: 'edits',
        authorId: s.org.owner.id,
      });
      const inserted = (await byTitle(s, cr.revision)).get('Install guide');
      expect(inserted).toMatchObject({
        slug: 'install-guide',
        description: 'How to install',
        emoji: '1f680',
        hidden: true,
        noIndex: true,
      });
      const body = await page(s, cr.revision, inserted!.id, 'markdown');
      // The frontmatter names the title: the heading stays in the body, after the title's.
      expect(body.markdown).toBe('# Install guide\n\n# Installing\n\nRun **the** installer.\n');

      // The primary content has not moved.
      const space = await s.owner.get(`/v1/spaces/${s.spaceId}`).expect(200);
      expect(space.body.revision).toBe(s.primary);
      expect((await pages(s.owner, s.spaceId, s.primary)).map((p) => p.title)).toEqual([
        'Untitled',
      ]);
      expect((await head(s)).revision).toBe(cr.revision);
    });

    it('takes a title from a leading heading, then `title`, then "Untitled"', async () => {
      const s = await setup();
      const revision = await ok(s, [
        {
          operation: 'insert_page',
          title: 'Not this',
          document: { markdown: '# Quick start\n\nGo.' },
        },
        { operation: 'insert_page', title: 'From the field', document: { markdown: 'Body only.' } },
        { operation: 'insert_page', document: {} },
        {
          operation: 'insert_page',
          title: 'JSON',
          document: { document: { object: 'document', data: {}, nodes: [paragraph('p1', 'Hi')] } },
        },
      ]);
      const list = await pages(s.owner, s.spaceId, revision);
      expect(list.map((p) => [p.title, p.slug])).toEqual([
        ['Untitled', 'untitled'],
        ['Quick start', 'quick-start'],
        ['From the field', 'from-the-field'],
        ['Untitled', 'untitled-2'],
        ['JSON', 'json'],
      ]);
      expect((await page(s, revision, list[1].id, 'markdown')).markdown).toBe(
        '# Quick start\n\nGo.\n',
      );
      expect((await page(s, revision, list[3].id)).document).toBeUndefined();
      expect((await page(s, revision, list[4].id)).document?.nodes).toEqual([
        paragraph('p1', 'Hi'),
      ]);
    });

    it('inserts into a parent at a position, and takes the change request by number', async () => {
      const s = await setup();
      const revision = await ok(s, [
        { operation: 'insert_page', title: 'B', document: {}, into: s.initialPage },
        { operation: 'insert_page', title: 'A', document: {}, into: s.initialPage, at: 0 },
      ]);
      const [root] = await pages(s.owner, s.spaceId, revision);
      expect(root.pages.map((p) => [p.title, p.path])).toEqual([
        ['A', 'untitled/a'],
        ['B', 'untitled/b'],
      ]);
      const res = await write(s, [{ operation: 'delete_page', page: root.pages[0].id }], {
        cr: s.cr.number,
      }).expect(200);
      const [after] = await pages(s.owner, s.spaceId, res.body.revision as string);
      expect(after.pages.map((p) => p.title)).toEqual(['B']);
    });

    it('updates metadata (a rename keeps the slug), the body, and moves pages', async () => {
      const s = await setup();
      const first = await ok(s, [
        { operation: 'insert_page', title: 'Guides', document: { markdown: 'Guides.' } },
        { operation: 'insert_page', title: 'Setup', document: { markdown: 'Old body.' } },
        { operation: 'insert_page', title: 'Other', document: {} },
      ]);
      const ids = await byTitle(s, first);
      const guides = ids.get('Guides')!.id;
      const setupPage = ids.get('Setup')!.id;
      const other = ids.get('Other')!.id;

      const second = await ok(s, [
        {
          operation: 'update_page',
          page: setupPage,
          title: 'Setting up',
          icon: 'gear',
          document: { markdown: '---\ndescription: From frontmatter\n---\nNew body.\n' },
          into: guides,
        },
        { operation: 'update_page', page: other, slug: 'elsewhere' },
        { operation: 'update_page', page: s.initialPage, at: 2 },
      ]);
      const tree = await pages(s.owner, s.spaceId, second);
      expect(tree.map((p) => [p.title, p.slug])).toEqual([
        ['Guides', 'guides'],
        ['Other', 'elsewhere'],
        ['Untitled', 'untitled'],
      ]);
      expect(tree[0].pages[0]).toMatchObject({
        id: setupPage,
        title: 'Setting up',
        slug: 'setup',
        path: 'guides/setup',
        icon: 'gear',
        description: 'From frontmatter',
      });
      expect((await page(s, second, setupPage, 'markdown')).markdown).toBe(
        '# Setting up\n\nNew body.\n',
      );

      const third = await ok(s, [
        {
          operation: 'update_page',
          page: setupPage,
          into: null,
          at: 0,
          icon: '',
          slug: 'setup-guide',
        },
        { operation: 'update_page', page: guides, document: {} },
      ]);
      const moved = await pages(s.owner, s.spaceId, third);
      expect(moved.map((p) => p.title)).toEqual(['Setting up', 'Guides', 'Other', 'Untitled']);
      expect(moved[0].icon).toBeUndefined();
      expect(moved[0].slug).toBe('setup-guide');
      expect((await page(s, third, guides)).document).toBeUndefined();
    });

    it('deletes a page with its subpages', async () => {
      const s = await setup();
      const first = await ok(s, [
        { operation: 'insert_page', title: 'Child', document: {}, into: s.initialPage },
      ]);
      const second = await ok(s, [{ operation: 'delete_page', page: s.initialPage }]);
      expect(await pages(s.owner, s.spaceId, second)).toEqual([]);
      expect((await pages(s.owner, s.spaceId, first))[0].pages).toHaveLength(1);
    });

    it('refuses moving a page under itself, naming the change', async () => {
      const s = await setup();
      const first = await ok(s, [
        { operation: 'insert_page', title: 'Child', document: {}, into: s.initialPage },
      ]);
      const child = (await byTitle(s, first)).get('Child')!.id;
      const res = await write(s, [
        { operation: 'update_page', page: child, title: 'Renamed' },
        { operation: 'update_page', page: s.initialPage, into: child },
      ]);
      expectError(res, 400, 'Change 1 (update_page): page');
      expect((await head(s)).revision).toBe(first);
    });
  });

  describe('refs and links', () => {
    it('resolves batch refs, page ids, paths, relative links and files; keeps unresolved links as written', async () => {
      const s = await setup();
      const first = await ok(s, [
        { operation: 'insert_page', title: 'Guides', document: { markdown: 'Guides.' } },
      ]);
      const guides = (await byTitle(s, first)).get('Guides')!.id;
      const res = await write(
        s,
        [
          {
            operation: 'insert_page',
            ref: 'intro',
            into: guides,
            document: {
              markdown: [
                '# Introduction',
                '',
                'See [the setup](./setup.md), [its section](./setup.md#options),',
                '[by id](/pages/' + s.initialPage + '), [by path](/pages/untitled),',
                '[git style](/pages/guides/README.md), [relative](../untitled.md),',
                '[folder](./setup), [anchor](#here), [external](https://example.com/x),',
                '[missing](./nowhere.md) and [data](data:text/plain,hi).',
                '',
                '![Logo](./logo)',
                '',
                'Download [the notes](./notes).',
              ].join('\n'),
            },
          },
          {
            operation: 'insert_page',
            ref: 'setup',
            into: guides,
            document: { markdown: '# Setup\n\nBack to [the intro](./intro.md).' },
          },
          {
            operation: 'insert_files',
            files: [
              {
                name: 'logo.png',
                ref: 'logo',
                contentType: 'image/png',
                base64: PNG.toString('base64'),
              },
              {
                name: 'notes.txt',
                ref: 'notes',
                contentType: 'text/plain',
                base64: Buffer.from('Notes').toString('base64'),
              },
            ],
          },
        ],
        { compat: false },
      ).expect(200);
      const body = res.body as {
        changeRequest: ChangeRequestBody;
        changes: { object: string; ref?: string; page: { id: string } }[];
        insertedFiles: { id: string; name: string }[];
      };
      const [intro, setupPage] = body.changes.map((change) => change.page.id);
      expect(body.changes.map((change) => [change.object, change.ref])).toEqual([
        ['created_page', 'intro'],
        ['created_page', 'setup'],
      ]);
      const [logo, notes] = body.insertedFiles.map((file) => file.id);
      const revision = body.changeRequest.revision;
      const read = await page(s, revision, intro);
      expect(read).toMatchObject({ title: 'Introduction', path: 'guides/introduction' });
      expect(refsOf(read.document!)).toEqual([
        { kind: 'page', page: setupPage },
        { kind: 'anchor', anchor: 'options', page: setupPage },
        { kind: 'page', page: s.initialPage },
        { kind: 'page', page: s.initialPage },
        { kind: 'page', page: guides },
        { kind: 'page', page: s.initialPage },
        { kind: 'page', page: setupPage },
        { kind: 'anchor', anchor: 'here', page: intro },
        { kind: 'url', url: 'https://example.com/x' },
        { kind: 'url', url: './nowhere.md' },
        { kind: 'file', file: logo },
        { kind: 'file', file: notes },
      ]);
      // A data: URI is not ingested: its link becomes its text.
      expect(textOf(read.document!)).toContain('missing and data.');
      expect(refsOf((await page(s, revision, setupPage)).document!)).toEqual([
        { kind: 'page', page: intro },
      ]);
    });
  });

  describe('revert_page', () => {
    async function base(s: Setup) {
      // The primary gets a page with a body and a subpage; the change request starts there.
      const cr = await s.owner.post(`/v1/spaces/${s.spaceId}/change-requests`, {}).expect(201);
      const scratch: Setup = { ...s, cr: cr.body as ChangeRequestBody };
      const revision = await ok(scratch, [
        {
          operation: 'insert_page',
          title: 'Manual',
          emoji: '1f4d8',
          document: {
            document: {
              object: 'document',
              data: {},
              nodes: [paragraph('b1', 'One'), paragraph('b2', 'Two'), paragraph('b3', 'Three')],
            },
          },
        },
      ]);
      const manual = (await byTitle(scratch, revision)).get('Manual')!.id;
      await ok(scratch, [{ operation: 'insert_page', title: 'Annex', document: {}, into: manual }]);
      const annex = (await byTitle(scratch, (await head(scratch)).revision)).get('Annex')!.id;
      await t.dataSource.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [
        (await head(scratch)).revision,
        s.spaceId,
      ]);
      const fresh = await s.owner.post(`/v1/spaces/${s.spaceId}/change-requests`, {}).expect(201);
      return { s: { ...s, cr: fresh.body as ChangeRequestBody }, manual, annex };
    }

    it('reverts a whole page: modified is reset, deleted is restored with its subpages, added is removed', async () => {
      const { s, manual, annex } = await base(await setup());
      const edited = await ok(s, [
        {
          operation: 'update_page',
          page: manual,
          title: 'Handbook',
          emoji: '',
          into: s.initialPage,
          document: { markdown: 'Replaced.' },
        },
        { operation: 'insert_page', title: 'Added', document: {} },
      ]);
      const added = (await byTitle(s, edited)).get('Added')!.id;
      const reset = await ok(s, [
        { operation: 'revert_page', page: manual },
        { operation: 'revert_page', page: added },
      ]);
      const tree = await pages(s.owner, s.spaceId, reset);
      expect(tree.map((p) => [p.title, p.emoji, p.pages.map((c) => c.id)])).toEqual([
        ['Untitled', undefined, []],
        ['Manual', '1f4d8', [annex]],
      ]);
      expect(textOf((await page(s, reset, manual)).document!)).toBe('One\nTwo\nThree');

      await ok(s, [{ operation: 'delete_page', page: manual }]);
      const restored = await ok(s, [{ operation: 'revert_page', page: manual }]);
      const again = await pages(s.owner, s.spaceId, restored);
      expect(again.map((p) => [p.id, p.title, p.pages.map((c) => c.id)])).toEqual([
        [s.initialPage, 'Untitled', []],
        [manual, 'Manual', [annex]],
      ]);
    });

    it('reverts only the given blocks; an unknown page or block names the change', async () => {
      const { s, manual } = await base(await setup());
      await ok(s, [
        {
          operation: 'update_page',
          page: manual,
          document: {
            document: {
              object: 'document',
              data: {},
              nodes: [paragraph('b1', 'One!'), paragraph('b3', 'Three!'), paragraph('b4', 'Four')],
            },
          },
        },
      ]);
      const reverted = await ok(s, [
        { operation: 'revert_page', page: manual, block: ['b1', 'b2', 'b4'] },
      ]);
      expect((await page(s, reverted, manual)).document?.nodes).toEqual([
        paragraph('b1', 'One'),
        paragraph('b2', 'Two'),
        paragraph('b3', 'Three!'),
      ]);
      expectError(
        await write(s, [
          { operation: 'delete_page', page: s.initialPage },
          { operation: 'revert_page', page: manual, block: ['nope'] },
        ]),
        400,
        'Change 1 (revert_page): block nope',
      );
      expectError(
        await write(s, [{ operation: 'revert_page', page: manual, revision: 'unknownRevision' }]),
        400,
        'Change 0 (revert_page): revision unknownRevision not found',
      );
      expect((await head(s)).revision).toBe(reverted);
    });
  });

  describe('insert_files', () => {
    it('stores base64 and URL files in the change request', async () => {
      const s = await setup();
      const res = await write(
        s,
        [
          {
            operation: 'insert_files',
            files: [
              { name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') },
              { name: 'remote.png', url: `${filesOrigin}/logo.png` },
              { name: 'notes.txt', url: `${filesOrigin}/notes.txt` },
            ],
          },
        ],
        { compat: false },
      ).expect(200);
      const inserted = res.body.insertedFiles as Record<string, unknown>[];
      expect(inserted).toEqual([
        expect.objectContaining({
          name: 'logo.png',
          contentType: 'image/png',
          size: PNG.length,
          dimensions: { width: 1, height: 1 },
        }),
        expect.objectContaining({ name: 'remote.png', contentType: 'image/png', size: PNG.length }),
        expect.objectContaining({ name: 'notes.txt', contentType: 'text/plain', size: 11 }),
      ]);
      expect(res.body.changes).toEqual([]);
      const revision = res.body.changeRequest.revision as string;
      const listed = await s.owner
        .get(`/v1/spaces/${s.spaceId}/revisions/${revision}/files`)
        .expect(200);
      expect((listed.body.items as { id: string }[]).map((file) => file.id)).toEqual(
        inserted.map((file) => file.id),
      );
      const download = await t.anonymous.get(
        (inserted[2].downloadURL as string).replace(TEST_PUBLIC_URL, ''),
      );
      expect(download.status).toBe(200);
      expect(download.text).toBe('Some notes.');
    });

    it('refuses bad files with a 400 naming the change and the file', async () => {
      const s = await setup();
      const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
      const cases: [unknown, string][] = [
        [
          { name: 'a.bin', base64: 'AAAA' },
          'Change 1 (insert_files): files.0: contentType is required with base64',
        ],
        [
          { name: 'a.bin', contentType: 'application/octet-stream', base64: big },
          'Change 1 (insert_files): files.0: the file is larger than 1048576 bytes',
        ],
        [
          { name: 'a.bin', contentType: 'x/y', base64: 'AAAA', url: `${filesOrigin}/logo.png` },
          'exactly one of url and base64',
        ],
        [{ name: 'a.bin' }, 'exactly one of url and base64'],
        [
          { name: 'a.bin', url: `${filesOrigin}/missing` },
          'Change 1 (insert_files): files.0: url answered HTTP 404',
        ],
        [{ name: 'a.bin', url: `${filesOrigin}/big.bin` }, 'larger than 1048576 bytes'],
        [{ name: 'a.bin', url: 'ftp://example.com/a' }, 'Only http and https'],
        [
          { name: 'a.bin', contentType: 'not a type', base64: 'AAAA' },
          'Change 1 (insert_files): files.0: File "a.bin"',
        ],
      ];
      for (const [file, message] of cases) {
        const res = await write(s, [
          { operation: 'insert_page', title: 'Never', document: {} },
          { operation: 'insert_files', files: [file] },
        ]);
        expectError(res, 400, message);
      }
      expect((await head(s)).revision).toBe(s.cr.revision);
    });
  });

  describe('compat=false', () => {
    it('answers the change request and one entry per touched page, in first-touch order', async () => {
      const s = await setup();
      const first = await ok(s, [
        { operation: 'insert_page', title: 'Old', document: {} },
        { operation: 'insert_page', title: 'Gone', document: {} },
      ]);
      const ids = await byTitle(s, first);
      const res = await write(
        s,
        [
          { operation: 'insert_page', ref: 'fresh', title: 'Fresh', document: {} },
          { operation: 'update_page', page: ids.get('Old')!.id, title: 'Renamed' },
          { operation: 'delete_page', page: ids.get('Gone')!.id },
          { operation: 'insert_page', title: 'Ephemeral', ref: 'tmp', document: {} },
          { operation: 'update_page', page: ids.get('Old')!.id, hidden: true },
        ],
        { compat: false },
      ).expect(200);
      const body = res.body as {
        changeRequest: ChangeRequestBody;
        changes: { object: string; page: { id: string } | string }[];
      };
      expectConforms({ status: 200, body: body.changeRequest }, 'getChangeRequestById');
      expect(res.headers.etag).toBe(`"${body.changeRequest.revision}"`);
      const location = (id: string) =>
        `${TEST_PUBLIC_URL}/v1/spaces/${s.spaceId}/change-requests/${s.cr.id}/content/page/${id}`;
      const fresh = (body.changes[0].page as { id: string }).id;
      const tmp = (body.changes[3].page as { id: string }).id;
      expect(body).toEqual({
        changeRequest: expect.objectContaining({ id: s.cr.id, object: 'change-request' }),
        changes: [
          {
            object: 'created_page',
            ref: 'fresh',
            page: { object: 'page', id: fresh, urls: { location: location(fresh) } },
          },
          {
            object: 'updated_page',
            page: {
              object: 'page',
              id: ids.get('Old')!.id,
              urls: { location: location(ids.get('Old')!.id) },
            },
          },
          { object: 'deleted_page', page: ids.get('Gone')!.id },
          {
            object: 'created_page',
            ref: 'tmp',
            page: { object: 'page', id: tmp, urls: { location: location(tmp) } },
          },
        ],
      });
    });
  });

  describe('If-Match', () => {
    it('writes when it names the head (quoted or not), answers 412 and writes nothing when it moved', async () => {
      const s = await setup();
      const insert = [{ operation: 'insert_page', title: 'A', document: {} }];
      const first = await write(s, insert, { ifMatch: `"${s.cr.revision}"` }).expect(200);
      const second = await write(s, insert, { ifMatch: first.body.revision as string }).expect(200);
      const stale = await write(s, insert, { ifMatch: `"${s.cr.revision}"` });
      expectError(stale, 412, second.body.revision as string);
      expect((await head(s)).revision).toBe(second.body.revision);
      expectError(await write(s, insert, { ifMatch: '"a", "b"' }), 400, 'If-Match');
      await write(s, insert, { ifMatch: '*' }).expect(200);
    });
  });

  describe('refusals', () => {
    it('refuses a locked space (409) and merged or archived change requests (409)', async () => {
      const s = await setup();
      const insert = [{ operation: 'insert_page', title: 'A', document: {} }];
      await s.owner.patch(`/v1/spaces/${s.spaceId}`, { editMode: 'locked' }).expect(200);
      expectError(await write(s, insert), 409, 'The space is locked');
      await s.owner.patch(`/v1/spaces/${s.spaceId}`, { editMode: 'live' }).expect(200);

      await s.owner
        .patch(`/v1/spaces/${s.spaceId}/change-requests/${s.cr.id}`, { status: 'archived' })
        .expect(200);
      expectError(await write(s, insert), 409, 'archived');
      await s.owner
        .patch(`/v1/spaces/${s.spaceId}/change-requests/${s.cr.id}`, { status: 'draft' })
        .expect(200);
      await write(s, insert).expect(200);

      await t.dataSource
        .getRepository(ChangeRequest)
        .update({ id: s.cr.id }, { status: 'merged', revisionMerged: s.primary });
      expectError(await write(s, insert), 409, 'merged');
    });

    it('validates the batch: 1..50 changes, known operations, fields, nothing written on error', async () => {
      const s = await setup();
      const insert = { operation: 'insert_page', title: 'A', document: {} };
      expectError(await write(s, []), 400, 'changes must contain at least 1 elements');
      expectError(
        await write(s, Array(51).fill(insert)),
        400,
        'changes must contain no more than 50 elements',
      );
      expectError(await write(s, undefined), 400, 'changes');
      expectError(
        await write(s, [insert, { operation: 'rename_page', page: 'x' }]),
        400,
        'changes.1.operation must be one of',
      );
      expectError(await write(s, [insert, { operation: 'update_page' }]), 400, 'changes.1.page');
      expectError(await write(s, [{ ...insert, title: '' }]), 400, 'changes.0.title');
      expectError(
        await write(s, [{ ...insert, document: { markdown: 'a', document: {} } }]),
        400,
        'changes.0.document must have either markdown or document, not both',
      );
      expectError(
        await write(s, [{ ...insert, extra: 1 }]),
        400,
        'property changes.0.extra should not exist',
      );
      expectError(
        await write(s, [{ ...insert, document: { markdown: '---\nhidden: maybe\n---\nx' } }]),
        400,
        'Change 0 (insert_page): frontmatter hidden must be true or false',
      );
      expectError(
        await write(s, [
          insert,
          insert,
          { operation: 'update_page', page: 'missingPage', title: 'B' },
        ]),
        400,
        'Change 2 (update_page): page missingPage not found',
      );
      expectError(
        await write(s, [
          { ...insert, ref: 'x' },
          { ...insert, ref: 'x' },
        ]),
        400,
        'Change 1 (insert_page): ref x',
      );
      expectError(
        await write(s, [{ ...insert, into: 'missingParent' }]),
        400,
        'Change 0 (insert_page): parent page missingParent not found',
      );
      expectError(
        await write(s, [{ operation: 'update_page', page: s.initialPage, slug: 'Not A Slug' }]),
        400,
        'Change 0 (update_page): invalid slug',
      );
      await write(s, Array(50).fill(insert)).expect(200);
    });

    it('answers 404 for an unknown change request or one of another organization, 403 to a reader', async () => {
      const s = await setup();
      const insert = [{ operation: 'insert_page', title: 'A', document: {} }];
      expectError(
        await write(s, insert, { cr: 'unknownChangeRequest' }),
        404,
        'Change request not found',
      );
      expectError(await write(s, insert, { cr: 99 }), 404, 'Change request not found');
      const other = await setup();
      expectError(await write(s, insert, { as: other.owner }), 404, 'not found');
      const otherCr = await write({ ...s, cr: other.cr }, insert);
      expect(otherCr.status).toBe(404);
      const reader = await t.factories.asMember(s.org, 'read');
      expectError(await write(s, insert, { as: reader }), 403, '');
      expect((await head(s)).revision).toBe(s.cr.revision);
    });
  });

  describe('concurrency', () => {
    it('applies 10 concurrent writes without If-Match one after the other', async () => {
      const s = await setup();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          write(s, [{ operation: 'insert_page', title: `Page ${i}`, document: {} }]),
        ),
      );
      expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
      const final = await head(s);
      const titles = (await pages(s.owner, s.spaceId, final.revision)).map((p) => p.title);
      expect(titles.sort()).toEqual(
        ['Untitled', ...Array.from({ length: 10 }, (_, i) => `Page ${i}`)].sort(),
      );
      // A chain of 10 revisions from the head back to where the change request started.
      const chain: string[] = [];
      for (let at = final.revision; at !== s.cr.revision;) {
        chain.push(at);
        const revision = await t.dataSource.getRepository(Revision).findOneByOrFail({ id: at });
        expect(revision.parents).toHaveLength(1);
        at = revision.parents[0];
      }
      expect(chain).toHaveLength(10);
      expect(new Set(results.map((res) => res.headers.etag))).toEqual(
        new Set(chain.map((id) => `"${id}"`)),
      );
    });
  });
});
