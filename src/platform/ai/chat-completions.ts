import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { openAiEndpointStream, postToAiEndpoint } from './ai-endpoint';
import { DEFAULT_RETRY, type RetryOptions } from './retry';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** Ask for a JSON object (`response_format: {type: "json_object"}`). */
  json?: boolean;
  temperature?: number;
  retry?: RetryOptions;
}

export interface ChatStreamOptions {
  temperature?: number;
  /** Retries of the request, before any of the reply has come. */
  retry?: RetryOptions;
  /** Ends the request (the client that waits for the reply went away). */
  signal?: AbortSignal;
  /**
   * Called with the tokens the endpoint reports for the reply (`stream_options.include_usage`:
   * OpenAI, vLLM, Ollama and llama.cpp send them in a last chunk); not called when it does not.
   */
  onUsage?: (usage: ChatUsage) => void;
}

/** Tokens a reply used, as the endpoint counts them. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Fewer, shorter retries than a background job's: someone is waiting for the first words. */
export const STREAM_RETRY: RetryOptions = { attempts: 2, baseDelayMs: 250, maxDelayMs: 1000 };

/** The AI endpoint answered in a way no retry will fix (4xx, malformed reply, not configured). */
export class ChatCompletionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatCompletionsError';
  }
}

/**
 * Client of any OpenAI-compatible chat-completions API (AI_API_URL, AI_API_KEY, AI_MODEL): OpenAI
 * itself or self-hosted servers such as vLLM, Ollama or llama.cpp. The endpoint is chosen by the
 * operator, not by API callers, so it may be on a private address. Rate limits, server errors and
 * network failures are retried with exponential backoff.
 */
@Injectable()
export class ChatCompletions {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.aiConfigured;
  }

  /** The model name, for records of what produced a result. */
  get model(): string | undefined {
    return this.config.AI_MODEL;
  }

  /** The assistant's reply to `messages`. */
  async complete(messages: ChatMessage[], options: ChatOptions = {}): Promise<string> {
    if (!this.configured) {
      throw new ChatCompletionsError('No AI endpoint is configured (set AI_API_URL and AI_MODEL).');
    }
    const text = await postToAiEndpoint(this.config, {
      path: 'chat/completions',
      payload: {
        model: this.config.AI_MODEL,
        messages,
        temperature: options.temperature ?? 0,
        ...(options.json ? { response_format: { type: 'json_object' } } : {}),
      },
      name: 'AI',
      fail: (message) => new ChatCompletionsError(message),
      retry: options.retry ?? DEFAULT_RETRY,
    });
    return replyContent(text);
  }

  /**
   * The assistant's reply to `messages`, streamed (`stream: true`): each piece of text as the
   * endpoint sends it (the `delta.content` of its server-sent `data:` chunks, up to
   * `data: [DONE]` or the end of the reply). Throws ChatCompletionsError, or the last
   * RetryableError once retries are spent, before or while the reply comes.
   */
  async *stream(messages: ChatMessage[], options: ChatStreamOptions = {}): AsyncGenerator<string> {
    if (!this.configured) {
      throw new ChatCompletionsError('No AI endpoint is configured (set AI_API_URL and AI_MODEL).');
    }
    const response = await openAiEndpointStream(
      this.config,
      {
        path: 'chat/completions',
        payload: {
          model: this.config.AI_MODEL,
          messages,
          temperature: options.temperature ?? 0,
          stream: true,
          stream_options: { include_usage: true },
        },
        name: 'AI',
        fail: (message) => new ChatCompletionsError(message),
        retry: options.retry ?? STREAM_RETRY,
      },
      options.signal,
    );
    if (!response.body) throw new ChatCompletionsError('AI endpoint answered no body');
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const bytes of response.body) {
        pending += decoder.decode(bytes as Uint8Array, { stream: true });
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop()!;
        for (const line of lines) {
          const piece = streamedContent(line, options.onUsage);
          if (piece === DONE) return;
          if (piece) yield piece;
        }
      }
    } catch (error) {
      if (error instanceof ChatCompletionsError) throw error;
      throw new ChatCompletionsError(`AI reply broke off: ${(error as Error).message}`);
    }
    const last = streamedContent(pending, options.onUsage);
    if (typeof last === 'string' && last !== '') yield last;
  }
}

const DONE = Symbol('done');

/**
 * The text a line of a streamed reply adds: DONE at `data: [DONE]`, '' for anything else; a
 * chunk's `usage` goes to `onUsage`.
 */
function streamedContent(line: string, onUsage?: (usage: ChatUsage) => void): string | typeof DONE {
  if (!line.startsWith('data:')) return '';
  const data = line.slice(5).trim();
  if (data === '[DONE]') return DONE;
  if (data === '') return '';
  let chunk: {
    choices?: { delta?: { content?: unknown } }[];
    error?: { message?: unknown };
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
  };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch {
    throw new ChatCompletionsError('AI endpoint streamed something other than JSON');
  }
  if (chunk.error) {
    const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'an error';
    throw new ChatCompletionsError(`AI endpoint streamed an error: ${message.slice(0, 300)}`);
  }
  if (chunk.usage && onUsage) {
    const count = (value: unknown) =>
      typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
    const promptTokens = count(chunk.usage.prompt_tokens);
    const completionTokens = count(chunk.usage.completion_tokens);
    const totalTokens = count(chunk.usage.total_tokens) || promptTokens + completionTokens;
    if (totalTokens > 0) onUsage({ promptTokens, completionTokens, totalTokens });
  }
  const content = chunk.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}

function replyContent(text: string): string {
  let parsed: { choices?: { message?: { content?: unknown } }[] };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new ChatCompletionsError('AI endpoint answered something other than JSON');
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new ChatCompletionsError('AI endpoint answered without choices[0].message.content');
  }
  return content;
}
