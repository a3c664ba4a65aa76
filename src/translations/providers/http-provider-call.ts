import {
  DEFAULT_RETRY,
  isRetryableStatus,
  RetryableError,
  retryAfterMs,
  withRetries,
} from '../../platform/ai/retry';
import {
  parseJson,
  TRANSLATION_API_TIMEOUT_MS,
  TranslationProviderError,
} from './translation-provider';

/**
 * POSTs `body` as JSON to a translation API chosen by the operator (global fetch: the operator
 * may run it on a private address) and answers the parsed JSON reply. Rate limits, server errors
 * and network failures are retried with backoff; other refusals fail at once with what the
 * provider said.
 */
export function postJson(
  provider: string,
  url: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<unknown> {
  return requestJson(provider, 'POST', url, body, headers);
}

/** As postJson, for any method; `body` null sends none; an empty reply answers null. */
export function requestJson(
  provider: string,
  method: 'POST' | 'GET' | 'DELETE',
  url: string,
  body: object | null,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const payload = body === null ? undefined : JSON.stringify(body);
  return withRetries(async () => {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
        body: payload,
        signal: AbortSignal.timeout(TRANSLATION_API_TIMEOUT_MS),
      });
    } catch (error) {
      throw new RetryableError(`${provider} request failed: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) {
      const message = `${provider} answered ${response.status}: ${text.slice(0, 300)}`;
      if (isRetryableStatus(response.status)) {
        throw new RetryableError(message, retryAfterMs(response.headers.get('retry-after')));
      }
      throw new TranslationProviderError(message);
    }
    return text.trim() === '' ? null : parseJson(provider, text);
  }, DEFAULT_RETRY);
}
