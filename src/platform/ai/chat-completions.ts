import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { postToAiEndpoint } from './ai-endpoint';
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
