import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, type PageRequest } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';

/**
 * What the instance administrator reads and writes of users beyond `UsersRepository`: live
 * (not deleted) users, and a deletion's removals, memberships included (`organization_members`
 * belongs to orgs, which sits above users: the rows are removed here in SQL, in the caller's
 * transaction, with the team memberships and grants their foreign keys cascade to).
 */
@Injectable()
export class AdminUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user unless deleted; `lock` holds its row until the transaction ends. */
  findLive(
    userId: string,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<User | null> {
    const query = manager
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.id = :userId AND u.deleted_at IS NULL', { userId });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** A page of the users not deleted, newest first. */
  page(
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<User>> {
    return paginate(
      manager.getRepository(User).createQueryBuilder('u').where('u.deleted_at IS NULL'),
      request,
      {
        keys: [
          { sql: 'u.created_at', of: (u) => u.createdAt },
          { sql: 'u.id', of: (u) => u.id },
        ],
        direction: 'DESC',
      },
    );
  }

  /** Whether a user other than `userId` has this (lower-cased) address. */
  emailTakenByAnother(
    email: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.email = :email AND u.id <> :userId', { email, userId })
      .getExists();
  }

  async update(
    userId: string,
    changes: Partial<Pick<User, 'displayName' | 'email' | 'disabled' | 'photoUrl' | 'updatedAt'>>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(User, { id: userId }, changes);
  }

  /**
   * The organizations of which the user is the only enabled admin, their rows locked as the
   * members service locks them (FOR NO KEY UPDATE), so that no concurrent demotion slips in.
   */
  async organizationsLeftWithoutAdmin(userId: string, manager: EntityManager): Promise<string[]> {
    const mine: { organization_id: string }[] = await manager.query(
      `SELECT o.id AS organization_id
         FROM organizations o
         JOIN organization_members m ON m.organization_id = o.id
        WHERE m.user_id = $1 AND m.role = 'admin' AND NOT m.disabled
        ORDER BY o.id
          FOR NO KEY UPDATE OF o`,
      [userId],
    );
    if (mine.length === 0) return [];
    const rows: { organization_id: string }[] = await manager.query(
      `SELECT m.organization_id
         FROM organization_members m
        WHERE m.organization_id = ANY($1::varchar[])
        GROUP BY m.organization_id
       HAVING count(*) FILTER (WHERE m.role = 'admin' AND NOT m.disabled AND m.user_id <> $2) = 0
        ORDER BY m.organization_id`,
      [mine.map((row) => row.organization_id), userId],
    );
    return rows.map((row) => row.organization_id);
  }

  /**
   * Deletes the user's API tokens and memberships (team memberships and the member's content
   * grants go with them, by cascade), and marks the user deleted: disabled, its address
   * replaced by `anonymizedEmail` (which frees the address), its photo dropped. Its name stays:
   * its revisions, change requests and comments still present it.
   */
  async markDeleted(
    userId: string,
    anonymizedEmail: string,
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await manager.delete(ApiToken, { userId });
    // Organizations removed the memberships already, with their events (UserDeletionHooks);
    // any left (a membership made meanwhile) goes without.
    await manager.query('DELETE FROM organization_members WHERE user_id = $1', [userId]);
    await manager.update(
      User,
      { id: userId },
      { email: anonymizedEmail, photoUrl: null, disabled: true, deletedAt: now, updatedAt: now },
    );
  }
}
