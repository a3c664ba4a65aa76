import { Injectable } from '@nestjs/common';
import { openAiEndpointStream } from '../../platform/ai/ai-endpoint';
import { STREAM_RETRY, type ChatUsage } from '../../platform/ai/chat-completions';
import { AppConfig } from '../../platform/config/app-config';

/** A message of a conversation with tools, as OpenAI's chat completions take it. */
export type ToolChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool the model is offered: OpenAI's `{type: "function", function}`. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: object;
}

/** A tool call the model made, its arguments as the JSON text it wrote. */
export interface ToolCallRequest {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** What a streamed reply gives: text as it comes, then the tool calls it made (at its end). */
export type ToolChatPiece = { text: string } | { toolCalls: ToolCallRequest[] };

/**
 * The endpoint refused the request itself (a 4xx: for a request with tools, most often a model
 * or server that does not take tools, e.g. Ollama's "does not support tools").
 */
export class ToolChatRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolChatRefused';
  }
}

/**
 * Streamed chat completions with tools (`tools`, `delta.tool_calls`) from the operator's
 * OpenAI-compatible endpoint (AI_API_URL, AI_MODEL, AI_API_KEY), for the site assistant.
 * ChatCompletions streams text only; this reads the tool calls too, assembled from their
 * pieces by `index` as OpenAI, vLLM, Ollama and llama.cpp stream them.
 */
@Injectable()
export class ToolChat {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.aiConfigured;
  }

  async *stream(
    messages: ToolChatMessage[],
    options: { tools: ToolSpec[]; signal: AbortSignal; onUsage: (usage: ChatUsage) => void },
  ): AsyncGenerator<ToolChatPiece> {
    const response = await openAiEndpointStream(
      this.config,
      {
        path: 'chat/completions',
        payload: {
          model: this.config.AI_MODEL,
          messages,
          temperature: 0,
          stream: true,
          stream_options: { include_usage: true },
          ...(options.tools.length > 0
            ? {
                tools: options.tools.map((tool) => ({ type: 'function', function: tool })),
                tool_choice: 'auto',
              }
            : {}),
        },
        name: 'AI',
        fail: (message) => new ToolChatRefused(message),
        retry: STREAM_RETRY,
      },
      options.signal,
    );
    if (!response.body) throw new Error('AI endpoint answered no body');
    const calls: { id: string; name: string; arguments: string }[] = [];
    const decoder = new TextDecoder();
    let pending = '';
    const read = (line: string): string | typeof DONE => {
      const chunk = chunkOf(line);
      if (chunk === DONE || chunk === undefined) return chunk === DONE ? DONE : '';
      reportUsage(chunk, options.onUsage);
      const delta = chunk.choices?.[0]?.delta;
      for (const call of delta?.tool_calls ?? []) {
        const index = typeof call.index === 'number' ? call.index : calls.length;
        const known = (calls[index] ??= { id: '', name: '', arguments: '' });
        if (typeof call.id === 'string' && call.id !== '') known.id = call.id;
        if (typeof call.function?.name === 'string') known.name += call.function.name;
        if (typeof call.function?.arguments === 'string') {
          known.arguments += call.function.arguments;
        }
      }
      return typeof delta?.content === 'string' ? delta.content : '';
    };
    try {
      reading: for await (const bytes of response.body) {
        pending += decoder.decode(bytes as Uint8Array, { stream: true });
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop()!;
        for (const line of lines) {
          const text = read(line);
          if (text === DONE) break reading;
          if (text !== '') yield { text };
        }
      }
      const last = read(pending);
      if (typeof last === 'string' && last !== '') yield { text: last };
    } catch (error) {
      throw new Error(`AI reply broke off: ${(error as Error).message}`);
    }
    const made = calls.filter((call) => call && call.name !== '');
    if (made.length > 0) {
      yield {
        toolCalls: made.map((call, i) => ({
          id: call.id || `call_${i}`,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

const DONE = Symbol('done');

interface Chunk {
  choices?: {
    delta?: {
      content?: unknown;
      tool_calls?: {
        index?: unknown;
        id?: unknown;
        function?: { name?: unknown; arguments?: unknown };
      }[];
    };
  }[];
  error?: { message?: unknown };
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

function chunkOf(line: string): Chunk | typeof DONE | undefined {
  if (!line.startsWith('data:')) return undefined;
  const data = line.slice(5).trim();
  if (data === '[DONE]') return DONE;
  if (data === '') return undefined;
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    throw new Error('AI endpoint streamed something other than JSON');
  }
  if (chunk.error) {
    const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'an error';
    throw new Error(`AI endpoint streamed an error: ${message.slice(0, 300)}`);
  }
  return chunk;
}

function reportUsage(chunk: Chunk, onUsage: (usage: ChatUsage) => void): void {
  if (!chunk.usage) return;
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  const promptTokens = count(chunk.usage.prompt_tokens);
  const completionTokens = count(chunk.usage.completion_tokens);
  const totalTokens = count(chunk.usage.total_tokens) || promptTokens + completionTokens;
  if (totalTokens > 0) onUsage({ promptTokens, completionTokens, totalTokens });
}
