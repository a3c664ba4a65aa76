import stringify from 'json-stable-stringify';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../../platform/ids/ids';

/**
 * Where content-addressed objects live: written once under the SHA-256 of their canonical
 * JSON, never changed. `get` answers undefined for an unknown hash.
 */
export interface ObjectStore {
  get(hash: string): Promise<object | undefined>;
  put(kind: string, data: object): Promise<string>;
}

/** Canonical JSON: keys sorted at every level, so key order never changes a hash. */
export function canonicalJson(data: object): string {
  return stringify(data) as string;
}

export function hashObject(data: object): string {
  return sha256Hex(canonicalJson(data));
}

/** Reads an object that must exist (a hash taken from another object or a revision). */
export async function getRequired<T extends object>(store: ObjectStore, hash: string): Promise<T> {
  const data = await store.get(hash);
  if (data === undefined) {
    throw new Error(`Content object ${hash} is missing`);
  }
  return data as T;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
  }
  return value;
}

/** An in-memory store (tests, tools) that also records what each `put` newly stored. */
export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, { kind: string; json: string }>();
  /** Objects newly stored, in order; reset with `resetWrites()`. */
  writes: { hash: string; kind: string; bytes: number }[] = [];
  reads = 0;

  get(hash: string): Promise<object | undefined> {
    this.reads++;
    const object = this.objects.get(hash);
    return Promise.resolve(object ? (JSON.parse(object.json) as object) : undefined);
  }

  put(kind: string, data: object): Promise<string> {
    const json = canonicalJson(data);
    const hash = sha256Hex(json);
    if (!this.objects.has(hash)) {
      this.objects.set(hash, { kind, json });
      this.writes.push({ hash, kind, bytes: Buffer.byteLength(json) });
    }
    return Promise.resolve(hash);
  }

  get size(): number {
    return this.objects.size;
  }

  resetCounters(): void {
    this.writes = [];
    this.reads = 0;
  }
}

/**
 * A bounded LRU cache of objects by hash in front of another store. Objects are immutable, so
 * nothing is ever invalidated; what is cached is frozen so that no caller can alter it.
 */
export class CachedObjectStore implements ObjectStore {
  private readonly cache: LRUCache<string, object>;

  constructor(
    private readonly inner: ObjectStore,
    options: { maxEntries?: number } = {},
  ) {
    this.cache = new LRUCache<string, object>({ max: options.maxEntries ?? 10_000 });
  }

  async get(hash: string): Promise<object | undefined> {
    const cached = this.cache.get(hash);
    if (cached !== undefined) {
      return cached;
    }
    const data = await this.inner.get(hash);
    if (data !== undefined) {
      this.cache.set(hash, deepFreeze(data));
    }
    return data;
  }

  async put(kind: string, data: object): Promise<string> {
    const hash = await this.inner.put(kind, data);
    if (!this.cache.has(hash)) {
      this.cache.set(hash, deepFreeze(structuredClone(data)));
    }
    return hash;
  }

  get cachedEntries(): number {
    return this.cache.size;
  }
}
