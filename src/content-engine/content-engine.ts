import { Injectable } from '@nestjs/common';
import stringify from 'json-stable-stringify';
import { EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { newId, sha256Hex } from '../platform/ids/ids';
import { ContentObjectsRepository, MAX_READ_BATCH } from './content-objects.repository';
import { CONTENT_GC_GRACE_MS } from './gc/content-garbage-collector';
import { Revision, RevisionType } from './entities/revision.entity';
import { commit, type PageChange } from './tree/commit';
import { emptyRoot } from './tree/format';
import type { ObjectStore } from './tree/object-store';

/** What a new space starts with: one empty page (GitBook's default) or nothing at all. */
export type InitialContent = 'page' | 'empty';

/** The title of the page a new space starts with. */
export const INITIAL_PAGE_TITLE = 'Untitled';

/**
 * The content engine: immutable revisions over content-addressed objects. This is the part
 * spaces need from the start (a first revision, and a revision sharing another's content);
 * reads, commits of changes and merges build on the same objects.
 */
@Injectable()
export class ContentEngine {
  constructor(
    private readonly clock: Clock,
    private readonly objects: ContentObjectsRepository,
  ) {}

  /**
   * Stores `data` once under the SHA-256 of its canonical JSON and returns that hash. Storing
   * an object that exists but is older than half the garbage collector's grace period renews
   * its `created_at`, so that an unreachable object being reused by a commit in flight cannot
   * be swept before that commit's revision points at it.
   */
  async put(manager: EntityManager, kind: string, data: object): Promise<string> {
    const json = stringify(data) as string;
    const hash = sha256Hex(json);
    const now = this.clock.now();
    await this.objects.store(
      hash,
      kind,
      json,
      now,
      new Date(now.getTime() - CONTENT_GC_GRACE_MS / 2),
      manager,
    );
    return hash;
  }

  /**
   * `content_objects` as an ObjectStore for the tree functions (src/content-engine/tree), within
   * `manager`'s transaction. Wrap it in a CachedObjectStore to cache reads by hash.
   */
  /**
   * `content_objects` through `manager`. A transaction's manager is one connection, which runs
   * one query at a time: on it the store sends its queries in turn, so that callers may read
   * with `Promise.all` (node-postgres deprecates queueing queries on a busy client).
   */
  objectStore(manager: EntityManager): ObjectStore {
    if (!manager.queryRunner) {
      return {
        get: (hash) => this.objects.findData(hash, manager),
        put: (kind, data) => this.put(manager, kind, data),
      };
    }
    const inTurn = oneAtATime();
    // Reads that wait for the connection go together, in one query when their turn comes: a
    // tree read level by level with `Promise.all` costs a query per level, not one per page
    // (a transaction that reads thousands of pages holds the embedded database that much less).
    // A write closes the batch: a read after it is answered after it.
    type Waiter = { resolve: (data: object | undefined) => void; reject: (error: unknown) => void };
    let open: Map<string, Waiter[]> | null = null;
    const read = async (batch: Map<string, Waiter[]>) => {
      if (open === batch) open = null;
      const hashes = [...batch.keys()];
      const rows = [];
      for (let start = 0; start < hashes.length; start += MAX_READ_BATCH) {
        rows.push(
          ...(await this.objects.findMany(hashes.slice(start, start + MAX_READ_BATCH), manager)),
        );
      }
      const found = new Map(rows.map((row) => [row.hash, row.data]));
      for (const [hash, waiters] of batch) {
        const data = found.get(hash);
        waiters.forEach(({ resolve }, i) =>
          // Each reader gets its own copy: callers may hold on to what they read.
          resolve(i === 0 || data === undefined ? data : structuredClone(data)),
        );
      }
    };
    return {
      get: (hash) =>
        new Promise<object | undefined>((resolve, reject) => {
          if (!open) {
            const batch = new Map<string, Waiter[]>();
            open = batch;
            inTurn(() => read(batch)).catch((error: unknown) => {
              for (const waiters of batch.values()) waiters.forEach((w) => w.reject(error));
            });
          }
          const waiters = open.get(hash);
          if (waiters) waiters.push({ resolve, reject });
          else open.set(hash, [{ resolve, reject }]);
        }),
      put: (kind, data) => {
        open = null;
        return inTurn(() => this.put(manager, kind, data));
      },
    };
  }

  /**
   * The first revision of a new space (`id` given when the space row already names it), in
   * tree format 2: an empty root, then GitBook's initial page ("Untitled", no document) added
   * through the tree's `commit`, as any later edit would be.
   */
  async createInitialRevision(
    manager: EntityManager,
    input: { id?: string; spaceId: string; authorId: string | null; content: InitialContent },
  ): Promise<Revision> {
    const store = this.objectStore(manager);
    let tree = await store.put('tree', emptyRoot());
    if (input.content === 'page') {
      tree = await commit(store, tree, [
        { operation: 'insert_page', id: newId(), meta: { title: INITIAL_PAGE_TITLE } },
      ]);
    }
    return this.insertRevision(manager, {
      id: input.id ?? newId(),
      spaceId: input.spaceId,
      parents: [],
      type: 'edits',
      tree,
      authorId: input.authorId,
    });
  }

  /**
   * A new revision of `spaceId` on top of `parent` with `changes` applied to its tree (no
   * change of the space's pointer: the caller moves it, or a change request's head, itself).
   */
  async commitRevision(
    manager: EntityManager,
    input: {
      spaceId: string;
      parent: Revision;
      changes: readonly PageChange[];
      authorId: string | null;
    },
  ): Promise<Revision> {
    const tree = await commit(this.objectStore(manager), input.parent.tree, input.changes);
    return this.insertRevision(manager, {
      id: newId(),
      spaceId: input.spaceId,
      parents: [input.parent.id],
      type: 'edits',
      tree,
      authorId: input.authorId,
    });
  }

  /** A new revision of `spaceId` on top of `parent` whose tree is `tree` (already stored). */
  revisionWithTree(
    manager: EntityManager,
    input: { spaceId: string; parent: string; tree: string; authorId: string | null },
  ): Promise<Revision> {
    return this.insertRevision(manager, {
      id: newId(),
      spaceId: input.spaceId,
      parents: [input.parent],
      type: 'edits',
      tree: input.tree,
      authorId: input.authorId,
    });
  }

  /**
   * A first revision for `spaceId` with exactly the content of `source` (another space's): it
   * points at the same tree, so nothing is copied.
   */
  forkRevision(
    manager: EntityManager,
    input: { id?: string; spaceId: string; authorId: string | null; source: Revision },
  ): Promise<Revision> {
    return this.insertRevision(manager, {
      id: input.id ?? newId(),
      spaceId: input.spaceId,
      parents: [],
      type: 'edits',
      tree: input.source.tree,
      authorId: input.authorId,
    });
  }

  private async insertRevision(
    manager: EntityManager,
    input: Pick<Revision, 'id' | 'spaceId' | 'parents' | 'type' | 'tree' | 'authorId'> & {
      type: RevisionType;
    },
  ): Promise<Revision> {
    const revision = manager.create(Revision, {
      ...input,
      git: null,
      createdAt: this.clock.now(),
    });
    await manager.insert(Revision, revision);
    return revision;
  }
}

/** Runs the tasks given to it one after the other, in the order given, whatever each ends in. */
function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = last.then(task, task);
    last = run.catch(() => undefined);
    return run;
  };
}
