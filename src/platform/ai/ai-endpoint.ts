import type { AppConfig } from '../config/app-config';
import {
  isRetryableStatus,
  RetryableError,
  retryAfterMs,
  type RetryOptions,
  withRetries,
} from './retry';

/**
 * POSTs `payload` as JSON to `{AI_API_URL}/{path}` of the operator's OpenAI-compatible endpoint,
 * with AI_API_KEY and AI_TIMEOUT_MS; network failures, rate limits and server errors are retried
 * (`retry`), another error status is thrown as `fail(message)`. Answers the reply's text.
 */
export function postToAiEndpoint(
  config: AppConfig,
  request: {
    path: string;
    payload: object;
    /** What the endpoint is called in messages: "AI", "Embeddings". */
    name: string;
    fail: (message: string) => Error;
    retry: RetryOptions;
  },
): Promise<string> {
  const url = `${config.AI_API_URL!.replace(/\/+$/, '')}/${request.path}`;
  const body = JSON.stringify(request.payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.AI_API_KEY) headers.authorization = `Bearer ${config.AI_API_KEY}`;
  return withRetries(async () => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(config.AI_TIMEOUT_MS),
      });
    } catch (error) {
      throw new RetryableError(`${request.name} request failed: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      const message = `${request.name} endpoint answered ${response.status}: ${text.slice(0, 300)}`;
      if (isRetryableStatus(response.status)) {
        throw new RetryableError(message, retryAfterMs(response.headers.get('retry-after')));
      }
      throw request.fail(message);
    }
    return text;
  }, request.retry);
}
