import { CachedObjectStore, hashObject, MemoryObjectStore } from './object-store';

describe('content-addressed objects', () => {
  it('hashes canonical JSON: same content, same hash, whatever the key order', () => {
    const a = { title: 'A', nested: { x: 1, y: [1, 2] }, id: 'p' };
    const b = { id: 'p', nested: { y: [1, 2], x: 1 }, title: 'A' };
    expect(hashObject(a)).toBe(hashObject(b));
    expect(hashObject(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashObject({ ...a, title: 'B' })).not.toBe(hashObject(a));
    expect(hashObject({ y: [2, 1] })).not.toBe(hashObject({ y: [1, 2] }));
  });

  it('stores an object once', async () => {
    const store = new MemoryObjectStore();
    const first = await store.put('page', { b: 1, a: 2 });
    const second = await store.put('page', { a: 2, b: 1 });
    expect(second).toBe(first);
    expect(store.writes).toHaveLength(1);
    expect(await store.get(first)).toEqual({ a: 2, b: 1 });
    expect(await store.get('0'.repeat(64))).toBeUndefined();
  });

  it('caches objects by hash in a bounded LRU, frozen', async () => {
    const inner = new MemoryObjectStore();
    const cached = new CachedObjectStore(inner, { maxEntries: 2 });
    const hashes = [
      await inner.put('x', { n: 1 }),
      await inner.put('x', { n: 2 }),
      await inner.put('x', { n: 3 }),
    ];
    inner.resetCounters();
    await cached.get(hashes[0]);
    const again = await cached.get(hashes[0]);
    expect(inner.reads).toBe(1);
    expect(Object.isFrozen(again)).toBe(true);
    await cached.get(hashes[1]);
    await cached.get(hashes[2]);
    expect(cached.cachedEntries).toBe(2);
    await cached.get(hashes[0]); // evicted as least recently used
    expect(inner.reads).toBe(4);
  });

  it('caches what it stores, unaffected by later changes to the caller’s object', async () => {
    const inner = new MemoryObjectStore();
    const cached = new CachedObjectStore(inner);
    const data = { list: [1] };
    const hash = await cached.put('x', data);
    data.list.push(2);
    inner.resetCounters();
    expect(await cached.get(hash)).toEqual({ list: [1] });
    expect(inner.reads).toBe(0);
  });
});
