import { commit, type PageChange } from './commit';
import type { RootNodeV1 } from './format';
import { MemoryObjectStore } from './object-store';
import { findPageById, findPageByPath, flatten } from './read';

/** 20 top-level pages × 20 children × 25 grandchildren: 10,000 pages three levels down. */
async function bigTree(store: MemoryObjectStore): Promise<string> {
  const empty: RootNodeV1 = {
    version: 1,
    pages: [],
    files: [],
    reusableContents: [],
    variables: {},
  };
  const changes: PageChange[] = [];
  for (let i = 0; i < 20; i++) {
    changes.push({ operation: 'insert_page', id: `p${i}`, meta: { title: `Part ${i}` } });
    for (let j = 0; j < 20; j++) {
      const chapter = `p${i}-${j}`;
      changes.push({
        operation: 'insert_page',
        id: chapter,
        meta: { title: `Chapter ${j}` },
        into: `p${i}`,
      });
      for (let k = 0; k < 25; k++) {
        changes.push({
          operation: 'insert_page',
          id: `${chapter}-${k}`,
          meta: { title: `Section ${k} of chapter ${j}`, description: 'A page among many' },
          into: chapter,
        });
      }
    }
  }
  return commit(store, await store.put('tree', empty), changes);
}

describe('a 10,000-page tree', () => {
  let store: MemoryObjectStore;
  let root: string;

  beforeAll(async () => {
    store = new MemoryObjectStore();
    root = await bigTree(store);
  });

  beforeEach(() => store.resetCounters());

  const written = () => ({
    objects: store.writes.length,
    bytes: store.writes.reduce((sum, write) => sum + write.bytes, 0),
  });

  it('holds every page', async () => {
    expect((await flatten(store, root)).size).toBe(20 + 400 + 10_000);
  });

  it('writes ≤ 10 objects and ≤ 64 KB to edit one page and its document', async () => {
    const document = await store.put('document', { object: 'document', nodes: [] });
    store.resetCounters();
    await commit(store, root, [
      { operation: 'update_page', page: 'p7-3-12', meta: { title: 'Renamed' } },
      { operation: 'set_document', page: 'p7-3-12', document },
    ]);
    const { objects, bytes } = written();
    expect(objects).toBeLessThanOrEqual(10);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(store.writes.map((write) => write.kind)).toEqual(['page', 'page', 'page', 'tree']);
  });

  it.each<[string, PageChange]>([
    ['insert', { operation: 'insert_page', id: 'new', meta: { title: 'New' }, into: 'p3-4' }],
    ['delete', { operation: 'delete_page', page: 'p3-4-5' }],
    ['move', { operation: 'move_page', page: 'p3-4-5', into: 'p9-9', at: 0 }],
  ])('writes ≤ 10 objects and ≤ 64 KB to %s one page', async (_name, change) => {
    await commit(store, root, [change]);
    const { objects, bytes } = written();
    expect(objects).toBeLessThanOrEqual(10);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('finds a page by id or by path reading only the nodes on its way', async () => {
    const byId = await findPageById(store, root, 'p12-8-20');
    expect(byId).toMatchObject({
      parentId: 'p12-8',
      index: 20,
      path: 'part-12/chapter-8/section-20-of-chapter-8',
    });
    expect(store.reads).toBeLessThanOrEqual(15);
    store.resetCounters();
    const byPath = await findPageByPath(store, root, 'part-12/chapter-8/section-20-of-chapter-8');
    expect(byPath?.id).toBe('p12-8-20');
    expect(store.reads).toBe(4);
  });
});
