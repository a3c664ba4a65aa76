import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { UserActor } from '../platform/auth/actor';
import { Authenticator } from '../platform/auth/authenticator';
import { Clock } from '../platform/clock/clock';
import { newId, newSecret, sha256Hex } from '../platform/ids/ids';
import { ApiToken } from './entities/api-token.entity';

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

  async authenticate(tokenHash: string): Promise<UserActor | null> {
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT t.user_id FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND NOT u.disabled`,
      [tokenHash],
    );
    return rows.length ? { kind: 'user', userId: rows[0].user_id, tokenHash } : null;
  }
}
