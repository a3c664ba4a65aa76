import { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** A limiter of `points` hits per `durationSeconds` window (RateLimiterPostgres, …Redis, …Memory). */
export type LimiterFactory = (points: number, durationSeconds: number) => RateLimiterAbstract;

/**
 * The throttler's storage on rate-limiter-flexible: one limiter per throttler (name, ttl and
 * limit), made on first use by `create`. A hit consumes one point of the tracker's window; a
 * limiter that refuses (a RateLimiterRes rejection: over the limit, or blocked in this
 * process's memory) makes the hit blocked until the window ends. Store errors are the
 * limiter's business (its insurance limiter); any other error reaches the request.
 */
export class FlexibleThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly create: LimiterFactory,
    private readonly release: () => Promise<void> = async () => undefined,
  ) {}

  async increment(key: string, ttl: number, limit: number, _block: number, name: string) {
    const limiter = this.limiterFor(name, ttl, limit);
    let result: RateLimiterRes;
    let isBlocked = false;
    try {
      result = await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      result = error;
      isBlocked = true;
    }
    const windowMs = result.msBeforeNext >= 0 ? result.msBeforeNext : ttl;
    const secondsLeft = Math.max(1, Math.ceil(windowMs / 1000));
    return {
      // A key blocked in memory is refused without reading its count: it is over the limit.
      totalHits: isBlocked ? Math.max(result.consumedPoints, limit + 1) : result.consumedPoints,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.release();
  }

  private limiterFor(name: string, ttl: number, limit: number): RateLimiterAbstract {
    const id = `${name}:${ttl}:${limit}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.create(limit, Math.max(1, Math.ceil(ttl / 1000)));
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
