import type { UserActor } from '../platform/auth/actor';

interface Entry {
  actor: UserActor;
  /** Clock time (ms) from which the entry is used. */
  from: number;
  /** Clock time (ms) until which it is used: the cache's time, or the token's expiry if sooner. */
  until: number;
}

/**
 * The tokens a process has looked up lately, by hash, each kept for `ttlMs` (never past its
 * token's expiry): a request with one of them needs no lookup. What revokes a token or disables
 * a user forgets it here at once; other processes see the change when their entry ends. At most
 * `maxEntries` tokens are kept, the oldest dropped first. Unknown tokens are never kept, so
 * made-up tokens cannot fill it.
 */
export class RecentTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, now: number): UserActor | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    // A clock moved back before the entry was made counts as its end too.
    if (now >= entry.until || now < entry.from) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.actor;
  }

  remember(actor: UserActor, now: number, tokenExpiresAt: Date | null): void {
    if (this.ttlMs <= 0) return;
    const until = Math.min(now + this.ttlMs, tokenExpiresAt?.getTime() ?? Infinity);
    this.entries.delete(actor.tokenHash);
    this.entries.set(actor.tokenHash, { actor, from: now, until });
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  /** Forgets the token with this id. */
  forgetToken(tokenId: string): void {
    for (const [hash, entry] of this.entries) {
      if (entry.actor.tokenId === tokenId) this.entries.delete(hash);
    }
  }

  /** Forgets every token of the user. */
  forgetUser(userId: string): void {
    for (const [hash, entry] of this.entries) {
      if (entry.actor.userId === userId) this.entries.delete(hash);
    }
  }
}
