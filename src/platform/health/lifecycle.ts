import { Injectable } from '@nestjs/common';

/** Where the process is in its life, as readiness reports it. */
export type LifecycleState = 'starting' | 'ready' | 'stopping';

/**
 * Whether this process should get traffic: `starting` until the application has started
 * (migrations run, modules initialized), `ready` then, `stopping` from the signal that shuts it
 * down, while the requests in flight drain. GET /health/ready answers 503 unless `ready`.
 */
@Injectable()
export class Lifecycle {
  private current: LifecycleState = 'starting';

  get state(): LifecycleState {
    return this.current;
  }

  get stopping(): boolean {
    return this.current === 'stopping';
  }

  /** Start is over; a process that has begun to stop stays stopping. */
  markReady(): void {
    if (this.current === 'starting') this.current = 'ready';
  }

  markStopping(): void {
    this.current = 'stopping';
  }
}
