import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { TokenScope, UserActor } from '../platform/auth/actor';
import { Authenticator } from '../platform/auth/authenticator';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { newId, newSecret, sha256Hex } from '../platform/ids/ids';
import { ApiToken } from './entities/api-token.entity';
import { RecentTokens } from './recent-tokens';
import { UsersRepository } from './users.repository';

export const TOKEN_PREFIX = 'bnd_';

/**
 * Issues API tokens and resolves them to users: one indexed lookup, then the token is kept for
 * TOKEN_CACHE_MS (see RecentTokens), so a token's requests within that time need none.
 */
@Injectable()
export class TokensService extends Authenticator {
  private readonly recent: RecentTokens;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    super();
    this.recent = new RecentTokens(config.TOKEN_CACHE_MS);
  }

  /** Creates a token for the user and returns it; only its hash is stored. */
  async issue(
    userId: string,
    options: { label?: string | null; expiresAt?: Date | null; scope?: TokenScope | null } = {},
    manager?: EntityManager,
  ): Promise<{ token: string; record: ApiToken }> {
    const token = newSecret(TOKEN_PREFIX);
    const record = Object.assign(new ApiToken(), {
      id: newId(),
      userId,
      tokenHash: sha256Hex(token),
      label: options.label ?? null,
      createdAt: this.clock.now(),
      expiresAt: options.expiresAt ?? null,
      lastUsedAt: null,
      scope: options.scope ?? null,
    });
    await (manager ?? this.dataSource.manager).insert(ApiToken, record);
    return { token, record };
  }

  /**
   * The user of an unexpired token of an enabled user: one prepared statement when the token is
   * not kept, and at most once a minute per token an update of when it was last used.
   */
  async authenticate(tokenHash: string): Promise<UserActor | null> {
    const now = this.clock.now();
    const recent = this.recent.get(tokenHash, now.getTime());
    if (recent) return recent;
    const found = await this.users.findEnabledByTokenHash(tokenHash, now);
    if (!found) return null;
    const { user, tokenId, lastUsedAt, expiresAt, scope } = found;
    if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
      await this.users.touchToken(tokenId, now);
    }
    const actor: UserActor = { kind: 'user', userId: user.id, user, tokenId, tokenHash, scope };
    this.recent.remember(actor, now.getTime(), expiresAt);
    return actor;
  }

  /** The token stops now in this process (revoked), and within TOKEN_CACHE_MS in the others. */
  forgetToken(tokenId: string): void {
    this.recent.forgetToken(tokenId);
  }

  /** The user's tokens stop now in this process (user disabled), and soon in the others. */
  forgetUser(userId: string): void {
    this.recent.forgetUser(userId);
  }
}

/** `lastUsedAt` is recorded to the minute: one write per token and minute at most. */
const LAST_USED_PRECISION_MS = 60_000;
