import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import {
  ChangeRequestContributor,
  type ContributionType,
} from './entities/change-request-contributor.entity';

/** The `change_request_contributors` table: one counter per change request, user and kind. */
@Injectable()
export class ChangeRequestContributorsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds one to the user's counter of `actionType` (a new counter starts at 1), dated `at`. */
  async increment(
    changeRequestId: string,
    userId: string,
    actionType: ContributionType,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
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

  /** A page of the change request's counters with their users, latest first. */
  listForChangeRequest(
    changeRequestId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ChangeRequestContributor>> {
    // Joins users, owned by users: each item carries its user, read with it in one query.
    const rows = manager
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
