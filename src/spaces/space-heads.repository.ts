import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ContentHeads,
  type SpaceHead,
  type SpaceHeadLock,
  type SpaceHeads,
} from '../content-engine/writes/content-heads';

/**
 * The `spaces` table's head columns (`revision_id`, `edit_mode`, `deleted_at`) as the content
 * writer reads and moves them: registered with the engine's ContentHeads when the module starts.
 */
@Injectable()
export class SpaceHeadsRepository implements SpaceHeads, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contentHeads: ContentHeads,
  ) {}

  onModuleInit(): void {
    this.contentHeads.registerSpaces(this);
  }

  /** The space's head, its row locked as `lock` says; undefined when there is no such space. */
  async findHead(
    spaceId: string,
    lock: SpaceHeadLock,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpaceHead | undefined> {
    const rows: { revision_id: string; edit_mode: string; deleted_at: Date | null }[] =
      await manager.query(
        `SELECT revision_id, edit_mode, deleted_at FROM spaces WHERE id = $1 ${lock}`,
        [spaceId],
      );
    const row = rows[0];
    return (
      row && { revisionId: row.revision_id, editMode: row.edit_mode, deletedAt: row.deleted_at }
    );
  }

  /** Moves the primary revision from `expected` to `next`; false when it was not `expected`. */
  async compareAndSwap(
    spaceId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [moved]: { count: number }[] = await manager.query(
      `WITH moved AS (
         UPDATE spaces SET revision_id = $1, updated_at = $2
          WHERE id = $3 AND revision_id = $4 RETURNING id)
       SELECT count(*)::int AS count FROM moved`,
      [next, at, spaceId, expected],
    );
    return moved.count === 1;
  }
}
