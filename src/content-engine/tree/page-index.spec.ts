import { MemoryObjectStore } from './object-store';
import { buildIndex, INDEX_LEAF_MAX, lookupParent, updateIndex } from './page-index';

describe('page index', () => {
  const entries = (n: number) =>
    Array.from({ length: n }, (_, i): [string, string | null] => [
      `page${i}`,
      i % 3 ? `page${i - 1}` : null,
    ]);

  it('maps page ids to parents through a trie of bounded leaves', async () => {
    const store = new MemoryObjectStore();
    const index = await buildIndex(store, entries(1000));
    expect(await lookupParent(store, index, 'page0')).toBeNull();
    expect(await lookupParent(store, index, 'page4')).toBe('page3');
    expect(await lookupParent(store, index, 'missing')).toBeUndefined();
    expect(store.writes.length).toBeGreaterThan(1000 / INDEX_LEAF_MAX);
  });

  it('has one shape for one set of entries, whatever the updates that led there', async () => {
    const store = new MemoryObjectStore();
    const direct = await buildIndex(store, entries(100));
    let built = await buildIndex(store, entries(300));
    built = await updateIndex(
      store,
      built,
      entries(300)
        .slice(100)
        .map(([id]) => [id, undefined]),
    );
    expect(built).toBe(direct);
    expect(
      await updateIndex(
        store,
        direct,
        entries(100).map(([id]) => [id, undefined]),
      ),
    ).toBeNull();
  });
});
