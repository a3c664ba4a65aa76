import type { AppConfig } from '../config/app-config';
import {
  isRetryableStatus,
  RetryableError,
  retryAfterMs,
  type RetryOptions,
  withRetries,
} from './retry';

export interface AiEndpointRequest {
  path: string;
  payload: object;
  /** What the endpoint is called in messages: "AI", "Embeddings". */
  name: string;
  fail: (message: string) => Error;
  retry: RetryOptions;
}

/**
 * POSTs `payload` as JSON to `{AI_API_URL}/{path}` of the operator's OpenAI-compatible endpoint,
 * with AI_API_KEY and AI_TIMEOUT_MS; network failures, rate limits and server errors are retried
 * (`retry`), another error status is thrown as `fail(message)`. Answers the reply's text.
 */
export function postToAiEndpoint(config: AppConfig, request: AiEndpointRequest): Promise<string> {
  return withRetries(async () => {
    const response = await send(config, request, AbortSignal.timeout(config.AI_TIMEOUT_MS));
    const text = await response.text();
    if (!response.ok) failed(request, response.status, text, response.headers);
    return text;
  }, request.retry);
}

/**
 * As postToAiEndpoint, for a streamed reply: answers the response once its status is a 2xx,
 * its body unread (the caller reads it as it arrives). Only the request is retried, never a
 * reply that has begun. AI_TIMEOUT_MS bounds the whole reply; `signal` ends it earlier (the
 * client went away).
 */
export function openAiEndpointStream(
  config: AppConfig,
  request: AiEndpointRequest,
  signal?: AbortSignal,
): Promise<Response> {
  return withRetries(async () => {
    const timeout = AbortSignal.timeout(config.AI_TIMEOUT_MS);
    const response = await send(
      config,
      request,
      signal ? AbortSignal.any([timeout, signal]) : timeout,
    );
    if (!response.ok) {
      failed(request, response.status, await response.text(), response.headers);
    }
    return response;
  }, request.retry);
}

async function send(
  config: AppConfig,
  request: AiEndpointRequest,
  signal: AbortSignal,
): Promise<Response> {
  const url = `${config.AI_API_URL!.replace(/\/+$/, '')}/${request.path}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.AI_API_KEY) headers.authorization = `Bearer ${config.AI_API_KEY}`;
  try {
    return await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(request.payload),
      signal,
    });
  } catch (error) {
    throw new RetryableError(`${request.name} request failed: ${(error as Error).message}`);
  }
}

function failed(request: AiEndpointRequest, status: number, text: string, headers: Headers): never {
  const message = `${request.name} endpoint answered ${status}: ${text.slice(0, 300)}`;
  if (isRetryableStatus(status)) {
    throw new RetryableError(message, retryAfterMs(headers.get('retry-after')));
  }
  throw request.fail(message);
}
