import { setTimeout as sleep } from 'node:timers/promises';

/**
 * PostgreSQL gives up on a transaction that lost a race: a serialization failure (40001) or a
 * deadlock (40P01). Running the whole transaction again is the documented answer, so every
 * transaction gets a few more attempts, with a short jittered backoff, before the error reaches
 * the caller (as 503 with Retry-After, never a 500).
 */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export interface ConflictRetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Backoff before the second attempt; doubled for each further one, with full jitter. */
  baseDelayMs: number;
}

export const CONFLICT_RETRY: ConflictRetryOptions = { attempts: 4, baseDelayMs: 20 };

/** The SQLSTATE of a failed query (TypeORM wraps the driver's error), if any. */
export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const state = driverError?.code ?? code;
  return typeof state === 'string' ? state : undefined;
}

export function isRetryableConflict(error: unknown): boolean {
  return RETRYABLE_SQLSTATES.has(sqlStateOf(error) ?? '');
}

/** Runs `work` again while it fails with a retryable conflict, up to `options.attempts` times. */
export async function retryOnConflict<T>(
  work: () => Promise<T>,
  options: ConflictRetryOptions = CONFLICT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= options.attempts || !isRetryableConflict(error)) throw error;
      await sleep(Math.random() * options.baseDelayMs * 2 ** (attempt - 1));
    }
  }
}
