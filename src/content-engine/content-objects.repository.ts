import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Objects one batched read asks for in one query at most: a tree level of thousands of pages
 * read at once would hold the embedded database (one session, on this thread) that long.
 */
export const MAX_READ_BATCH = 200;

/** A stored object's content, by its hash. */
export interface ContentObjectRow<T extends object = object> {
  hash: string;
  data: T;
}

/** What the sweep deleted of an object: its kind and, for a file, the blob it referenced. */
export interface SweptObjectRow {
  kind: string;
  blob: string | null;
}

/** The `content_objects` table: immutable objects stored once under their hash. */
@Injectable()
export class ContentObjectsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts an object (`json`, its canonical JSON, under `hash`); an existing one created
   * before `renewBefore` gets `createdAt` as its new `created_at`.
   */
  async store(
    hash: string,
    kind: string,
    json: string,
    createdAt: Date,
    renewBefore: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO content_objects (hash, kind, data, created_at) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (hash) DO UPDATE SET created_at = EXCLUDED.created_at
        WHERE content_objects.created_at < $5`,
      [hash, kind, json, createdAt, renewBefore],
    );
  }

  /** The content of the object `hash`, or undefined when there is none. */
  async findData(
    hash: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<object | undefined> {
    const rows: { data: object }[] = await manager.query(
      'SELECT data FROM content_objects WHERE hash = $1',
      [hash],
    );
    return rows[0]?.data;
  }

  /** The objects among `hashes` that exist (in no particular order), in one query. */
  findMany<T extends object = object>(
    hashes: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ContentObjectRow<T>[]> {
    return manager.query(
      'SELECT hash, data FROM content_objects WHERE hash = ANY($1::char(64)[])',
      [hashes],
    );
  }

  /** Up to `limit` hashes after `after`, in hash order (a keyset over the whole table). */
  async hashesAfter(
    after: string,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { hash: string }[] = await manager.query(
      'SELECT hash FROM content_objects WHERE hash > $1 ORDER BY hash LIMIT $2',
      [after, limit],
    );
    return rows.map((row) => row.hash);
  }

  /**
   * Deletes the objects among `hashes` created before `cutoff` that no revision has as its
   * root tree; answers what was deleted.
   */
  deleteUnrooted(
    hashes: readonly string[],
    cutoff: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SweptObjectRow[]> {
    // (A bare DELETE ... RETURNING answers [rows, count] through TypeORM; a CTE answers rows.)
    return manager.query(
      `WITH swept AS (
         DELETE FROM content_objects o
          WHERE o.hash = ANY($1::char(64)[]) AND o.created_at < $2
            AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.tree = o.hash)
          RETURNING o.kind, o.data->>'blob' AS blob
       )
       SELECT kind, blob FROM swept`,
      [hashes, cutoff],
    );
  }

  /** The blobs among `blobs` that some `file` object still references. */
  async referencedBlobs(
    blobs: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Set<string>> {
    const rows: { blob: string }[] = await manager.query(
      `SELECT DISTINCT data->>'blob' AS blob FROM content_objects
        WHERE kind = 'file' AND data->>'blob' = ANY($1::text[])`,
      [blobs],
    );
    return new Set(rows.map((row) => row.blob));
  }
}
