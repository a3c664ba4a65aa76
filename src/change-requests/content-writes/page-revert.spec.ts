import type { DocumentBlock, JSONDocument } from '../../content-engine/documents/document';
import { commit, type PageChange } from '../../content-engine/tree/commit';
import { MemoryObjectStore } from '../../content-engine/tree/object-store';
import { flatten } from '../../content-engine/tree/read';
import { emptyRoot } from '../../content-engine/writes/content-writer';
import { revertBlocks, revertPage, RevertError } from './page-revert';

const block = (key: string, text = key): DocumentBlock => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

describe('revertBlocks', () => {
  const target = doc(block('a'), block('b'), block('c'), block('d'));

  it('replaces changed blocks, removes added ones and puts removed ones back in place', () => {
    const current = doc(block('a', 'A!'), block('c'), block('x'), block('d', 'D!'));
    expect(revertBlocks(current, target, ['a', 'x', 'b']).nodes).toEqual([
      block('a'),
      block('b'),
      block('c'),
      block('d', 'D!'),
    ]);
  });

  it('puts a block back at the start when nothing before it is left', () => {
    expect(revertBlocks(doc(block('c')), target, ['b', 'a']).nodes).toEqual([
      block('a'),
      block('b'),
      block('c'),
    ]);
  });

  it('refuses a key that is in neither version, and keeps the current document intact', () => {
    const current = doc(block('a'));
    expect(() => revertBlocks(current, target, ['zz'])).toThrow(RevertError);
    expect(current.nodes).toEqual([block('a')]);
  });
});

describe('revertPage', () => {
  async function setup() {
    const store = new MemoryObjectStore();
    const body = await store.put('document', doc(block('a'), block('b')));
    const target = await commit(store, await store.put('tree', emptyRoot()), [
      { operation: 'insert_page', id: 'pA', meta: { title: 'A', emoji: '1f600' }, document: body },
      { operation: 'insert_page', id: 'pB', meta: { title: 'B' } },
      { operation: 'insert_page', id: 'pB1', meta: { title: 'B1' }, into: 'pB' },
      { operation: 'insert_page', id: 'pB2', meta: { title: 'B2' }, into: 'pB' },
    ]);
    const apply = async (tree: string, pageId: string, blocks?: string[]) =>
      commit(
        store,
        tree,
        await revertPage({
          store,
          current: tree,
          target,
          revisionId: 'rev',
          pageId,
          blocks,
          putDocument: (document) => store.put('document', document),
        }),
      );
    const shape = async (tree: string) =>
      [...(await flatten(store, tree)).values()].map((page) => [
        page.id,
        page.parentId,
        page.index,
        page.meta.title,
        page.meta.slug,
      ]);
    return { store, target, apply, shape };
  }

  it('resets a modified page: metadata, body and place, keeping a slug taken since', async () => {
    const { store, target, apply, shape } = await setup();
    const edited = await commit(store, target, [
      { operation: 'update_page', page: 'pA', meta: { title: 'Renamed', emoji: null } },
      { operation: 'set_document', page: 'pA', document: null },
      { operation: 'move_page', page: 'pA', into: 'pB', at: 1 },
      { operation: 'insert_page', id: 'pX', meta: { title: 'X', slug: 'a' } },
    ]);
    const reverted = await apply(edited, 'pA');
    expect(await shape(reverted)).toEqual([
      ['pA', null, 0, 'A', 'renamed'],
      ['pB', null, 1, 'B', 'b'],
      ['pB1', 'pB', 0, 'B1', 'b1'],
      ['pB2', 'pB', 1, 'B2', 'b2'],
      ['pX', null, 2, 'X', 'a'],
    ]);
    const page = (await flatten(store, reverted)).get('pA')!;
    expect(page.meta.emoji).toBe('1f600');
    expect(page.documentHash).toBe((await flatten(store, target)).get('pA')!.documentHash);
  });

  it('restores a deleted page with its subpages, and deletes an added one', async () => {
    const { store, target, apply, shape } = await setup();
    const edited = await commit(store, target, [
      { operation: 'move_page', page: 'pB2', into: null },
      { operation: 'delete_page', page: 'pB' },
      { operation: 'insert_page', id: 'pNew', meta: { title: 'New' }, into: 'pA' },
    ]);
    const restored = await apply(await apply(edited, 'pB'), 'pNew');
    expect(await shape(restored)).toEqual([
      ['pA', null, 0, 'A', 'a'],
      ['pB', null, 1, 'B', 'b'],
      ['pB1', 'pB', 0, 'B1', 'b1'],
      ['pB2', null, 2, 'B2', 'b2'],
    ]);
  });

  it('reverts blocks of a page body; refuses pages that are not there', async () => {
    const { store, target, apply } = await setup();
    const edited = await commit(store, target, [
      {
        operation: 'set_document',
        page: 'pA',
        document: await store.put('document', doc(block('b', 'B!'))),
      },
    ]);
    const reverted = await apply(edited, 'pA', ['a']);
    const hash = (await flatten(store, reverted)).get('pA')!.documentHash!;
    expect(((await store.get(hash)) as JSONDocument).nodes).toEqual([block('a'), block('b', 'B!')]);
    await expect(apply(edited, 'pNope')).rejects.toThrow(
      'neither in the change request nor in revision rev',
    );
    await expect(apply(edited, 'pNope', ['a'])).rejects.toThrow('page pNope not found');
    const added = await commit(store, target, [
      { operation: 'insert_page', id: 'pNew', meta: { title: 'New' } } as PageChange,
    ]);
    await expect(apply(added, 'pNew', ['a'])).rejects.toThrow('page pNew is not in revision rev');
  });
});
