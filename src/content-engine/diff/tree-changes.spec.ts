import { commit, type PageChange } from '../tree/commit';
import { emptyRoot, type RootNode } from '../tree/format';
import { MemoryObjectStore } from '../tree/object-store';
import { treeChanges, type TreeChange } from './tree-changes';

const page = (id: string, title: string, extra: Partial<PageChange> = {}): PageChange =>
  ({ operation: 'insert_page', id, meta: { title }, ...extra }) as PageChange;

/** One line per change: its type, the page, and what changed or where it went. */
function summary(changes: TreeChange[]): string[] {
  return changes.map((change) => {
    switch (change.type) {
      case 'page_created':
      case 'page_deleted':
        return `${change.type} ${change.page.id} ${change.page.path}`;
      case 'page_edited':
        return `${change.type} ${change.page.id} ${Object.keys(change.attributes).join(',')}`;
      case 'page_moved':
        return `${change.type} ${change.page.id} ${change.parent.before?.id ?? '-'}>${change.parent.after?.id ?? '-'} ${change.page.path}`;
      case 'file_created':
      case 'file_deleted':
        return `${change.type} ${change.file.id}`;
      case 'file_edited':
        return `${change.type} ${change.file.id} ${Object.keys(change.attributes).join(',')}`;
      case 'reusable_content_created':
      case 'reusable_content_deleted':
      case 'reusable_content_edited':
        return `${change.type} ${change.reusableContent.id}`;
      case 'variables_edited':
        return `${change.type} ${JSON.stringify(change.variables)}`;
    }
  });
}

describe('treeChanges', () => {
  let store: MemoryObjectStore;
  let root: string;

  const empty = () => store.put('tree', emptyRoot());

  beforeEach(async () => {
    store = new MemoryObjectStore();
    root = await commit(store, await empty(), [
      page('a', 'Getting Started'),
      page('b', 'Guides'),
      page('b1', 'Install', { into: 'b' }),
      page('b2', 'Configure', { into: 'b' }),
      page('b21', 'Options', { into: 'b2' }),
      page('c', 'Reference'),
    ]);
  });

  const changesTo = async (changes: PageChange[]) =>
    summary(await treeChanges(store, root, await commit(store, root, changes)));

  it('finds nothing between a tree and itself', async () => {
    expect(await treeChanges(store, root, root)).toEqual([]);
  });

  it('lists everything as created against no tree', async () => {
    expect(summary(await treeChanges(store, null, root))).toEqual([
      'page_created a getting-started',
      'page_created b guides',
      'page_created c reference',
      'page_created b1 guides/install',
      'page_created b2 guides/configure',
      'page_created b21 guides/configure/options',
    ]);
  });

  it('reports created, deleted and edited pages with the attributes that changed', async () => {
    const doc = await store.put('document', { object: 'document', data: {}, nodes: [] });
    expect(
      await changesTo([
        page('b3', 'Deploy', { into: 'b' }),
        { operation: 'delete_page', page: 'c' },
        { operation: 'update_page', page: 'b21', meta: { title: 'All options', emoji: '1f4d8' } },
        { operation: 'set_document', page: 'b1', document: doc },
      ]),
    ).toEqual([
      'page_edited b1 document',
      // A new title gives a page a new slug.
      'page_edited b21 title,slug,emoji',
      'page_created b3 guides/deploy',
      'page_deleted c reference',
    ]);
  });

  it('reports a change of a flag alone as no edit', async () => {
    expect(
      await changesTo([{ operation: 'update_page', page: 'b1', meta: { hidden: true } }]),
    ).toEqual([]);
  });

  it('deletes a subtree page by page', async () => {
    expect(await changesTo([{ operation: 'delete_page', page: 'b' }])).toEqual([
      'page_deleted b guides',
      'page_deleted b1 guides/install',
      'page_deleted b2 guides/configure',
      'page_deleted b21 guides/configure/options',
    ]);
  });

  it('reports a move to another parent once, with both parents, and not a reorder', async () => {
    expect(
      await changesTo([
        { operation: 'move_page', page: 'b2', into: null },
        { operation: 'move_page', page: 'b21', into: 'a' },
        { operation: 'move_page', page: 'c', into: null, at: 0 },
      ]),
    ).toEqual(['page_moved b2 b>- configure', 'page_moved b21 b2>a getting-started/options']);
  });

  it('tells a page moved into a new page, or out of a deleted one, from created and deleted ones', async () => {
    expect(
      await changesTo([
        page('n', 'New'),
        { operation: 'move_page', page: 'a', into: 'n' },
        { operation: 'move_page', page: 'b21', into: null },
        { operation: 'delete_page', page: 'b' },
      ]),
    ).toEqual([
      'page_created n new',
      'page_deleted b guides',
      'page_moved a ->n new/getting-started',
      'page_deleted b1 guides/install',
      'page_deleted b2 guides/configure',
      'page_moved b21 b2>- options',
    ]);
  });

  it('untangles pages moved under one another', async () => {
    // b above b2 becomes b2 above b.
    expect(
      await changesTo([
        { operation: 'move_page', page: 'b2', into: null },
        { operation: 'move_page', page: 'b', into: 'b2' },
      ]),
    ).toEqual(['page_moved b2 b>- configure', 'page_moved b ->b2 configure/guides']);
  });

  it('reports files and variables', async () => {
    const file = (id: string, name: string) =>
      store.put('file', { id, name, contentType: 'text/plain', size: 1, blob: name });
    const withFiles = async (files: string[], variables: RootNode['variables']) => {
      const tree = (await store.get(root)) as RootNode;
      return store.put('tree', { ...tree, files, variables });
    };
    const before = await withFiles([await file('f1', 'a.txt'), await file('f2', 'b.txt')], {
      version: '1.0',
      gone: true,
    });
    const after = await withFiles([await file('f1', 'renamed.txt'), await file('f3', 'c.txt')], {
      version: '2.0',
      added: 3,
    });
    expect(summary(await treeChanges(store, before, after))).toEqual([
      'file_created f3',
      'file_edited f1 name,blob',
      'file_deleted f2',
      // Stored trees keep their keys sorted.
      'variables_edited {"gone":{"before":true},"version":{"before":"1.0","after":"2.0"},"added":{"after":3}}',
    ]);
  });

  it('reads only the two roots and the page that changed in a long flat list', async () => {
    const flat = await commit(
      store,
      await empty(),
      Array.from({ length: 200 }, (_, i) => page(`p${i}`, `Page ${i}`)),
    );
    const next = await commit(store, flat, [
      { operation: 'update_page', page: 'p100', meta: { emoji: '1f4d8' } },
    ]);
    store.resetCounters();
    expect(summary(await treeChanges(store, flat, next))).toEqual(['page_edited p100 emoji']);
    expect(store.reads).toBe(4);
  });

  it('reads only the pages on the path to a change', async () => {
    const next = await commit(store, root, [
      { operation: 'update_page', page: 'b21', meta: { title: 'Renamed' } },
    ]);
    store.resetCounters();
    await treeChanges(store, root, next);
    // Two roots, then b, b2 and b21 on each side; a and c are never read.
    expect(store.reads).toBe(8);
  });
});
