/** An error worth trying again (rate limit, server error, network failure). */
export class RetryableError extends Error {
  constructor(
    message: string,
    /** Server-suggested wait (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'RetryableError';
  }
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the second attempt; doubles each time, with jitter, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };

/**
 * Runs `attempt` until it succeeds, throws something other than a RetryableError, or runs out of
 * attempts (then the last error is thrown). Waits grow exponentially with full jitter.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions = DEFAULT_RETRY,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof RetryableError) || n >= options.attempts) throw error;
      const ceiling = Math.min(options.baseDelayMs * 2 ** (n - 1), options.maxDelayMs ?? Infinity);
      const wait = error.retryAfterMs ?? Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Retry-After in milliseconds (seconds or an HTTP date), when present and sensible. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 60_000) : undefined;
}

/** True for HTTP statuses a later identical request may succeed on. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}
