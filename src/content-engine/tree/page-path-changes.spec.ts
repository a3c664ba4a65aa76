import { commit, type PageChange } from './commit';
import type { RootNodeV1 } from './format';
import { MemoryObjectStore } from './object-store';
import { pagePathChanges } from './page-path-changes';

const EMPTY: RootNodeV1 = { version: 1, pages: [], files: [], reusableContents: [], variables: {} };

/** 10 parts × 10 chapters × 10 sections. */
async function tree(store: MemoryObjectStore): Promise<string> {
  const changes: PageChange[] = [];
  for (let i = 0; i < 10; i++) {
    changes.push({ operation: 'insert_page', id: `p${i}`, meta: { title: `Part ${i}` } });
    for (let j = 0; j < 10; j++) {
      const chapter = `p${i}-${j}`;
      changes.push({
        operation: 'insert_page',
        id: chapter,
        meta: { title: `Chapter ${j}` },
        into: `p${i}`,
      });
      for (let k = 0; k < 10; k++) {
        changes.push({
          operation: 'insert_page',
          id: `${chapter}-${k}`,
          meta: { title: `Section ${k}` },
          into: chapter,
        });
      }
    }
  }
  return commit(store, await store.put('tree', EMPTY), changes);
}

describe('pagePathChanges', () => {
  let store: MemoryObjectStore;
  let root: string;

  beforeAll(async () => {
    store = new MemoryObjectStore();
    root = await tree(store);
  });
  beforeEach(() => store.resetCounters());

  it('finds nothing between a tree and itself, or after a body edit, reading only its path', async () => {
    expect(await pagePathChanges(store, root, root)).toEqual([]);
    const document = await store.put('document', { object: 'document', data: {}, nodes: [] });
    const edited = await commit(store, root, [
      { operation: 'set_document', page: 'p3-4-5', document },
    ]);
    store.resetCounters();
    expect(await pagePathChanges(store, root, edited)).toEqual([]);
    // Both roots, and the old and new version of the pages on the path.
    expect(store.reads).toBeLessThanOrEqual(2 + 2 * 3);
  });

  it('lists a renamed page and every page below it', async () => {
    const renamed = await commit(store, root, [
      { operation: 'update_page', page: 'p2-1', meta: { slug: 'renamed' } },
    ]);
    const changes = await pagePathChanges(store, root, renamed);
    expect(changes).toHaveLength(1 + 10);
    expect(changes).toContainEqual({
      pageId: 'p2-1',
      from: 'part-2/chapter-1',
      to: 'part-2/renamed',
    });
    expect(changes).toContainEqual({
      pageId: 'p2-1-7',
      from: 'part-2/chapter-1/section-7',
      to: 'part-2/renamed/section-7',
    });
  });

  it('lists a page moved to another parent, with its subpages', async () => {
    const moved = await commit(store, root, [
      { operation: 'move_page', page: 'p5-5', into: 'p6' },
      { operation: 'move_page', page: 'p7-1-1', into: null },
    ]);
    const changes = await pagePathChanges(store, root, moved);
    expect(changes).toHaveLength(1 + 10 + 1);
    expect(changes).toContainEqual({
      pageId: 'p5-5-2',
      from: 'part-5/chapter-5/section-2',
      // part-6 has a chapter-5 of its own.
      to: 'part-6/chapter-5-2/section-2',
    });
    expect(changes).toContainEqual({
      pageId: 'p7-1-1',
      from: 'part-7/chapter-1/section-1',
      to: 'section-1',
    });
  });

  it('leaves out reordered, inserted and deleted pages, without reading what was deleted', async () => {
    const next = await commit(store, root, [
      { operation: 'move_page', page: 'p1', into: null, at: 5 },
      { operation: 'insert_page', id: 'new', meta: { title: 'New' }, into: 'p4' },
      { operation: 'delete_page', page: 'p8' },
    ]);
    store.resetCounters();
    expect(await pagePathChanges(store, root, next)).toEqual([]);
    // None of the 111 deleted pages is read, nor any of the unchanged parts.
    expect(store.reads).toBeLessThan(20);
  });

  it('finds a page that left a deleted parent for another place', async () => {
    const next = await commit(store, root, [
      { operation: 'move_page', page: 'p9-9-9', into: 'p0' },
      { operation: 'delete_page', page: 'p9' },
    ]);
    expect(await pagePathChanges(store, root, next)).toEqual([
      { pageId: 'p9-9-9', from: 'part-9/chapter-9/section-9', to: 'part-0/section-9' },
    ]);
  });
});
