import type { JSONDocument } from '../src/content-engine/documents/document';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { ApiReferenceRegeneration } from '../src/openapi/processing/api-reference-regeneration';
import { createTestApp, TestApp } from './helpers/app';
import type { OpenAPISpecBody, SpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/*
 * API-reference pages are computed from their OpenAPI specification (GitBook's `computed` page
 * source `builtin:openapi`) and follow it: each new processed version regenerates them.
 */

interface PageBody {
  id: string;
  title: string;
  type: string;
  computed?: Record<string, unknown>;
  computedSeed?: string;
  documentId?: string;
  pages: PageBody[];
  document?: JSONDocument;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ok = { responses: { '200': { description: 'OK' } } };

/** A spec whose tags each have the given paths (one `get` each). */
function specText(tags: Record<string, string[]>, description = 'v'): string {
  const paths: Record<string, unknown> = {};
  for (const [tag, list] of Object.entries(tags)) {
    for (const path of list) paths[path] = { get: { summary: `Get ${path}`, tags: [tag], ...ok } };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1', description },
    tags: Object.keys(tags).map((name) => ({ name })),
    paths,
  });
}

const V1 = specText({ pets: ['/pets'], store: ['/orders'] });

const computedOf = (page: string) => ({
  type: 'builtin:openapi',
  dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
  props: { doc: 'operations', page },
});

describe('API-reference pages computed from a specification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const specPath = (org: TestOrganization, slug = 'pets') => `/v1/orgs/${org.id}/openapi/${slug}`;

  /** Waits until the spec's processing is complete (with a version other than `previous`). */
  async function processed(org: TestOrganization, previous?: string): Promise<OpenAPISpecBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await org.owner.client.get(specPath(org)).expect(200);
      const body = res.body as OpenAPISpecBody;
      if (body.processingState === 'complete' && body.lastVersion !== previous) return body;
      if (Date.now() > deadline) throw new Error(`pets is still ${body.processingState}`);
      await sleep(100);
    }
  }

  /** A new version of the spec: PUT its source, wait for the processing. */
  async function putVersion(org: TestOrganization, text: string): Promise<OpenAPISpecBody> {
    const before = (await org.owner.client.get(specPath(org)).expect(200)).body as OpenAPISpecBody;
    const res = await org.owner.client.put(specPath(org), { source: { text } }).expect(200);
    expectConforms(res, 'createOrUpdateOpenAPISpecBySlug');
    return processed(org, before.lastVersion);
  }

  async function listPages(spaceId: string, client: Client): Promise<PageBody[]> {
    const res = await client.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    expectConforms(res, 'listPages');
    return (res.body as { pages: PageBody[] }).pages;
  }

  /** Waits until the space's pages have these titles (the regeneration runs in a job). */
  async function pagesBecome(
    spaceId: string,
    titles: string[],
    client: Client,
  ): Promise<PageBody[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pages = await listPages(spaceId, client);
      if (JSON.stringify(pages.map((page) => page.title)) === JSON.stringify(titles)) return pages;
      if (Date.now() > deadline) {
        throw new Error(`pages are ${pages.map((page) => page.title).join(', ')}`);
      }
      await sleep(100);
    }
  }

  async function revisionCount(spaceId: string): Promise<number> {
    const rows: { n: number }[] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM revisions WHERE space_id = $1',
      [spaceId],
    );
    return rows[0].n;
  }

  async function primaryRevision(spaceId: string) {
    const rows: { id: string; type: string; author_id: string | null; parents: string[] }[] =
      await t.dataSource.query(
        `SELECT r.id, r.type, r.author_id, r.parents FROM spaces s
           JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1`,
        [spaceId],
      );
    return rows[0];
  }

  /** The operation paths of a page's document, read as the site renderer reads it. */
  async function operationsOf(spaceId: string, pageId: string, client: Client) {
    const revision = (await primaryRevision(spaceId)).id;
    const res = await client
      .get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}/document`)
      .expect(200);
    expectConforms(res, 'getPageDocumentInRevisionById');
    return (res.body as JSONDocument).nodes
      .filter((node) => node.type === 'openapi-operation')
      .map((node) => String(node.data?.path));
  }

  /** An organization with the spec `pets` (V1) processed and a space from the template. */
  async function apiReferenceSpace() {
    const org = await t.factories.organization();
    await t.factories.openAPISpec(org, { slug: 'pets', text: V1 });
    const spec = await processed(org);
    const space = await t.factories.later.space(org);
    const res = await org.owner.client.post(`/v1/spaces/${space.id}/content/template`, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
    });
    expect(res.status).toBe(201);
    expectConforms(res, 'applyTemplateToSpace');
    return { org, spec, space };
  }

  it('writes one computed page per tag, whose document reads return the computed blocks', async () => {
    const { org, space } = await apiReferenceSpace();
    const pages = await listPages(space.id, org.owner.client);
    expect(pages.map((page) => [page.title, page.type, page.computed, page.computedSeed])).toEqual([
      ['pets', 'document', computedOf('pets'), 'operations:pets'],
      ['store', 'document', computedOf('store'), 'operations:store'],
    ]);
    for (const page of pages) expect(page).not.toHaveProperty('documentId');

    const read = await org.owner.client
      .get(`/v1/spaces/${space.id}/content/page/${pages[0].id}`)
      .expect(200);
    expectConforms(read, 'getPageById');
    expect((read.body as PageBody).computed).toEqual(computedOf('pets'));
    expect(await operationsOf(space.id, pages[0].id, org.owner.client)).toEqual(['/pets']);
    expect(await operationsOf(space.id, pages[1].id, org.owner.client)).toEqual(['/orders']);
  });

  it('adds the page of a new tag, and the new operations of a tag, when a new version is processed', async () => {
    const { org, spec, space } = await apiReferenceSpace();
    const before = await primaryRevision(space.id);
    const [pets, store] = await listPages(space.id, org.owner.client);

    const v2 = await putVersion(
      org,
      specText({ pets: ['/pets', '/pets/{id}'], store: ['/orders'], users: ['/users'] }),
    );
    expect(v2.lastVersion).not.toBe(spec.lastVersion);
    const pages = await pagesBecome(space.id, ['pets', 'store', 'users'], org.owner.client);
    // Pages keep their ids; the new one is computed from the spec too.
    expect(pages.map((page) => page.id).slice(0, 2)).toEqual([pets.id, store.id]);
    expect(pages[2].computed).toEqual(computedOf('users'));
    expect(await operationsOf(space.id, pages[0].id, org.owner.client)).toEqual([
      '/pets',
      '/pets/{id}',
    ]);
    expect(await operationsOf(space.id, pages[2].id, org.owner.client)).toEqual(['/users']);

    // One `edits` revision by nobody on top of the template's.
    expect(await primaryRevision(space.id)).toEqual(
      expect.objectContaining({ type: 'edits', author_id: null, parents: [before.id] }),
    );
    const spaceRead = await org.owner.client.get(`/v1/spaces/${space.id}`).expect(200);
    expectConforms(spaceRead, 'getSpaceById');
    expect((spaceRead.body as SpaceBody).revision).toBe((await primaryRevision(space.id)).id);
  });

  it('deletes the page of a removed tag; a version that changes no page writes no revision', async () => {
    const { org, space } = await apiReferenceSpace();
    await putVersion(org, specText({ pets: ['/pets'] }));
    const pages = await pagesBecome(space.id, ['pets'], org.owner.client);
    expect(await operationsOf(space.id, pages[0].id, org.owner.client)).toEqual(['/pets']);
    const count = await revisionCount(space.id);

    // A new version (another description) that gives the same pages.
    const same = await putVersion(org, specText({ pets: ['/pets'] }, 'reworded'));
    await t.bindery.app.get(ApiReferenceRegeneration).regenerate(same.id);
    expect(await revisionCount(space.id)).toBe(count);
    expect((await listPages(space.id, org.owner.client)).map((page) => page.title)).toEqual([
      'pets',
    ]);
  });

  it('regenerates a space created from the template, and leaves hand-written pages alone', async () => {
    const org = await t.factories.organization();
    await t.factories.openAPISpec(org, { slug: 'pets', text: V1 });
    await processed(org);
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/spaces`, {
        title: 'API',
        template: {
          id: 'api-reference',
          params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
        },
      })
      .expect(201);
    expectConforms(res, 'createSpace');
    const space = res.body as SpaceBody;
    // A page written by hand after the template's.
    await t.dataSource.transaction((manager) =>
      t.bindery.app.get(ContentWriter).commitOnPrimary(manager, {
        spaceId: space.id,
        expectedRevisionId: space.revision,
        authorId: null,
        type: 'edits',
        changes: [{ operation: 'insert_page', id: 'intro', meta: { title: 'Intro' } }],
      }),
    );
    expect((await listPages(space.id, org.owner.client)).map((page) => page.title)).toEqual([
      'pets',
      'store',
      'Intro',
    ]);

    await putVersion(org, specText({ animals: ['/animals'], pets: ['/pets'] }));
    await pagesBecome(space.id, ['animals', 'pets', 'Intro'], org.owner.client);
  });

  it('forgets a space whose computed pages are all gone', async () => {
    const { org, spec, space } = await apiReferenceSpace();
    const links = () =>
      t.dataSource.query('SELECT space_id FROM openapi_spec_spaces WHERE spec_id = $1', [
        spec.id,
      ]) as Promise<unknown[]>;
    expect(await links()).toHaveLength(1);
    // A regeneration the spec's processing queued may run from here on: it too forgets the
    // space once the template's pages are gone.
    await org.owner.client.post(`/v1/spaces/${space.id}/content/template`, { id: 'blank' });
    const count = await revisionCount(space.id);
    await t.bindery.app.get(ApiReferenceRegeneration).regenerate(spec.id);
    expect(await links()).toHaveLength(0);
    expect(await revisionCount(space.id)).toBe(count);
  });

  it('answers 404 for the document of an unknown page or to another organization, 400 for a bad query', async () => {
    const { org, space } = await apiReferenceSpace();
    const [pets] = await listPages(space.id, org.owner.client);
    const revision = (await primaryRevision(space.id)).id;
    const path = (page: string) =>
      `/v1/spaces/${space.id}/revisions/${revision}/page/${page}/document`;
    const notFound = await org.owner.client.get(path('nope'));
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const stranger = await t.factories.organization();
    expect((await stranger.owner.client.get(path(pets.id))).status).toBe(404);
    const bad = await org.owner.client.get(`${path(pets.id)}?dereferenced=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 400, message: expect.any(String) } });
    // A reader of the organization reads it; a reader may not apply the template again.
    const reader = await t.factories.member(org, 'read');
    expect(await operationsOf(space.id, pets.id, reader.client)).toEqual(['/pets']);
    const refused = await reader.client.post(`/v1/spaces/${space.id}/content/template`, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 403, message: expect.any(String) } });
  });
});
