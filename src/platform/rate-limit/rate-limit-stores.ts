import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  type IRateLimiterOptions,
} from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { FixedWindowThrottlerStorage } from './fixed-window.storage';
import { FlexibleThrottlerStorage, LimiterFactory } from './flexible.storage';
import { rateLimitsClient } from './rate-limits.repository';

/** Table of the counters with RATE_LIMIT_STORE=database (see its migration). */
export const RATE_LIMIT_TABLE = 'rate_limits';
/** Start of every counter's key, so that a Redis server can be shared. */
export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'bindery:rl';
/** Once a store failed, how long before the next warning about it. */
const WARNING_INTERVAL_MS = 60_000;

/**
 * Counts in this process's memory while the shared store does not answer, and says so in the
 * log (once a minute at most): the limit then holds per process, and requests go on.
 */
class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly warn: () => void,
  ) {
    super(options);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
    this.warn();
    return super.consume(key, points, options);
  }
}

/** Calls `log` at most once per WARNING_INTERVAL_MS. */
function rateLimited(log: (message: string) => void): (message: string) => void {
  let last = -Infinity;
  return (message) => {
    const now = Date.now();
    if (now - last < WARNING_INTERVAL_MS) return;
    last = now;
    log(message);
  };
}

/**
 * The options every shared limiter gets: a key blocked once over its limit is refused from
 * this process's memory until its window ends (no store round trip for a client that keeps
 * hammering), and a store error falls back to counting in the process.
 */
function sharedOptions(
  points: number,
  duration: number,
  keyPrefix: string,
  warn: () => void,
): IRateLimiterOptions & { inMemoryBlockOnConsumed: number } {
  return {
    points,
    duration,
    keyPrefix,
    inMemoryBlockOnConsumed: points + 1,
    insuranceLimiter: new InsuranceLimiter({ points, duration, keyPrefix }, warn),
  };
}

/**
 * The throttler storage RATE_LIMIT_STORE names: counters in this process, in the database's
 * `rate_limits` table, or on REDIS_URL. `keyPrefix` starts every key (tests use their own).
 */
export async function rateLimitStorage(
  config: AppConfig,
  dataSource: DataSource,
  keyPrefix = DEFAULT_RATE_LIMIT_KEY_PREFIX,
): Promise<ThrottlerStorage> {
  const logger = new Logger('RateLimit');
  const store = config.rateLimitStore;
  if (store === 'process' || config.RATE_LIMIT_PER_MINUTE === 0)
    return new FixedWindowThrottlerStorage();
  const warn = rateLimited((message) => logger.warn(message));
  const storeDown = () =>
    warn(
      `The rate limit store (${store}) does not answer: counting requests in this process ` +
        'until it does, so each process allows the whole limit',
    );

  if (store === 'database') {
    const client = rateLimitsClient(dataSource);
    const limiters: RateLimiterPostgres[] = [];
    const create: LimiterFactory = (points, duration) => {
      const limiter = new RateLimiterPostgres({
        ...sharedOptions(points, duration, keyPrefix, storeDown),
        storeClient: client,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        // The table comes from a migration; every 5 minutes each process deletes the rows
        // whose window ended over an hour ago.
        tableCreated: true,
        clearExpiredByTimeout: true,
      });
      limiters.push(limiter);
      return limiter;
    };
    return new FlexibleThrottlerStorage(
      create,
      async () => {
        // The library re-arms this (unref'd) timer after each sweep; stop it with the app.
        for (const limiter of limiters) {
          clearTimeout(
            (limiter as unknown as { _clearExpiredTimeoutId?: NodeJS.Timeout })
              ._clearExpiredTimeoutId,
          );
        }
      },
      config.RATE_LIMIT_SYNC_MS,
    );
  }

  // store === 'redis' (loadConfig requires REDIS_URL with it)
  const redis = new Redis(config.REDIS_URL!, {
    lazyConnect: true,
    // Fail at once while disconnected (the insurance limiter counts) rather than queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // At shutdown, how long a socket that never opened may keep the process up.
    disconnectTimeout: 500,
  });
  const warnError = rateLimited((message) => logger.warn(message));
  redis.on('error', (error: Error) =>
    warnError(`The rate limit store (redis) failed: ${error.message}`),
  );
  try {
    await redis.connect();
  } catch (error) {
    // Requests are still served (counted in the process); the client keeps reconnecting.
    warnError(`The rate limit store (redis) does not answer at start: ${String(error)}`);
  }
  const create: LimiterFactory = (points, duration) =>
    new RateLimiterRedis({
      ...sharedOptions(points, duration, keyPrefix, storeDown),
      storeClient: redis,
      rejectIfRedisNotReady: true,
    });
  return new FlexibleThrottlerStorage(
    create,
    async () => {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
    config.RATE_LIMIT_SYNC_MS,
  );
}
