import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

interface Window {
  endsAt: number;
  hits: number;
}

/**
 * Fixed one-window-per-ttl counters: O(1) per request. The throttler's default storage keeps
 * one timestamp per hit and scans them on every request, which costs O(limit) per request
 * and dominated the request path at high limits. A fixed window can admit up to twice the
 * limit across a window boundary, which is acceptable for abuse protection.
 */
@Injectable()
export class FixedWindowThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number, _block: number, name: string) {
    const now = this.now();
    const id = `${name}:${key}`;
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + ttl, hits: 0 };
      this.windows.set(id, window);
    }
    window.hits += 1;
    const secondsLeft = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    const isBlocked = window.hits > limit;
    return {
      totalHits: window.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
  }
}
