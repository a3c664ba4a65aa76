import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerModule, ThrottlerModuleOptions } from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { DataSource } from 'typeorm';
import { bearerTokenHash } from '../auth/bearer';
import { rateLimitStorage } from './rate-limit-stores';

/** Optional provider of the counters' key prefix (tests give each run its own). */
export const RATE_LIMIT_KEY_PREFIX = Symbol('RATE_LIMIT_KEY_PREFIX');

/**
 * Requests per minute per API token (per client address without one), with
 * X-RateLimit-Limit/Remaining/Reset headers and 429 + Retry-After. Counters live where
 * RATE_LIMIT_STORE says: in the process (each process enforces the limit on its own share),
 * or in the database or Redis, shared by every process.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Request): Promise<string> {
    const tokenHash = bearerTokenHash(request);
    return tokenHash ? `token:${tokenHash}` : `ip:${request.ip ?? 'unknown'}`;
  }

  /**
   * One counter per tracker for all operations (the throttler's own key is per controller
   * method: a token would get the limit on each operation).
   */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string) {
    return `${name}:${tracker}`;
  }
}

export const RateLimitModule = ThrottlerModule.forRootAsync({
  inject: [AppConfig, DataSource, { token: RATE_LIMIT_KEY_PREFIX, optional: true }],
  useFactory: async (
    config: AppConfig,
    dataSource: DataSource,
    keyPrefix?: string,
  ): Promise<ThrottlerModuleOptions> => ({
    throttlers: [{ name: 'default', ttl: 60_000, limit: config.RATE_LIMIT_PER_MINUTE }],
    storage: await rateLimitStorage(config, dataSource, keyPrefix),
    skipIf: (context: ExecutionContext) =>
      config.RATE_LIMIT_PER_MINUTE === 0 ||
      !context.switchToHttp().getRequest<Request>().path.startsWith('/v1/'),
  }),
});
