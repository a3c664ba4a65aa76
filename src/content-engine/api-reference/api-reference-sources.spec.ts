import type { JSONDocument } from '../documents/document';
import { commit } from '../tree/commit';
import { MemoryObjectStore, type ObjectStore } from '../tree/object-store';
import { flatten } from '../tree/read';
import { emptyRoot, storeDocuments, type ContentChange } from '../writes/content-writer';
import { insertTemplatePages, SpaceTemplates } from '../writes/space-templates';
import { apiReferenceChanges, openAPISourceOf } from './api-reference-sources';

const ok = { responses: { '200': { description: 'OK' } } };

function spec(tags: Record<string, string[]>, extra: Record<string, unknown> = {}) {
  const paths: Record<string, unknown> = {};
  for (const [tag, operations] of Object.entries(tags)) {
    for (const path of operations)
      paths[path] = { get: { summary: `Get ${path}`, tags: [tag], ...ok } };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    tags: Object.keys(tags).map((name) => ({ name })),
    paths,
    ...extra,
  };
}

const V1 = spec({ pets: ['/pets'], store: ['/orders'] });

/** The template's pages for `document`, through SpaceTemplates with a fake specification. */
async function templatePages(document: unknown) {
  const specs = {
    latestContent: () => Promise.resolve({ specId: 'sp1', versionId: 'v1', document }),
    linkSpace: jest.fn(),
  };
  const templates = new SpaceTemplates(undefined as never, specs);
  return templates.prepare('o1', {
    id: 'api-reference',
    params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
  });
}

async function apply(store: ObjectStore, tree: string, changes: readonly ContentChange[]) {
  return commit(store, tree, await storeDocuments(store, changes));
}

/** The tree as `title (parent title)` lines, with each page's operations. */
async function outline(store: ObjectStore, tree: string) {
  const snapshot = await flatten(store, tree);
  return Promise.all(
    [...snapshot.values()].map(async (page) => {
      const parent = page.parentId ? snapshot.get(page.parentId)!.meta.title : null;
      const document = page.documentHash
        ? ((await store.get(page.documentHash)) as JSONDocument)
        : null;
      const paths = (document?.nodes ?? [])
        .filter((node) => node.type === 'openapi-operation')
        .map((node) => String(node.data?.path));
      return [page.meta.title, parent, paths];
    }),
  );
}

async function space(before: ContentChange[] = []) {
  const store = new MemoryObjectStore();
  let tree = await store.put('tree', emptyRoot());
  let n = 0;
  tree = await apply(store, tree, [
    ...before,
    ...insertTemplatePages(await templatePages(V1), null, () => `p${++n}`),
  ]);
  return { store, tree };
}

const hand = (id: string, title: string): ContentChange => ({
  operation: 'insert_page',
  id,
  meta: { title },
  document: null,
});

describe('apiReferenceChanges', () => {
  it('writes the computed source on each page', async () => {
    const { store, tree } = await space();
    const pages = [...(await flatten(store, tree)).values()];
    expect(pages[0].meta).toEqual(
      expect.objectContaining({
        computed: {
          type: 'builtin:openapi',
          dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
          props: { doc: 'operations', page: 'pets' },
        },
        computedSeed: 'operations:pets',
      }),
    );
    expect(pages.map((page) => openAPISourceOf(page.meta)?.key)).toEqual([
      'operations:pets',
      'operations:store',
    ]);
  });

  it('changes nothing for the same document, and nothing for another spec', async () => {
    const { store, tree } = await space();
    expect(await apiReferenceChanges(store, tree, ['sp1', 'pets'], V1)).toEqual([]);
    expect(await apiReferenceChanges(store, tree, ['other'], V1)).toBeNull();
  });

  it('adds a new tag in the spec order, follows operations, deletes a removed tag', async () => {
    const { store, tree } = await space([hand('h1', 'Intro')]);
    const v2 = spec({ animals: ['/animals'], pets: ['/pets', '/pets/{id}'], users: ['/users'] });
    const changes = (await apiReferenceChanges(store, tree, ['sp1', 'pets'], v2, () => 'new'))!;
    expect(changes.map((change) => change.operation)).toEqual([
      'insert_page',
      'set_document',
      'insert_page',
      'delete_page',
    ]);
    // Unique ids for the two inserts.
    let n = 0;
    const next = await apply(
      store,
      tree,
      (await apiReferenceChanges(store, tree, ['pets'], v2, () => `n${++n}`))!,
    );
    expect(await outline(store, next)).toEqual([
      ['Intro', null, []],
      ['animals', null, ['/animals']],
      ['pets', null, ['/pets', '/pets/{id}']],
      ['users', null, ['/users']],
    ]);
    expect(await apiReferenceChanges(store, next, ['pets'], v2)).toEqual([]);
  });

  it('keeps the block keys of unchanged operations', async () => {
    const { store, tree } = await space();
    const v2 = spec({ pets: ['/pets', '/pets/{id}'], store: ['/orders'] });
    const next = await apply(store, tree, (await apiReferenceChanges(store, tree, ['pets'], v2))!);
    const keysOf = async (root: string) => {
      const page = [...(await flatten(store, root)).values()][0];
      const document = (await store.get(page.documentHash!)) as JSONDocument;
      return document.nodes.map((node) => (node as { key: string }).key);
    };
    const [before, after] = [await keysOf(tree), await keysOf(next)];
    expect(after.slice(0, 2)).toEqual(before);
    expect(new Set(after).size).toBe(4);
  });

  it('nests and un-nests pages as x-parent says, and updates titles', async () => {
    const { store, tree } = await space();
    const nested = spec({ pets: ['/pets'], store: ['/orders'] });
    (nested.tags as Record<string, unknown>[])[1]['x-parent'] = 'pets';
    (nested.tags as Record<string, unknown>[])[0]['x-page-title'] = 'Pets';
    const next = await apply(
      store,
      tree,
      (await apiReferenceChanges(store, tree, ['pets'], nested))!,
    );
    expect(await outline(store, next)).toEqual([
      ['Pets', null, ['/pets']],
      ['store', 'Pets', ['/orders']],
    ]);
    const back = await apply(store, next, (await apiReferenceChanges(store, next, ['pets'], V1))!);
    expect(await outline(store, back)).toEqual([
      ['pets', null, ['/pets']],
      ['store', null, ['/orders']],
    ]);
  });
});
