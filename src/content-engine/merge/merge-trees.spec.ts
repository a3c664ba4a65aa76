import { commit, TreeChangeError, type PageChange } from '../tree/commit';
import { TREE_FORMAT_VERSION, type RootNode } from '../tree/format';
import { MemoryObjectStore } from '../tree/object-store';
import { flatten } from '../tree/read';
import type { PageSnapshot } from '../tree/snapshot';
import { canonical } from './document-merge';
import { mergeSnapshots } from './merge';
import { mergeTrees } from './merge-trees';
import type { DocumentBlock, JSONDocument } from './types';

const paragraph = (key: string, text: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  key,
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const documentOf = (...blocks: [string, string][]): JSONDocument => ({
  object: 'document',
  data: {},
  nodes: blocks.map(([key, text]) => paragraph(key, text)),
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function emptyTree(store: MemoryObjectStore): Promise<string> {
  const root: RootNode = {
    version: TREE_FORMAT_VERSION,
    pages: [],
    files: [],
    reusableContents: [],
    variables: {},
    index: null,
  };
  return store.put('tree', root);
}

/** `id<parent:index title doc` lines, in tree order; slugs left out (the commit de-duplicates them). */
function outline(snapshot: PageSnapshot): string[] {
  return [...snapshot.values()]
    .sort((a, b) => (a.parentId ?? '').localeCompare(b.parentId ?? '') || a.index - b.index)
    .map((page) => {
      const { slug: _slug, ...meta } = page.meta;
      return `${page.id}<${page.parentId ?? '-'}:${page.index} ${canonical(meta)} ${page.documentHash ?? '-'}`;
    });
}

describe('mergeTrees', () => {
  let store: MemoryObjectStore;

  beforeEach(() => {
    store = new MemoryObjectStore();
  });

  const insert = (
    id: string,
    extra: Partial<Extract<PageChange, { operation: 'insert_page' }>> = {},
  ) => ({ operation: 'insert_page', id, meta: { title: id }, ...extra }) as PageChange;

  async function tree(base: string, changes: PageChange[]): Promise<string> {
    return commit(store, base, changes);
  }

  it('takes the other side whole when one side did not change', async () => {
    const base = await tree(await emptyTree(store), [insert('a'), insert('b')]);
    const changed = await tree(base, [insert('c')]);
    await expect(mergeTrees({ store, base, ours: base, theirs: changed })).resolves.toEqual({
      result: 'merge',
      tree: changed,
    });
    await expect(mergeTrees({ store, base, ours: changed, theirs: base })).resolves.toEqual({
      result: 'merge',
      tree: changed,
    });
  });

  it('merges edits of different pages and reads only the pages on their paths', async () => {
    const pages: PageChange[] = [];
    for (let i = 0; i < 50; i++) {
      pages.push(insert(`p${i}`));
      for (let j = 0; j < 20; j++) pages.push(insert(`p${i}c${j}`, { into: `p${i}` }));
    }
    const base = await tree(await emptyTree(store), pages);
    const doc = await store.put('document', documentOf(['k', 'edited']));
    const ours = await tree(base, [{ operation: 'set_document', page: 'p3c4', document: doc }]);
    const theirs = await tree(base, [
      { operation: 'update_page', page: 'p40c1', meta: { title: 'Renamed' } },
    ]);
    store.resetCounters();
    const merged = await mergeTrees({ store, base, ours, theirs });
    expect(merged.result).toBe('merge');
    // Three roots, the changed top-level pages and the changed pages, each version's own node.
    expect(store.reads).toBeLessThan(40);
    const result = await flatten(store, (merged as { tree: string }).tree);
    expect(result.get('p3c4')!.documentHash).toBe(doc);
    expect(result.get('p40c1')!.meta.title).toBe('Renamed');
    expect(result.size).toBe(1050);
  });

  it('reports a conflict and writes nothing when both sides edit the same block', async () => {
    const original = await store.put('document', documentOf(['k', 'one']));
    const base = await tree(await emptyTree(store), [insert('a', { document: original })]);
    const [mine, yours] = await Promise.all([
      store.put('document', documentOf(['k', 'mine'])),
      store.put('document', documentOf(['k', 'yours'])),
    ]);
    const ours = await tree(base, [{ operation: 'set_document', page: 'a', document: mine }]);
    const theirs = await tree(base, [{ operation: 'set_document', page: 'a', document: yours }]);
    store.resetCounters();
    const merged = await mergeTrees({ store, base, ours, theirs });
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'a', kind: 'block-edit', blockKeys: ['k'] }],
    });
    expect(store.writes).toEqual([]);
  });

  it('adds the files the other side added and removes those it removed', async () => {
    const file = (id: string) =>
      store.put('file', { id, name: `${id}.txt`, contentType: 'text/plain', size: 1, blob: id });
    const [f1, f2, f3] = await Promise.all([file('f1'), file('f2'), file('f3')]);
    const base = await tree(await emptyTree(store), [
      insert('a'),
      { operation: 'insert_file', file: f1 },
      { operation: 'insert_file', file: f2 },
    ]);
    const ours = await tree(base, [insert('b')]);
    const theirs = await tree(base, [
      { operation: 'delete_file', file: 'f1' },
      { operation: 'insert_file', file: f3 },
    ]);
    const merged = await mergeTrees({ store, base, ours, theirs });
    const root = (await store.get((merged as { tree: string }).tree)) as RootNode;
    expect(root.files).toEqual([f2, f3]);
  });

  /**
   * The property that matters: on any edits, the result is what mergeSnapshots gives on the
   * whole trees (same conflicts, or the same pages in the same places with the same content).
   */
  it('agrees with the whole-tree merge on 300 random edit histories', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
      const texts = ['alpha', 'beta', 'gamma', 'delta'];
      const randomDocument = () =>
        store.put(
          'document',
          documentOf(
            ...(['k1', 'k2', 'k3'] as const).map((key) => [key, pick(texts)] as [string, string]),
          ),
        );

      let base = await emptyTree(store);
      const baseChanges: PageChange[] = [];
      for (let i = 0; i < 12; i++) {
        const into = i > 2 && next() < 0.6 ? `b${Math.floor(next() * i)}` : null;
        baseChanges.push(insert(`b${i}`, { into, document: await randomDocument() }));
      }
      base = await tree(base, baseChanges);

      const edit = async (from: string, side: string): Promise<string> => {
        let current = from;
        for (let n = 0; n < 1 + Math.floor(next() * 4); n++) {
          const ids = [...(await flatten(store, current)).keys()];
          if (ids.length === 0) break;
          const page = pick(ids);
          const roll = next();
          let change: PageChange;
          if (roll < 0.25) {
            change = { operation: 'set_document', page, document: await randomDocument() };
          } else if (roll < 0.4) {
            change = { operation: 'update_page', page, meta: { title: `${page} ${pick(texts)}` } };
          } else if (roll < 0.55) {
            change = { operation: 'delete_page', page };
          } else if (roll < 0.8) {
            const into = next() < 0.3 ? null : pick(ids);
            change = { operation: 'move_page', page, into, at: Math.floor(next() * 4) };
          } else {
            const into = next() < 0.3 ? null : pick(ids);
            change = insert(`${side}${n}`, { into, at: Math.floor(next() * 4) });
          }
          try {
            current = await tree(current, [change]);
          } catch (error) {
            if (!(error instanceof TreeChangeError)) throw error;
          }
        }
        return current;
      };
      const ours = await edit(base, 'o');
      const theirs = await edit(base, 't');

      const expected = await mergeSnapshots({
        base: await flatten(store, base),
        ours: await flatten(store, ours),
        theirs: await flatten(store, theirs),
        documents: async (hash) => (await store.get(hash)) as JSONDocument,
      });
      const actual = await mergeTrees({ store, base, ours, theirs });
      if (expected.result === 'conflicts') {
        expect({ seed, ...actual }).toEqual({ seed, ...expected });
        continue;
      }
      expect({ seed, result: actual.result }).toEqual({ seed, result: 'merge' });
      const merged = await flatten(store, (actual as { tree: string }).tree);
      expect({ seed, pages: outline(merged) }).toEqual({ seed, pages: outline(expected.pages) });
    }
  });
});
