import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityFromRow } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, type PageRequest } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import { User } from './entities/user.entity';

/** The `users` and `api_tokens` tables: users and the hashes of their API tokens. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The enabled user holding the token whose hash is `tokenHash`, or undefined. Plain SQL as a
   * prepared statement: it runs on every request (see entityFromRow).
   */
  async findEnabledByTokenHash(
    tokenHash: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<User | undefined> {
    const rows = await preparedQuery(
      manager,
      'bindery_authenticate',
      `SELECT u.* FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND NOT u.disabled`,
      [tokenHash],
    );
    return rows.length === 0 ? undefined : entityFromRow(this.dataSource, User, rows[0]);
  }

  /** The user `userId` when it shares an organization with `callerId`, or null. */
  findSharingAnOrganization(
    callerId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<User | null> {
    // Reads organization_members, owned by orgs: orgs sits above users, so users cannot ask
    // it; one EXISTS in the user's query.
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.id = :userId', { userId })
      .andWhere(
        `EXISTS (SELECT 1 FROM organization_members theirs
                   JOIN organization_members mine ON mine.organization_id = theirs.organization_id
                  WHERE theirs.user_id = u.id AND mine.user_id = :callerId)`,
        { callerId },
      )
      .getOne();
  }

  /** The user, if a member of the organization (its `organization_members` row, orgs'). */
  findMemberOf(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<User | null> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.id = :userId', { userId })
      .andWhere(
        `EXISTS (SELECT 1 FROM organization_members m
                  WHERE m.user_id = u.id AND m.organization_id = :organizationId)`,
        { organizationId },
      )
      .getOne();
  }

  /** A page of every user, newest first. */
  page(
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<User>> {
    return paginate(manager.getRepository(User).createQueryBuilder('u'), request, {
      keys: [
        { sql: 'u.created_at', of: (u) => u.createdAt },
        { sql: 'u.id', of: (u) => u.id },
      ],
      direction: 'DESC',
    });
  }

  /** Whether any user exists. */
  hasAny(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return manager.exists(User);
  }
}
