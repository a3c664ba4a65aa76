import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { UserActor } from '../platform/auth/actor';
import { Authenticator } from '../platform/auth/authenticator';
import { Clock } from '../platform/clock/clock';
import { newId, newSecret, sha256Hex } from '../platform/ids/ids';
import { ApiToken } from './entities/api-token.entity';
import { UsersRepository } from './users.repository';

export const TOKEN_PREFIX = 'bnd_';

/** Issues API tokens and resolves them to users: one indexed lookup per request, no cache. */
@Injectable()
export class TokensService extends Authenticator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
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

  /** One prepared statement: it runs on every request. */
  async authenticate(tokenHash: string): Promise<UserActor | null> {
    const user = await this.users.findEnabledByTokenHash(tokenHash);
    if (!user) return null;
    return { kind: 'user', userId: user.id, user, tokenHash };
  }
}
