import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ContentHeads,
  type ChangeRequestHeads,
  type LockedChangeRequest,
} from '../content-engine/writes/content-heads';

/**
 * The `change_requests` table's head columns (`revision`, its merge base, `status`) as the
 * content writer locks and moves them: registered with the engine's ContentHeads when the
 * module starts.
 */
@Injectable()
export class ChangeRequestHeadsRepository implements ChangeRequestHeads, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contentHeads: ContentHeads,
  ) {}

  onModuleInit(): void {
    this.contentHeads.registerChangeRequests(this);
  }

  /** The change request of `spaceId`, its row locked FOR UPDATE; undefined when there is none. */
  async lockHead(
    spaceId: string,
    changeRequestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LockedChangeRequest | undefined> {
    const rows: {
      revision: string;
      revision_initial: string;
      revision_merged_ancestor: string | null;
      status: string;
    }[] = await manager.query(
      `SELECT revision, revision_initial, revision_merged_ancestor, status
         FROM change_requests WHERE id = $1 AND space_id = $2 FOR UPDATE`,
      [changeRequestId, spaceId],
    );
    const row = rows[0];
    return (
      row && {
        revision: row.revision,
        revisionInitial: row.revision_initial,
        revisionMergedAncestor: row.revision_merged_ancestor,
        status: row.status,
      }
    );
  }

  /** Moves the head from `expected` to `next` (no row changes when it was not `expected`). */
  async moveHead(
    changeRequestId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      'UPDATE change_requests SET revision = $1, updated_at = $2 WHERE id = $3 AND revision = $4',
      [next, at, changeRequestId, expected],
    );
  }
}
