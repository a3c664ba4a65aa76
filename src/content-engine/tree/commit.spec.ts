import { commit, TreeChangeError, type PageChange } from './commit';
import type { RootNode, RootNodeV1 } from './format';
import { MemoryObjectStore } from './object-store';
import { findPageById, findPageByPath, flatten, pagePaths } from './read';

async function emptyTree(store: MemoryObjectStore): Promise<string> {
  const root: RootNodeV1 = {
    version: 1,
    pages: [],
    files: [],
    reusableContents: [],
    variables: {},
  };
  return store.put('tree', root);
}

const doc = (id: string, title: string, extra: Partial<PageChange> = {}): PageChange =>
  ({ operation: 'insert_page', id, meta: { title }, ...extra }) as PageChange;

/** `parentId:index:path` of every page, in document order. */
async function outline(store: MemoryObjectStore, root: string): Promise<string[]> {
  const snapshot = await flatten(store, root);
  const paths = pagePaths(snapshot);
  return [...snapshot.values()].map(
    (page) => `${page.id}<${page.parentId ?? '-'}:${page.index} ${paths.get(page.id) ?? ''}`,
  );
}

describe('commit', () => {
  let store: MemoryObjectStore;
  let root: string;

  beforeEach(async () => {
    store = new MemoryObjectStore();
    root = await commit(store, await emptyTree(store), [
      doc('a', 'Getting Started'),
      doc('b', 'Guides'),
      doc('b1', 'Install', { into: 'b' }),
      doc('b2', 'Configure', { into: 'b' }),
    ]);
  });

  it('inserts pages at the end, at a position, under a parent', async () => {
    const next = await commit(store, root, [
      doc('c', 'First', { at: 0 }),
      doc('b0', 'Overview', { into: 'b', at: 0 }),
    ]);
    expect(await outline(store, next)).toEqual([
      'c<-:0 first',
      'a<-:1 getting-started',
      'b<-:2 guides',
      'b0<b:0 guides/overview',
      'b1<b:1 guides/install',
      'b2<b:2 guides/configure',
    ]);
    expect(await outline(store, root)).toHaveLength(4); // the old revision is untouched
  });

  it('derives unique slugs among siblings only', async () => {
    const next = await commit(store, root, [
      doc('x', 'Install', { into: 'b' }),
      doc('y', 'Install', { into: 'b' }),
      doc('z', 'Install'),
    ]);
    const paths = pagePaths(await flatten(store, next));
    expect([paths.get('x'), paths.get('y'), paths.get('z')]).toEqual([
      'guides/install-2',
      'guides/install-3',
      'install',
    ]);
  });

  it('rejects a given slug already used by a sibling', async () => {
    await expect(
      commit(store, root, [doc('x', 'X', { into: 'b', meta: { title: 'X', slug: 'install' } })]),
    ).rejects.toThrow(/Change 0 \(insert_page\): slug install is already used/);
  });

  it('updates metadata: a new title re-derives the slug unless one is given', async () => {
    const next = await commit(store, root, [
      { operation: 'update_page', page: 'b1', meta: { title: 'Installation', emoji: '1f680' } },
      { operation: 'update_page', page: 'b2', meta: { title: 'Setup', slug: 'configure' } },
      { operation: 'update_page', page: 'a', meta: { description: 'Start here' } },
    ]);
    const b1 = await findPageById(store, next, 'b1');
    expect(b1).toMatchObject({
      path: 'guides/installation',
      meta: { type: 'document', title: 'Installation', slug: 'installation', emoji: '1f680' },
    });
    expect((await findPageById(store, next, 'b2'))?.path).toBe('guides/configure');
    const removed = await commit(store, next, [
      { operation: 'update_page', page: 'b1', meta: { emoji: null } },
    ]);
    expect((await findPageById(store, removed, 'b1'))?.meta).not.toHaveProperty('emoji');
  });

  it('sets and clears a page’s document', async () => {
    const document = await store.put('document', { object: 'document', nodes: [] });
    const next = await commit(store, root, [{ operation: 'set_document', page: 'a', document }]);
    expect((await flatten(store, next)).get('a')?.documentHash).toBe(document);
    const cleared = await commit(store, next, [
      { operation: 'set_document', page: 'a', document: null },
    ]);
    expect((await flatten(store, cleared)).get('a')?.documentHash).toBeNull();
    expect(cleared).toBe(root); // same content, same hash
    await expect(
      commit(store, root, [{ operation: 'set_document', page: 'a', document: 'f'.repeat(64) }]),
    ).rejects.toThrow(/document f+ not found/);
  });

  it('deletes a page with its subpages', async () => {
    const next = await commit(store, root, [{ operation: 'delete_page', page: 'b' }]);
    expect(await outline(store, next)).toEqual(['a<-:0 getting-started']);
    expect(await findPageById(store, next, 'b1')).toBeUndefined();
    await expect(commit(store, next, [doc('b1', 'Back')])).resolves.toBeDefined();
  });

  it('moves a page to another parent and position, never under itself', async () => {
    const next = await commit(store, root, [
      { operation: 'move_page', page: 'a', into: 'b', at: 1 },
      { operation: 'move_page', page: 'b2', into: null, at: 0 },
    ]);
    expect(await outline(store, next)).toEqual([
      'b2<-:0 configure',
      'b<-:1 guides',
      'b1<b:0 guides/install',
      'a<b:1 guides/getting-started',
    ]);
    await expect(
      commit(store, next, [{ operation: 'move_page', page: 'b', into: 'a' }]),
    ).rejects.toThrow(/Change 0 \(move_page\): page b cannot move into itself/);
    await expect(
      commit(store, next, [{ operation: 'move_page', page: 'b', into: 'b' }]),
    ).rejects.toThrow(/cannot move into itself/);
  });

  it('suffixes the slug of a page moved among siblings using it', async () => {
    const next = await commit(store, root, [
      doc('i', 'Install'),
      { operation: 'move_page', page: 'i', into: 'b' },
    ]);
    expect((await findPageById(store, next, 'i'))?.path).toBe('guides/install-2');
  });

  it('applies all changes or none, naming the bad one', async () => {
    store.resetCounters();
    const error = await commit(store, root, [
      doc('n', 'New'),
      { operation: 'update_page', page: 'a', meta: { title: 'Renamed' } },
      { operation: 'delete_page', page: 'missing' },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TreeChangeError);
    expect(error).toMatchObject({ index: 2, kind: 'bad_request' });
    expect((error as Error).message).toBe('Change 2 (delete_page): page missing not found');
    expect(store.writes).toEqual([]);
  });

  it.each<[string, PageChange]>([
    ['duplicate id', doc('a', 'Again')],
    ['bad position', doc('x', 'X', { at: 5 })],
    ['empty title', doc('x', '')],
    ['unknown parent', doc('x', 'X', { into: 'nope' })],
    [
      'group below top level',
      { operation: 'insert_page', id: 'g', type: 'group', meta: { title: 'G' }, into: 'b' },
    ],
    [
      'link without target',
      { operation: 'insert_page', id: 'l', type: 'link', meta: { title: 'L' } },
    ],
    ['bad slug', { operation: 'update_page', page: 'a', meta: { slug: 'Not A Slug' } }],
    ['reserved field', { operation: 'update_page', page: 'a', meta: { id: 'other' } }],
  ])('rejects %s', async (_name, change) => {
    await expect(commit(store, root, [change])).rejects.toBeInstanceOf(TreeChangeError);
  });

  it('keeps page variants and their metadata; only document and group pages have paths', async () => {
    const next = await commit(store, root, [
      {
        operation: 'insert_page',
        id: 'g',
        type: 'group',
        meta: { title: 'Reference', hidden: false },
      },
      {
        operation: 'insert_page',
        id: 'l',
        type: 'link',
        meta: { title: 'Site', target: { kind: 'url', url: 'https://example.com' } },
        into: 'b',
      },
      {
        operation: 'insert_page',
        id: 'c',
        type: 'computed',
        meta: { title: 'API', computed: { type: 'builtin:openapi', props: { models: true } } },
        into: 'g',
      },
    ]);
    expect(await findPageByPath(store, next, 'reference')).toMatchObject({
      id: 'g',
      type: 'group',
    });
    const link = await findPageById(store, next, 'l');
    expect(link).toMatchObject({ type: 'link', path: null, parentId: 'b', index: 2 });
    expect(link?.meta).toEqual({
      type: 'link',
      title: 'Site',
      target: { kind: 'url', url: 'https://example.com' },
    });
    expect(pagePaths(await flatten(store, next)).has('c')).toBe(false);
  });

  it('reaches the same root hash for the same content whatever the edit history', async () => {
    const direct = await commit(store, await emptyTree(store), [doc('a', 'Getting Started')]);
    const roundabout = await commit(store, root, [
      { operation: 'delete_page', page: 'b' },
      doc('t', 'Temp'),
      { operation: 'delete_page', page: 't' },
    ]);
    expect(roundabout).toBe(direct);
  });

  it('reads and upgrades a version 1 tree (what new spaces start with)', async () => {
    const v1Page = { id: 'init', type: 'document', title: 'Untitled', slug: 'untitled', pages: [] };
    const v1: RootNodeV1 = {
      version: 1,
      pages: [await store.put('page', v1Page)],
      files: [],
      reusableContents: [],
      variables: { product: 'Bindery' },
    };
    const v1Root = await store.put('tree', v1);
    expect(await findPageById(store, v1Root, 'init')).toMatchObject({ path: 'untitled' });
    expect(await findPageByPath(store, v1Root, 'untitled')).toMatchObject({ id: 'init' });
    const next = await commit(store, v1Root, [doc('x', 'Untitled', { into: 'init' })]);
    const upgraded = (await store.get(next)) as RootNode;
    expect(upgraded).toMatchObject({ version: 2, variables: { product: 'Bindery' } });
    expect(await outline(store, next)).toEqual(['init<-:0 untitled', 'x<init:0 untitled/untitled']);
  });
});
