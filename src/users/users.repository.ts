import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityFromRow } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, type PageRequest } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { TokenScope } from '../platform/auth/actor';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';

/** The `users` and `api_tokens` tables: users and the hashes of their API tokens. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The enabled user of a token that has not expired at `now`, with the token's id and when it
   * was last used; undefined otherwise. One prepared statement: it runs on every request.
   */
  async findEnabledByTokenHash(
    tokenHash: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<
    | {
        user: User;
        tokenId: string;
        lastUsedAt: Date | null;
        expiresAt: Date | null;
        scope: TokenScope | null;
      }
    | undefined
  > {
    const rows = await preparedQuery(
      manager,
      'bindery_authenticate_v4',
      `SELECT u.*, t.id AS bindery_token_id, t.last_used_at AS bindery_token_last_used_at,
              t.expires_at AS bindery_token_expires_at, t.scope AS bindery_token_scope
         FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND NOT u.disabled AND (t.expires_at IS NULL OR t.expires_at > $2)`,
      [tokenHash, now],
    );
    if (rows.length === 0) return undefined;
    const row = rows[0] as Record<string, unknown>;
    return {
      user: entityFromRow(this.dataSource, User, row),
      tokenId: row.bindery_token_id as string,
      lastUsedAt: (row.bindery_token_last_used_at as Date | null) ?? null,
      expiresAt: (row.bindery_token_expires_at as Date | null) ?? null,
      scope: (row.bindery_token_scope as TokenScope | null) ?? null,
    };
  }

  /** Records that a token was used at `now`. */
  async touchToken(
    tokenId: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(ApiToken, { id: tokenId }, { lastUsedAt: now });
  }

  /** A page of the user's tokens, newest first. */
  tokens(
    userId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ApiToken>> {
    return paginate(
      manager
        .getRepository(ApiToken)
        .createQueryBuilder('t')
        .where('t.user_id = :userId', { userId }),
      request,
      {
        keys: [
          { sql: 't.created_at', of: (t) => t.createdAt },
          { sql: 't.id', of: (t) => t.id },
        ],
        direction: 'DESC',
      },
    );
  }

  /** Deletes the user's token `tokenId`; false when the user has no such token. */
  async deleteToken(
    userId: string,
    tokenId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.delete(ApiToken, { id: tokenId, userId });
    return (result.affected ?? 0) > 0;
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

  /** The user with this (lower-cased) address, or null. */
  findByEmail(
    email: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<User | null> {
    return manager.findOneBy(User, { email });
  }

  /** Whether any user exists. */
  hasAny(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    return manager.exists(User);
  }
}
