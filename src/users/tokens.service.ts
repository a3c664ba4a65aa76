import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { UserActor } from '../platform/auth/actor';
import { Authenticator } from '../platform/auth/authenticator';
import { Clock } from '../platform/clock/clock';
import { entityFromRow } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import { newId, newSecret, sha256Hex } from '../platform/ids/ids';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';

export const TOKEN_PREFIX = 'bnd_';

/** Issues API tokens and resolves them to users: one indexed lookup per request, no cache. */
@Injectable()
export class TokensService extends Authenticator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** Creates a token for the user and returns it; only its hash is stored. */
  async issue(
    userId: string,
    label: string | null = null,
    manager?: EntityManager,
  ): Promise<string> {
    const token = newSecret(TOKEN_PREFIX);
    await (manager ?? this.dataSource.manager).insert(ApiToken, {
      id: newId(),
      userId,
      tokenHash: sha256Hex(token),
      label,
      createdAt: this.clock.now(),
    });
    return token;
  }

  /** Plain SQL: it runs on every request (see entityFromRow). */
  async authenticate(tokenHash: string): Promise<UserActor | null> {
    const rows = await preparedQuery(
      this.dataSource,
      'bindery_authenticate',
      `SELECT u.* FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND NOT u.disabled`,
      [tokenHash],
    );
    if (rows.length === 0) return null;
    const user = entityFromRow(this.dataSource, User, rows[0]);
    return { kind: 'user', userId: user.id, user, tokenHash };
  }
}
