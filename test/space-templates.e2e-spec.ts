import { ContentEngine } from '../src/content-engine/content-engine';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { documentToMarkdown } from '../src/content-engine/documents/markdown';
import { flatten, pagePaths } from '../src/content-engine/tree/read';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import {
  PrimaryMovedListeners,
  type PrimaryMoved,
} from '../src/content-engine/writes/primary-moved-listeners';
import type { DomainError } from '../src/platform/errors/domain-error';
import { createTestApp, TestApp } from './helpers/app';
import type { OpenAPISpecBody, SpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

interface RevisionRow {
  id: string;
  parents: string[];
  type: string;
  author_id: string | null;
  tree: string;
}

interface PageBody {
  id: string;
  title: string;
  description?: string;
  pages: PageBody[];
  document?: JSONDocument;
  markdown?: string;
}

const templatePath = (spaceId: string) => `/v1/spaces/${spaceId}/content/template`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ok = { responses: { '200': { description: 'OK' } } };

/** OpenAPI 3.0: declared tags, an operation with two tags, an untagged one, schemas. */
const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  tags: [
    { name: 'pets', description: 'Everything about your pets' },
    { name: 'store', description: 'Access to the store' },
  ],
  paths: {
    '/pets': {
      get: { summary: 'List pets', tags: ['pets'], ...ok },
      post: { summary: 'Add a pet', tags: ['pets'], ...ok },
    },
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { tags: ['pets', 'store'], ...ok },
    },
    '/health': { get: { summary: 'Health check', ...ok } },
  },
  components: {
    schemas: {
      Pet: { type: 'object', properties: { id: { type: 'integer' } } },
      Error: { type: 'object', properties: { message: { type: 'string' } } },
    },
  },
};

/** Swagger 2.0 in YAML. */
const LEGACY_YAML = `swagger: "2.0"
info:
  title: Legacy
  version: "1"
tags:
  - name: users
paths:
  /users:
    get:
      summary: List users
      tags: [users]
      responses:
        "200":
          description: OK
definitions:
  User:
    type: object
`;

const PRODUCT_DOCS_PATHS = [
  'getting-started',
  'guides',
  'guides/writing-content',
  'guides/publishing',
  'reference',
  'faq',
];

