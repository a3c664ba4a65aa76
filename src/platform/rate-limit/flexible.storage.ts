import { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** A limiter of `points` hits per `durationSeconds` window (RateLimiterPostgres, …Redis, …Memory). */
export type LimiterFactory = (points: number, durationSeconds: number) => RateLimiterAbstract;

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A key's window as this process knows it, between two round trips to the store. */
interface KnownWindow {
  /** The store's count at the last round trip: every process's hits until then. */
  shared: number;
  /** When the window ends (ms since the epoch), as the store said. */
  endsAt: number;
  /** When this process last had the store's count. */
  syncedAt: number;
  /** This process's hits since, not yet added to the store. */
  pending: number;
  /** Hits on their way to the store in the round trip under way (not in `shared` yet). */
  sending: number;
  /** The round trip under way, if any. */
  syncing?: Promise<void>;
  limiter: RateLimiterAbstract;
  key: string;
}

/**
 * The throttler's storage on rate-limiter-flexible: one limiter per throttler (name, ttl and
 * limit), made on first use by `create`. A limiter that refuses (a RateLimiterRes rejection:
 * over the limit, or blocked in this process's memory) makes the hit blocked until the window
 * ends. Store errors are the limiter's business (its insurance limiter); any other error
 * reaches the request.
 *
 * With `syncMs` 0 every hit is one round trip to the store, and the count is exact. Otherwise
 * a hit is counted in the store at once only when this process's view of its key is older
 * than `syncMs` (a window's first hit, a key that was quiet); hits that follow sooner are
 * counted here and added to the store together after `syncMs` (one upsert a key, whatever the
 * traffic). A hit is judged on the store's count at the last round trip plus this process's
 * hits since: the limit holds across processes up to what the others admitted within the last
 * `syncMs`, and exactly for a key whose hits are further apart than that.
 */
export class FlexibleThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly windows = new Map<string, KnownWindow>();
  private readonly unsynced = new Set<KnownWindow>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly create: LimiterFactory,
    private readonly release: () => Promise<void> = async () => undefined,
    private readonly syncMs = 0,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _block: number,
    name: string,
  ): Promise<ThrottlerRecord> {
    const limiter = this.limiterFor(name, ttl, limit);
    if (this.syncMs === 0) return this.consume(limiter, key, ttl, limit);

    const id = `${name}:${key}`;
    const now = Date.now();
    const known = this.windows.get(id);
    if (!known || known.endsAt <= now) {
      const record = await this.consume(limiter, key, ttl, limit);
      const current = this.windows.get(id);
      // Another hit of the same key may have started the window meanwhile: keep its hits.
      if (current && current.endsAt > now) {
        current.shared = Math.max(current.shared, record.totalHits);
      } else {
        const endsAt = now + record.timeToExpire * 1000;
        this.windows.set(id, {
          shared: record.totalHits,
          endsAt,
          syncedAt: now,
          pending: 0,
          sending: 0,
          limiter,
          key,
        });
      }
      return record;
    }

    known.pending += 1;
    if (now - known.syncedAt >= this.syncMs && !known.syncing) {
      // The store's count is older than syncMs (the key was quiet): this hit takes it along.
      await this.syncWindow(known);
    } else {
      this.unsynced.add(known);
      this.timer ??= setTimeout(() => void this.sync(), this.syncMs).unref();
    }
    const totalHits = known.shared + known.sending + known.pending;
    const secondsLeft = Math.max(1, Math.ceil((known.endsAt - now) / 1000));
    const isBlocked = totalHits > limit;
    return {
      totalHits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    // Hits counted here since the last round trip still count for the other processes.
    await this.sync();
    await this.release();
  }

  /** One round trip to the store for the hit: the exact count. */
  private async consume(
    limiter: RateLimiterAbstract,
    key: string,
    ttl: number,
    limit: number,
  ): Promise<ThrottlerRecord> {
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

  /**
   * Adds each key's hits counted here to the store (one upsert a key) and takes the store's
   * count back; forgets windows that ended. Runs after the last one, never beside it.
   */
  private sync(): Promise<void> {
    this.timer = undefined;
    this.syncing = this.syncing.then(async () => {
      const batch = [...this.unsynced];
      this.unsynced.clear();
      await Promise.all(batch.map((known) => this.syncWindow(known)));
      const now = Date.now();
      for (const [id, known] of this.windows) {
        if (known.endsAt <= now && known.pending === 0) this.windows.delete(id);
      }
    });
    return this.syncing;
  }

  /** One round trip for a key: its pending hits go to the store, the store's count comes back. */
  private async syncWindow(known: KnownWindow): Promise<void> {
    if (known.syncing) {
      // One round trip at a time per key; hits counted meanwhile go with the next one.
      await known.syncing;
      if (known.pending === 0 || known.syncing !== undefined) return;
    }
    const points = known.pending;
    known.pending = 0;
    known.sending = points;
    this.unsynced.delete(known);
    known.syncing = (async () => {
      try {
        // penalty() adds points without refusing; store errors go to the insurance limiter.
        const result = await known.limiter.penalty(known.key, points);
        // Hits counted here while the round trip ran stay pending, on top of this count.
        known.shared = result.consumedPoints;
        known.sending = 0;
        known.syncedAt = Date.now();
        if (result.msBeforeNext >= 0) known.endsAt = known.syncedAt + result.msBeforeNext;
      } catch {
        // Nothing stored: the hits stay counted here, and go with the next round trip.
        known.sending = 0;
        known.pending += points;
        this.unsynced.add(known);
      } finally {
        known.syncing = undefined;
      }
    })();
    return known.syncing;
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
