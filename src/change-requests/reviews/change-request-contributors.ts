import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import {
  ChangeRequestContributor,
  type ContributionType,
} from './entities/change-request-contributor.entity';

/**
 * Counts one contribution of `userId` at `at` (from the Clock, millisecond precision, so listing
 * cursors round-trip), inside the caller's transaction. For writers outside this module (space
 * templates applied to a change request); inside it, use ChangeRequestContributors.record.
 */
export async function countContribution(
  manager: EntityManager,
  changeRequestId: string,
  userId: string,
  actionType: ContributionType,
  at: Date,
): Promise<void> {
  await manager.query(
    `INSERT INTO change_request_contributors
       (change_request_id, user_id, action_type, count, updated_at)
     VALUES ($1, $2, $3, 1, $4)
     ON CONFLICT (change_request_id, user_id, action_type)
     DO UPDATE SET count = change_request_contributors.count + 1, updated_at = EXCLUDED.updated_at`,
    [changeRequestId, userId, actionType, at],
  );
}

/**
 * Who contributed to a change request: one counter per user and kind of contribution. Writers
 * (content edits, comments, reviews with a comment) call `record` inside their own
 * transaction, so a contribution counts only when the write commits.
 */
@Injectable()
export class ChangeRequestContributors {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Counts one contribution of `userId` now; concurrent calls for the same row queue on it. */
  record(
    manager: EntityManager,
    changeRequestId: string,
    userId: string,
    actionType: ContributionType,
  ): Promise<void> {
    return countContribution(manager, changeRequestId, userId, actionType, this.clock.now());
  }

  /** Latest contribution first, one item per user and kind. */
  list(changeRequestId: string, request: PageQueryDto): Promise<Page<ChangeRequestContributor>> {
    const rows = this.dataSource
      .getRepository(ChangeRequestContributor)
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.user', 'u')
      .where('c.change_request_id = :changeRequestId', { changeRequestId });
    return paginate(rows, request, {
      keys: [
        { sql: 'c.updated_at', of: (c) => c.updatedAt },
        { sql: 'c.user_id', of: (c) => c.userId },
        { sql: 'c.action_type', of: (c) => c.actionType },
      ],
      direction: 'DESC',
    });
  }
}