describe('space templates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function primaryOf(spaceId: string): Promise<RevisionRow> {
    const rows: RevisionRow[] = await t.dataSource.query(
      `SELECT r.id, r.parents, r.type, r.author_id, r.tree FROM spaces s
         JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1`,
      [spaceId],
    );
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  async function revisionCount(spaceId: string): Promise<number> {
    const rows: { n: number }[] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM revisions WHERE space_id = $1',
      [spaceId],
    );
    return rows[0].n;
  }

  /** The pages of the space's primary revision: path, id, and markdown body (null = empty). */
  async function pagesOf(
    spaceId: string,
  ): Promise<{ id: string; path: string; title: unknown; markdown: string | null }[]> {
    const store = t.bindery.app.get(ContentEngine).objectStore(t.dataSource.manager);
    const snapshot = await flatten(store, (await primaryOf(spaceId)).tree);
    const paths = pagePaths(snapshot);
    const pages = [];
    for (const page of snapshot.values()) {
      const document = page.documentHash
        ? ((await store.get(page.documentHash)) as JSONDocument)
        : null;
      pages.push({
        id: page.id,
        path: paths.get(page.id)!,
        title: page.meta.title,
        markdown: document ? await documentToMarkdown(document) : null,
      });
    }
    return pages;
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  describe('POST /v1/spaces/{spaceId}/content/template (applyTemplateToSpace)', () => {
    it('replaces the pages with product-docs in one edits revision on top of the old primary', async () => {
      const org = await t.factories.organization();
      const editor = await t.factories.member(org, 'edit');
      const created = await t.factories.later.space(org);
      const [initial] = await pagesOf(created.id);
      t.clock.set('2025-04-01T09:00:00.000Z');

      const res = await editor.client.post(templatePath(created.id), { id: 'product-docs' });
      expect(res.status).toBe(201);
      expectConforms(res, 'applyTemplateToSpace');
      expect(res.text).toBe('');

      const primary = await primaryOf(created.id);
      expect(primary).toEqual(
        expect.objectContaining({
          parents: [created.revision],
          type: 'edits',
          author_id: editor.id,
        }),
      );
      expect(primary.id).not.toBe(created.revision);
      expect(await revisionCount(created.id)).toBe(2);
      const pages = await pagesOf(created.id);
      expect(pages.map((page) => page.path)).toEqual(PRODUCT_DOCS_PATHS);
      expect(pages.map((page) => page.id)).not.toContain(initial.id);
      expect(pages.find((page) => page.path === 'guides')?.title).toBe('Guides');
      expect(pages.find((page) => page.path === 'getting-started')?.markdown).toContain('Welcome!');
      for (const page of pages) expect(page.markdown).toEqual(expect.any(String));

      const read = await org.owner.client.get(`/v1/spaces/${created.id}`).expect(200);
      expect(read.body).toEqual(
        expect.objectContaining({ revision: primary.id, updatedAt: '2025-04-01T09:00:00.000Z' }),
      );
    });

    it('is read back through listPages', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      await org.owner.client.post(templatePath(created.id), { id: 'product-docs' }).expect(201);
      const res = await org.owner.client.get(`/v1/spaces/${created.id}/content/pages`).expect(200);
      const outline = (pages: { title: string; pages?: object[] }[]): unknown[] =>
        pages.map((page) =>
          page.pages?.length
            ? [page.title, outline(page.pages as { title: string }[])]
            : page.title,
        );
      expect(outline((res.body as { pages: { title: string }[] }).pages)).toEqual([
        'Getting started',
        ['Guides', ['Writing content', 'Publishing']],
        'Reference',
        'FAQ',
      ]);
    });

    it('blank leaves one empty page, also on a space without pages, and may be applied again', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { empty: true });
      expect(await pagesOf(created.id)).toEqual([]);

      await org.owner.client.post(templatePath(created.id), { id: 'product-docs' }).expect(201);
      await org.owner.client.post(templatePath(created.id), { id: 'blank' }).expect(201);
      const pages = await pagesOf(created.id);
      expect(pages).toEqual([
        { id: expect.any(String), path: 'untitled', title: 'Untitled', markdown: null },
      ]);
      await org.owner.client.post(templatePath(created.id), { id: 'blank' }).expect(201);
      const again = await pagesOf(created.id);
      expect(again).toHaveLength(1);
      expect(again[0].id).not.toBe(pages[0].id);
      expect(await revisionCount(created.id)).toBe(4);
    });

    it.each([
      [{ id: 'api-reference' }, 'params.contentRefs.spec'],
      [
        {
          id: 'api-reference',
          params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
        },
        'params.contentRefs.spec: no OpenAPI specification pets in this organization.',
      ],
      [
        { id: 'api-reference', params: { contentRefs: { spec: { kind: 'url', url: 'x' } } } },
        'params.contentRefs.spec',
      ],
      [
        { id: 'nope' },
        'id: no template nope; the templates are blank, product-docs, api-reference',
      ],
      [{}, 'id'],
      [{ id: 42 }, 'id'],
      [{ id: '' }, 'id'],
      [{ id: 'blank', params: 'x' }, 'params'],
      [{ id: 'blank', params: { contentRefs: 'x' } }, 'contentRefs'],
      [{ id: 'blank', params: { other: true } }, 'other'],
      [{ id: 'blank', extra: 1 }, 'extra'],
      [{ id: 'blank', changeRequestId: 7 }, 'changeRequestId'],
    ])('answers 400 to %j, naming %s, and writes nothing', async (body, text) => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expectError(await org.owner.client.post(templatePath(created.id), body), 400, text);
      expect((await primaryOf(created.id)).id).toBe(created.revision);
      expect(await revisionCount(created.id)).toBe(1);
    });

    describe('with changeRequestId', () => {
      async function changeRequestRow(id: string) {
        const rows: { revision: string; number: number }[] = await t.dataSource.query(
          'SELECT revision, number FROM change_requests WHERE id = $1',
          [id],
        );
        return rows[0];
      }

      it('replaces the change request pages, by id or number, leaving the primary alone', async () => {
        const org = await t.factories.organization();
        const editor = await t.factories.member(org, 'edit');
        const created = await t.factories.later.space(org);
        const cr = (await editor.client.post(`/v1/spaces/${created.id}/change-requests`, {}))
          .body as { id: string; number: number; revision: string };
        const before = await changeRequestRow(cr.id);

        const res = await editor.client.post(templatePath(created.id), {
          id: 'product-docs',
          changeRequestId: cr.id,
        });
        expect(res.status).toBe(201);
        expect((await primaryOf(created.id)).id).toBe(created.revision);
        const after = await changeRequestRow(cr.id);
        expect(after.revision).not.toBe(before.revision);
        const head: RevisionRow[] = await t.dataSource.query(
          'SELECT id, parents, type, author_id, tree FROM revisions WHERE id = $1',
          [after.revision],
        );
        expect(head[0]).toEqual(
          expect.objectContaining({ parents: [before.revision], author_id: editor.id }),
        );
        const pages = await editor.client
          .get(`/v1/spaces/${created.id}/change-requests/${cr.id}/content/pages`)
          .expect(200);
        expect((pages.body as { pages: { title: string }[] }).pages.map((p) => p.title)).toEqual([
          'Getting started',
          'Guides',
          'Reference',
          'FAQ',
        ]);
        const contributors = await editor.client
          .get(`/v1/spaces/${created.id}/change-requests/${cr.id}/contributors`)
          .expect(200);
        expect(contributors.body).toEqual(
          expect.objectContaining({
            items: [expect.objectContaining({ actionType: 'edit', count: 1 })],
          }),
        );

        await editor.client
          .post(templatePath(created.id), { id: 'blank', changeRequestId: String(cr.number) })
          .expect(201);
        const blank = await editor.client
          .get(`/v1/spaces/${created.id}/change-requests/${cr.number}/content/pages`)
          .expect(200);
        expect((blank.body as { pages: unknown[] }).pages).toHaveLength(1);
        expect((await primaryOf(created.id)).id).toBe(created.revision);
      });

      it('answers 404 for an unknown change request or one of another space, 409 once merged', async () => {
        const org = await t.factories.organization();
        const created = await t.factories.later.space(org);
        const other = await t.factories.later.space(org);
        const foreign = (
          await org.owner.client.post(`/v1/spaces/${other.id}/change-requests`, {}).expect(201)
        ).body as { id: string };
        for (const changeRequestId of ['nope', '99', foreign.id]) {
          expectError(
            await org.owner.client.post(templatePath(created.id), {
              id: 'blank',
              changeRequestId,
            }),
            404,
            'Change request not found',
          );
        }
        const cr = (
          await org.owner.client.post(`/v1/spaces/${created.id}/change-requests`, {}).expect(201)
        ).body as { id: string };
        await org.owner.client
          .post(`/v1/spaces/${created.id}/change-requests/${cr.id}/merge`)
          .expect(200);
        const merged = await changeRequestRow(cr.id);
        const res = await org.owner.client.post(templatePath(created.id), {
          id: 'blank',
          changeRequestId: cr.id,
        });
        expect(res.status).toBe(409);
        expect((await changeRequestRow(cr.id)).revision).toBe(merged.revision);
      });
    });

    it('answers 409 on a locked space and writes nothing', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { editMode: 'locked' });
      expectError(
        await org.owner.client.post(templatePath(created.id), { id: 'blank' }),
        409,
        'The space is locked',
      );
      expect(await revisionCount(created.id)).toBe(1);
    });

    it.each(['read', 'comment'] as const)('answers 403 to a %s member', async (role) => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const member = await t.factories.asMember(org, role);
      expectError(await member.post(templatePath(created.id), { id: 'blank' }), 403, '');
      expect(await revisionCount(created.id)).toBe(1);
    });

    it('answers 404 to a guest without a grant, another organization, unknown and deleted spaces', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      const guest = await t.factories.asMember(org, null);
      const stranger = await t.factories.organization();
      expectError(await guest.post(templatePath(created.id), { id: 'blank' }), 404, 'not found');
      expectError(
        await stranger.owner.client.post(templatePath(created.id), { id: 'blank' }),
        404,
        'not found',
      );
      expectError(
        await org.owner.client.post(templatePath('unknown'), { id: 'blank' }),
        404,
        'not found',
      );
      await org.owner.client.delete(`/v1/spaces/${created.id}`).expect(204);
      expectError(
        await org.owner.client.post(templatePath(created.id), { id: 'blank' }),
        404,
        'not found',
      );
      expect(await revisionCount(created.id)).toBe(1);
    });

    it('answers 401 without a token', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      expect((await t.anonymous.post(templatePath(created.id), { id: 'blank' })).status).toBe(401);
    });
  });

  describe('POST /v1/orgs/{organizationId}/spaces with a template (createSpace)', () => {
    it('starts the space from the template, in its first revision', async () => {
      const org = await t.factories.organization();
      t.clock.advance(1000);
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/spaces`, { title: 'Docs', template: { id: 'product-docs' } })
        .expect(201);
      expectConforms(res, 'createSpace');
      const created = res.body as SpaceBody;
      const primary = await primaryOf(created.id);
      expect(primary).toEqual(
        expect.objectContaining({ id: created.revision, parents: [], type: 'edits' }),
      );
      expect((await pagesOf(created.id)).map((page) => page.path)).toEqual(PRODUCT_DOCS_PATHS);
    });

    it.each([
      [{ id: 'nope' }, 'template.id: no template nope'],
      [{ id: 'api-reference' }, 'params.contentRefs.spec'],
      [
        { id: 'api-reference', params: { contentRefs: { spec: { kind: 'openapi', spec: 'x' } } } },
        'template.params.contentRefs.spec: no OpenAPI specification x in this organization.',
      ],
    ])('answers 400 to template %j and creates nothing', async (template, text) => {
      const org = await t.factories.organization();
      expectError(
        await org.owner.client.post(`/v1/orgs/${org.id}/spaces`, { template }),
        400,
        text,
      );
      const rows: { n: number }[] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM spaces WHERE organization_id = $1',
        [org.id],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('the api-reference template', () => {
    /** Creates a specification from `text` and waits for its processing to finish. */
    async function spec(
      org: TestOrganization,
      text: string,
      slug: string,
    ): Promise<OpenAPISpecBody> {
      await t.factories.openAPISpec(org, { slug, text });
      const deadline = Date.now() + 20_000;
      for (;;) {
        const res = await org.owner.client.get(`/v1/orgs/${org.id}/openapi/${slug}`).expect(200);
        const body = res.body as OpenAPISpecBody;
        if (body.processingState === 'complete') return body;
        if (Date.now() > deadline) throw new Error(`${slug} is still ${body.processingState}`);
        await sleep(100);
      }
    }

    const apiReference = (spec: string) => ({
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec } } },
    });

    async function listPages(spaceId: string, client: Client): Promise<PageBody[]> {
      const res = await client.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
      expectConforms(res, 'listPages');
      return (res.body as { pages: PageBody[] }).pages;
    }

    it('replaces the pages with one page per tag, Other and Models, pointing into the spec', async () => {
      const org = await t.factories.organization();
      const editor = await t.factories.member(org, 'edit');
      await spec(org, JSON.stringify(PETSTORE), 'pets');
      const created = await t.factories.later.space(org);

      const res = await editor.client.post(templatePath(created.id), apiReference('pets'));
      expect(res.status).toBe(201);
      expectConforms(res, 'applyTemplateToSpace');
      expect(await primaryOf(created.id)).toEqual(
        expect.objectContaining({
          parents: [created.revision],
          type: 'edits',
          author_id: editor.id,
        }),
      );

      const pages = await listPages(created.id, editor.client);
      expect(pages.map((page) => [page.title, page.description])).toEqual([
        ['pets', 'Everything about your pets'],
        ['store', 'Access to the store'],
        ['Other', undefined],
        ['Models', undefined],
      ]);

      const read = await editor.client
        .get(`/v1/spaces/${created.id}/content/page/${pages[0].id}`)
        .expect(200);
      expectConforms(read, 'getPageById');
      const ref = { kind: 'openapi', spec: 'pets' };
      const nodes = (read.body as PageBody).document!.nodes;
      expect(nodes.map((node) => [node.type, node.data])).toEqual([
        ['heading-2', {}],
        ['openapi-operation', { ref, path: '/pets', method: 'get' }],
        ['heading-2', {}],
        ['openapi-operation', { ref, path: '/pets', method: 'post' }],
        ['heading-2', {}],
        ['openapi-operation', { ref, path: '/pets/{petId}', method: 'delete' }],
      ]);

      const markdown = Object.fromEntries(
        (await pagesOf(created.id)).map((page) => [page.path, page.markdown]),
      );
      expect(markdown.store).toBe(
        '## DELETE /pets/{petId}\n\n' +
          '{% openapi-operation spec="pets" path="/pets/{petId}" method="delete" %}\n' +
          '{% endopenapi-operation %}\n',
      );
      expect(markdown.other).toContain('## Health check');
      expect(markdown.models).toBe(
        '{% openapi-schemas spec="pets" schemas="Pet,Error" %}\n{% endopenapi-schemas %}\n',
      );
    });

    it('takes the spec by id, and reads Swagger 2.0 in YAML', async () => {
      const org = await t.factories.organization();
      const legacy = await spec(org, LEGACY_YAML, 'legacy');
      const created = await t.factories.later.space(org);
      await org.owner.client.post(templatePath(created.id), apiReference(legacy.id)).expect(201);
      const pages = await listPages(created.id, org.owner.client);
      expect(pages.map((page) => page.title)).toEqual(['users', 'Models']);
      expect((await pagesOf(created.id)).find((p) => p.path === 'users')?.markdown).toContain(
        `{% openapi-operation spec="${legacy.id}" path="/users" method="get" %}`,
      );
    });

    it('starts a new space from a spec (createSpace)', async () => {
      const org = await t.factories.organization();
      await spec(org, JSON.stringify(PETSTORE), 'pets');
      t.clock.advance(1000);
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/spaces`, { title: 'API', template: apiReference('pets') })
        .expect(201);
      expectConforms(res, 'createSpace');
      const created = res.body as SpaceBody;
      expect(await primaryOf(created.id)).toEqual(
        expect.objectContaining({ id: created.revision, parents: [] }),
      );
      expect((await pagesOf(created.id)).map((page) => page.path)).toEqual([
        'pets',
        'store',
        'other',
        'models',
      ]);
    });

    it('answers 400 for a spec of another organization, one without a version or without operations', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      await spec(stranger, JSON.stringify(PETSTORE), 'theirs');
      const broken = await spec(org, '{"openapi": "3.0.3", "paths": 42}', 'broken');
      expect(broken).toEqual(expect.objectContaining({ lastProcessErrorCode: 'PARSE_ERROR' }));
      expect(broken).not.toHaveProperty('lastVersion');
      const empty = { openapi: '3.1.0', info: { title: 'Empty', version: '1' }, paths: {} };
      await spec(org, JSON.stringify(empty), 'empty');
      const created = await t.factories.later.space(org);

      for (const [slug, text] of [
        [
          'theirs',
          'params.contentRefs.spec: no OpenAPI specification theirs in this organization.',
        ],
        [
          'broken',
          'params.contentRefs.spec: the OpenAPI specification broken has no processed version yet',
        ],
        [
          'empty',
          'params.contentRefs.spec: the OpenAPI specification empty has no operations, webhooks or schemas',
        ],
      ]) {
        expectError(
          await org.owner.client.post(templatePath(created.id), apiReference(slug)),
          400,
          text,
        );
      }
      expectError(
        await org.owner.client.post(`/v1/orgs/${org.id}/spaces`, {
          template: apiReference('broken'),
        }),
        400,
        'template.params.contentRefs.spec: the OpenAPI specification broken has no processed version yet',
      );
      expect(await revisionCount(created.id)).toBe(1);
      const rows: { n: number }[] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM spaces WHERE organization_id = $1',
        [org.id],
      );
      expect(rows[0].n).toBe(1);
    });
  });

  describe('ContentWriter.commitOnPrimary', () => {
    const writer = () => t.bindery.app.get(ContentWriter);
    const insert = (id: string, title: string) => ({
      operation: 'insert_page' as const,
      id,
      meta: { title },
      document: { markdown: `# ${title}` },
    });

    it('commits, advances the primary and tells the listeners', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org, { empty: true });
      const events: Omit<PrimaryMoved, 'manager'>[] = [];
      t.bindery.app.get(PrimaryMovedListeners).register(({ manager: _, ...event }) => {
        if (event.spaceId === created.id) events.push(event);
      });
      const result = await t.dataSource.transaction((manager) =>
        writer().commitOnPrimary(manager, {
          spaceId: created.id,
          expectedRevisionId: created.revision,
          authorId: org.owner.id,
          type: 'edits',
          changes: [insert('page-a', 'Alpha'), insert('page-b', 'Beta')],
        }),
      );
      expect(result.previousRevisionId).toBe(created.revision);
      expect((await primaryOf(created.id)).id).toBe(result.revision.id);
      expect(events).toEqual([
        {
          spaceId: created.id,
          fromRevision: created.revision,
          toRevision: result.revision.id,
          authorId: org.owner.id,
        },
      ]);
      expect(await pagesOf(created.id)).toEqual([
        { id: 'page-a', path: 'alpha', title: 'Alpha', markdown: '# Alpha\n' },
        { id: 'page-b', path: 'beta', title: 'Beta', markdown: '# Beta\n' },
      ]);
    });

    it('answers 409 when the expected revision is not the primary', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      await org.owner.client.post(templatePath(created.id), { id: 'blank' }).expect(201);
      await expect(
        t.dataSource.transaction((manager) =>
          writer().commitOnPrimary(manager, {
            spaceId: created.id,
            expectedRevisionId: created.revision,
            authorId: org.owner.id,
            type: 'edits',
            changes: [insert('late', 'Late')],
          }),
        ),
      ).rejects.toMatchObject({ kind: 'conflict', code: 'SpaceContentMoved' } as DomainError);
      expect(await revisionCount(created.id)).toBe(2);
    });

    it('answers 409 and keeps nothing when the primary moves during the commit', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      await org.owner.client.post(templatePath(created.id), { id: 'blank' }).expect(201);
      const other = (await primaryOf(created.id)).id;
      await t.dataSource.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [
        created.revision,
        created.id,
      ]);
      const before = await revisionCount(created.id);
      await expect(
        t.dataSource.transaction((manager) =>
          writer().commitOnPrimary(manager, {
            spaceId: created.id,
            expectedRevisionId: created.revision,
            authorId: org.owner.id,
            type: 'edits',
            // Another writer moves the primary between the read and the compare-and-swap.
            changes: async () => {
              await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [
                other,
                created.id,
              ]);
              return [insert('racing', 'Racing')];
            },
          }),
        ),
      ).rejects.toMatchObject({ kind: 'conflict', code: 'SpaceContentMoved' } as DomainError);
      expect(await revisionCount(created.id)).toBe(before);
      expect((await primaryOf(created.id)).id).toBe(created.revision);
    });

    it('rejects an invalid change with a 400 and writes nothing', async () => {
      const org = await t.factories.organization();
      const created = await t.factories.later.space(org);
      await expect(
        t.dataSource.transaction((manager) =>
          writer().commitOnPrimary(manager, {
            spaceId: created.id,
            expectedRevisionId: created.revision,
            authorId: org.owner.id,
            type: 'edits',
            changes: [insert('ok', 'Fine'), { operation: 'delete_page', page: 'missing' }],
          }),
        ),
      ).rejects.toMatchObject({ kind: 'bad_request', code: 'InvalidChange' } as DomainError);
      expect(await revisionCount(created.id)).toBe(1);
    });
  });
});
