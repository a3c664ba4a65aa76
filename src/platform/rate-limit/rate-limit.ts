import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerModule, ThrottlerModuleOptions } from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { bearerTokenHash } from '../auth/bearer';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';

/**
 * Requests per minute per API token (per client address without one), with
 * X-RateLimit-Limit/Remaining/Reset headers and 429 + Retry-After. Counters live in the
 * process: behind a load balancer each process enforces the limit on its own share.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Request): Promise<string> {
    const tokenHash = bearerTokenHash(request);
    return tokenHash ? `token:${tokenHash}` : `ip:${request.ip ?? 'unknown'}`;
  }
}

export const RateLimitModule = ThrottlerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig): ThrottlerModuleOptions => ({
    throttlers: [{ name: 'default', ttl: 60_000, limit: config.RATE_LIMIT_PER_MINUTE }],
    storage: new FixedWindowThrottlerStorage(),
    skipIf: (context: ExecutionContext) =>
      config.RATE_LIMIT_PER_MINUTE === 0 ||
      !context.switchToHttp().getRequest<Request>().path.startsWith('/v1/'),
  }),
});
