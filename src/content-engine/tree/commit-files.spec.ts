import { commit, TreeChangeError } from './commit';
import type { FileNode, RootNode } from './format';
import { getRequired, MemoryObjectStore } from './object-store';
import { emptyRoot } from '../writes/content-writer';

const fileNode = (id: string, name = `${id}.png`): FileNode => ({
  id,
  name,
  contentType: 'image/png',
  size: 3,
  blob: 'ab'.repeat(32),
  dimensions: { width: 1, height: 2 },
});

describe('commit: files', () => {
  let store: MemoryObjectStore;
  let root: string;
  let fileA: string;
  let fileB: string;

  const filesOf = async (hash: string) => {
    const tree = await getRequired<RootNode>(store, hash);
    return Promise.all(tree.files.map(async (f) => (await getRequired<FileNode>(store, f)).id));
  };

  beforeEach(async () => {
    store = new MemoryObjectStore();
    root = await store.put('tree', emptyRoot());
    fileA = await store.put('file', fileNode('fa'));
    fileB = await store.put('file', fileNode('fb'));
  });

  it('adds stored file objects to the root, in order, leaving the old tree untouched', async () => {
    const next = await commit(store, root, [
      { operation: 'insert_file', file: fileA },
      { operation: 'insert_file', file: fileB },
    ]);
    expect(next).not.toBe(root);
    expect((await getRequired<RootNode>(store, next)).files).toEqual([fileA, fileB]);
    expect(await filesOf(root)).toEqual([]);
  });

  it('removes a file by id', async () => {
    const withFiles = await commit(store, root, [
      { operation: 'insert_file', file: fileA },
      { operation: 'insert_file', file: fileB },
    ]);
    const next = await commit(store, withFiles, [{ operation: 'delete_file', file: 'fa' }]);
    expect(await filesOf(next)).toEqual(['fb']);
    expect(await filesOf(withFiles)).toEqual(['fa', 'fb']);
  });

  it('adds and removes files next to page changes, in one batch', async () => {
    const next = await commit(store, root, [
      { operation: 'insert_page', id: 'p1', meta: { title: 'Page' } },
      { operation: 'insert_file', file: fileA },
      { operation: 'insert_file', file: fileB },
      { operation: 'delete_file', file: 'fa' },
    ]);
    const tree = await getRequired<RootNode>(store, next);
    expect(tree.pages.map((page) => page.id)).toEqual(['p1']);
    expect(await filesOf(next)).toEqual(['fb']);
  });

  it('rejects an unknown object, an object that is not a file and a duplicate id', async () => {
    const page = await store.put('document', { object: 'document', nodes: [] });
    await expect(
      commit(store, root, [{ operation: 'insert_file', file: 'f'.repeat(64) }]),
    ).rejects.toThrow(/Change 0 \(insert_file\): file object f+ not found/);
    await expect(commit(store, root, [{ operation: 'insert_file', file: page }])).rejects.toThrow(
      /is not a file/,
    );
    const sameId = await store.put('file', fileNode('fa', 'other.png'));
    await expect(
      commit(store, root, [
        { operation: 'insert_file', file: fileA },
        { operation: 'insert_file', file: sameId },
      ]),
    ).rejects.toThrow(/Change 1 \(insert_file\): file fa already exists/);
  });

  it('rejects deleting a file that is not there, and writes nothing', async () => {
    store.resetCounters();
    const attempt = commit(store, root, [
      { operation: 'insert_file', file: fileA },
      { operation: 'delete_file', file: 'nope' },
    ]);
    await expect(attempt).rejects.toBeInstanceOf(TreeChangeError);
    await expect(attempt).rejects.toThrow(/Change 1 \(delete_file\): file nope not found/);
    expect(store.writes).toEqual([]);
  });
});
