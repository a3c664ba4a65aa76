import type { EntityManager } from 'typeorm';
import { ContentObjectsRepository, MAX_READ_BATCH } from '../content-objects.repository';
import type { ObjectStore } from '../tree/object-store';

interface Waiter {
  resolve: (data: object | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * `content_objects` for reads, outside any transaction (objects are immutable): the `get`s
 * issued in the same tick are answered by one query, so a tree read level by level with
 * `Promise.all` costs one query per level, not one per page.
 */
export class BatchedObjectStore implements ObjectStore {
  private pending = new Map<string, Waiter[]>();

  /**
   * Reads through `objects` on `manager`; without `objects` (callers that are not providers),
   * through a ContentObjectsRepository of `manager`'s data source.
   */
  constructor(
    private readonly manager: EntityManager,
    private readonly write: (kind: string, data: object) => Promise<string>,
    private readonly objects: ContentObjectsRepository,
  ) {}

  get(hash: string): Promise<object | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) {
        process.nextTick(() => void this.flush());
      }
      const waiters = this.pending.get(hash);
      if (waiters) {
        waiters.push({ resolve, reject });
      } else {
        this.pending.set(hash, [{ resolve, reject }]);
      }
    });
  }

  put(kind: string, data: object): Promise<string> {
    return this.write(kind, data);
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    const hashes = [...batch.keys()];
    try {
      // In queries of MAX_READ_BATCH objects at most, each answered as it arrives: the callers
      // of a large batch (a whole tree's pages) go on in parts, with turns of the event loop
      // between them, rather than all at once after the last query.
      for (let start = 0; start < hashes.length; start += MAX_READ_BATCH) {
        const chunk = hashes.slice(start, start + MAX_READ_BATCH);
        const rows = await this.objects.findMany(chunk, this.manager);
        const found = new Map(rows.map((row) => [row.hash, row.data]));
        for (const hash of chunk) {
          const data = found.get(hash);
          // Each waiter gets its own copy (callers may hold on to what they read): the first
          // the row's, the others a clone.
          batch.get(hash)!.forEach(({ resolve }, n) => {
            resolve(data === undefined || n === 0 ? data : structuredClone(data));
          });
          batch.delete(hash);
        }
      }
    } catch (error) {
      for (const waiters of batch.values()) {
        for (const { reject } of waiters) reject(error);
      }
    }
  }
}
