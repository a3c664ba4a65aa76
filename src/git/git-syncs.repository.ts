import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { GitSyncState } from './entities/git-sync-state.entity';

/** The operation a space's `git_syncs` row names, and where it stands. */
export interface GitOperationRow {
  operationId: string;
  operationStatus: string;
}

/**
 * The `git_syncs` table (a space's Git setup and its latest operation) and `git_sync_states`
 * (what its last sync left).
 */
@Injectable()
export class GitSyncsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The operation the space's row names, the row locked for update; undefined without a row. */
  async lockOperation(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GitOperationRow | undefined> {
    const rows: { operation_id: string; operation_status: string }[] = await manager.query(
      'SELECT operation_id, operation_status FROM git_syncs WHERE space_id = $1 FOR UPDATE',
      [spaceId],
    );
    const row = rows[0];
    return row && { operationId: row.operation_id, operationStatus: row.operation_status };
  }

  /**
   * When an operation was last applied (null: never), the row locked for update; undefined
   * without a row.
   */
  async lockLastAppliedAt(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ lastAppliedAt: Date | null } | undefined> {
    const rows: { last_applied_at: Date | null }[] = await manager.query(
      'SELECT last_applied_at FROM git_syncs WHERE space_id = $1 FOR UPDATE',
      [spaceId],
    );
    const row = rows[0];
    return row && { lastAppliedAt: row.last_applied_at };
  }

  /** Moves `last_applied_at` forward to `appliedAt` (never back). */
  async advanceLastAppliedAt(
    spaceId: string,
    appliedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE git_syncs SET last_applied_at = GREATEST(COALESCE(last_applied_at, $2), $2)
        WHERE space_id = $1`,
      [spaceId, appliedAt],
    );
  }

  /** Clears the provider when it is `github-legacy`. */
  async clearLegacyProvider(
    spaceId: string,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE git_syncs SET provider = NULL, updated_at = $2
        WHERE space_id = $1 AND provider = 'github-legacy'`,
      [spaceId, updatedAt],
    );
  }

  /** Progress of the operation the row names: `done` files of `total`. */
  async recordProgress(
    spaceId: string,
    operationId: string,
    done: number,
    total: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE git_syncs SET operation_done = $3, operation_total = $4
        WHERE space_id = $1 AND operation_id = $2`,
      [spaceId, operationId, done, total],
    );
  }

  /** What the space's last sync with this repository and directory left; undefined: none. */
  async findState(
    spaceId: string,
    repositoryKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GitSyncState | undefined> {
    return (await manager.findOneBy(GitSyncState, { spaceId, repositoryKey })) ?? undefined;
  }

  /** The space's latest sync with any repository; undefined when it never synced. */
  async findLatestState(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GitSyncState | undefined> {
    return (
      (await manager.findOne(GitSyncState, {
        where: { spaceId },
        order: { syncedAt: 'DESC' },
      })) ?? undefined
    );
  }

  /** The syncs of every space with a repository (any directory), oldest first. */
  async findStatesByUrl(
    url: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GitSyncState[]> {
    return manager.find(GitSyncState, { where: { url }, order: { syncedAt: 'ASC' } });
  }

  /** Records a sync, replacing the previous one with that repository and directory. */
  async saveState(state: GitSyncState, manager: EntityManager = this.dataSource.manager) {
    await manager.upsert(GitSyncState, state, ['spaceId', 'repositoryKey']);
  }
}
