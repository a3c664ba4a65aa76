import { commit, type PageChange } from '../tree/commit';
import type { RootNodeV1 } from '../tree/format';
import { MemoryObjectStore } from '../tree/object-store';
import { indexChanges } from './index-diff';

const EMPTY: RootNodeV1 = { version: 1, pages: [], files: [], reusableContents: [], variables: {} };

/** 10 parts × 10 chapters × 10 sections, each section with its own document. */
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

describe('indexChanges', () => {
  let store: MemoryObjectStore;
  let root: string;

  beforeAll(async () => {
    store = new MemoryObjectStore();
    root = await tree(store);
  });
  beforeEach(() => store.resetCounters());

  it('indexes every document page of a new tree', async () => {
    const { changed, removed } = await indexChanges(store, null, root);
    expect(changed).toHaveLength(10 + 100 + 1000);
    expect(removed).toEqual([]);
    const section = changed.find((page) => page.id === 'p3-4-5');
    expect(section).toEqual({
      id: 'p3-4-5',
      title: 'Section 5',
      path: 'part-3/chapter-4/section-5',
      documentHash: null,
      ancestors: [{ title: 'Part 3' }, { title: 'Chapter 4' }],
    });
  });

  it('reads only the path of a one-page edit, and reports that page alone', async () => {
    const document = await store.put('document', { object: 'document', data: {}, nodes: [] });
    const edited = await commit(store, root, [
      { operation: 'set_document', page: 'p3-4-5', document },
    ]);
    store.resetCounters();
    const { changed, removed } = await indexChanges(store, root, edited);
    expect(changed.map((page) => page.id)).toEqual(['p3-4-5']);
    expect(changed[0].documentHash).toBe(document);
    expect(removed).toEqual([]);
    // Both roots, and the old and new version of each of the three pages on the path.
    expect(store.reads).toBeLessThanOrEqual(2 + 2 * 3);
  });

  it('re-indexes the subtree of a renamed page, with its new path and ancestors', async () => {
    const renamed = await commit(store, root, [
      { operation: 'update_page', page: 'p2-1', meta: { title: 'Renamed' } },
    ]);
    const { changed } = await indexChanges(store, root, renamed);
    expect(changed).toHaveLength(1 + 10);
    expect(changed.find((page) => page.id === 'p2-1-0')).toMatchObject({
      path: 'part-2/renamed/section-0',
      ancestors: [{ title: 'Part 2' }, { title: 'Renamed' }],
    });
  });

  it('lists the pages of a deleted subtree, and a moved page in both lists', async () => {
    const next = await commit(store, root, [
      { operation: 'delete_page', page: 'p1-1' },
      { operation: 'move_page', page: 'p5-5-5', into: 'p6' },
    ]);
    const { changed, removed } = await indexChanges(store, root, next);
    expect(new Set(removed)).toEqual(
      new Set(['p1-1', ...Array.from({ length: 10 }, (_, k) => `p1-1-${k}`), 'p5-5-5']),
    );
    expect(changed.map((page) => page.id)).toEqual(['p5-5-5']);
    expect(changed[0].path).toBe('part-6/section-5');
  });
});
