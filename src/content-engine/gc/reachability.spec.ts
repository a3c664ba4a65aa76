import { commit, type PageChange } from '../tree/commit';
import type { FileNode, PageNodeV1, RootNode, RootNodeV1 } from '../tree/format';
import { INDEX_LEAF_MAX } from '../tree/page-index';
import { MemoryObjectStore } from '../tree/object-store';
import { markReachable, type ObjectBatchReader } from './reachability';

/** Reads from `store`, recording every batch of hashes asked for. */
function recordingReader(store: MemoryObjectStore): ObjectBatchReader & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    readMany: async (hashes) => {
      batches.push([...hashes]);
      const found = new Map<string, object>();
      for (const hash of hashes) {
        const data = await store.get(hash);
        if (data !== undefined) found.set(hash, data);
      }
      return found;
    },
  };
}

const emptyRootV2: RootNode = {
  version: 2,
  pages: [],
  files: [],
  reusableContents: [],
  variables: {},
  index: null,
};

const fileNode = (id: string): FileNode => ({
  id,
  name: `${id}.png`,
  contentType: 'image/png',
  size: 3,
  blob: 'ab'.repeat(32),
});

const document = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text }] }] }],
});

/** Hashes written to `store` since `since` writes, by kind. */
function written(store: MemoryObjectStore, since = 0): Map<string, string> {
  return new Map(store.writes.slice(since).map((write) => [write.hash, write.kind]));
}

describe('markReachable', () => {
  it('reaches every object of a format 2 tree: pages, documents, files, the page-index trie', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRootV2);
    const before = store.writes.length;
    const file = await store.put('file', fileNode('f1'));
    const doc = await store.put('document', document('Hello'));
    const nested = await store.put('document', document('Nested'));
    // More pages than a leaf of the index holds, so that it branches.
    const changes: PageChange[] = [{ operation: 'insert_file', file }];
    for (let i = 0; i < INDEX_LEAF_MAX + 20; i++) {
      changes.push({ operation: 'insert_page', id: `p${i}`, meta: { title: `Page ${i}` } });
    }
    changes.push(
      { operation: 'insert_page', id: 'withDoc', meta: { title: 'Doc' }, document: doc },
      {
        operation: 'insert_page',
        id: 'child',
        meta: { title: 'Child' },
        document: nested,
        into: 'withDoc',
      },
    );
    const root = await commit(store, empty, changes);

    const marked = new Set<string>();
    const stats = await markReachable(recordingReader(store), [root], marked);

    const expected = written(store, before);
    expect([...marked].sort()).toEqual([...expected.keys()].sort());
    expect(new Set(expected.values())).toEqual(
      new Set(['tree', 'page', 'document', 'file', 'page-index']),
    );
    expect([...expected.values()].filter((kind) => kind === 'page-index').length).toBeGreaterThan(
      1,
    );
    expect(marked.has(empty)).toBe(false);
    expect(stats.missing).toEqual([]);
  });

  it('reaches every object of a format 1 tree, reusable contents included', async () => {
    const store = new MemoryObjectStore();
    const leafDoc = await store.put('document', document('Leaf'));
    const leaf = await store.put('page', {
      id: 'leaf',
      type: 'document',
      title: 'Leaf',
      slug: 'leaf',
      documentId: leafDoc,
      pages: [],
    } satisfies PageNodeV1);
    const top = await store.put('page', {
      id: 'top',
      type: 'document',
      title: 'Top',
      slug: 'top',
      pages: [leaf],
    } satisfies PageNodeV1);
    const file = await store.put('file', fileNode('f1'));
    const reusableDoc = await store.put('document', document('Reused'));
    const reusable = await store.put('reusable-content', { id: 'rc1', document: reusableDoc });
    const root = await store.put('tree', {
      version: 1,
      pages: [top],
      files: [file],
      reusableContents: [reusable],
      variables: {},
    } satisfies RootNodeV1);
    const unrelated = await store.put('document', document('Nobody'));

    const marked = new Set<string>();
    await markReachable(recordingReader(store), [root], marked);

    expect([...marked].sort()).toEqual(
      [root, top, leaf, leafDoc, file, reusable, reusableDoc].sort(),
    );
    expect(marked.has(unrelated)).toBe(false);
  });

  it('walks a subtree shared by several roots once, in batches, leaves unread', async () => {
    const store = new MemoryObjectStore();
    const empty = await store.put('tree', emptyRootV2);
    const doc = await store.put('document', document('Shared'));
    const changes: PageChange[] = [];
    for (let i = 0; i < 10; i++) {
      changes.push({
        operation: 'insert_page',
        id: `p${i}`,
        meta: { title: `P${i}` },
        document: doc,
      });
    }
    const first = await commit(store, empty, changes);
    // Edits one page: the second root shares every other page and most of the index.
    const second = await commit(store, first, [
      { operation: 'update_page', page: 'p3', meta: { title: 'Changed' } },
    ]);
    const reader = recordingReader(store);
    const marked = new Set<string>();

    const stats = await markReachable(reader, [first, second, first], marked, { batchSize: 3 });
    // A later call with a root already walked reads nothing.
    const again = await markReachable(reader, [second], marked, { batchSize: 3 });

    const read = reader.batches.flat();
    expect(new Set(read).size).toBe(read.length);
    expect(reader.batches.every((batch) => batch.length <= 3)).toBe(true);
    expect(read).not.toContain(doc);
    expect(marked.has(doc)).toBe(true);
    expect(stats.read).toBe(read.length);
    expect(again).toEqual({ read: 0, batches: 0, missing: [] });
    // Two roots, eleven pages (ten shared, one changed), one index leaf (no parent changed)
    // and one document.
    expect(marked.size).toBe(2 + 11 + 1 + 1);
  });

  it('reports referenced objects that are missing, and stops on an unknown tree format', async () => {
    const store = new MemoryObjectStore();
    const root = await store.put('tree', {
      ...emptyRootV2,
      pages: [{ id: 'x', hash: 'f'.repeat(64) }],
    });
    const stats = await markReachable(recordingReader(store), [root], new Set());
    expect(stats.missing).toEqual(['f'.repeat(64)]);

    const future = await store.put('tree', { version: 3, pages: [] });
    await expect(markReachable(recordingReader(store), [future], new Set())).rejects.toThrow(
      /tree format version 3/,
    );
  });
});
