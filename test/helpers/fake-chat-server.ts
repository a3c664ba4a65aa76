import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat server on 127.0.0.1: `POST /chat/completions` answers what
 * `options.reply` writes for the request (by default, an answer naming the first source the
 * prompt gives, then follow-up questions), streamed as server-sent `data:` chunks of a few
 * characters each with `stream: true`, or as one JSON reply without it. `options.status` makes
 * it answer that status instead; `options.hangUp` closes the connection without an answer;
 * `options.breakAfter` breaks off a streamed reply after that many chunks. A streamed reply asked
 * with `stream_options.include_usage` ends with a chunk of its `usage`, as OpenAI's does:
 * `options.usage`, or by default 4 characters a token; `options.usage: false` sends none.
 * `options.toolCalls` scripts tool calls: when it answers calls for a streamed request, they are
 * streamed as `choices[0].delta.tool_calls` chunks (each call's arguments in pieces) with
 * `finish_reason: "tool_calls"` instead of text; `options.rejectTools` answers 400 to a request
 * offering `tools`, as an endpoint that takes none does.
 */
export interface FakeChatRequest {
  body: {
    model?: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: { role: string; content: string; tool_call_id?: string; tool_calls?: unknown[] }[];
    tools?: { type: string; function: { name: string; description: string } }[];
  };
}

/** A tool call the fake model makes: the tool's name and its arguments. */
export interface FakeToolCall {
  name: string;
  arguments: object;
}

export interface FakeChatOptions {
  reply?: (request: FakeChatRequest['body']) => string;
  status?: number;
  hangUp?: boolean;
  breakAfter?: number;
  /** Characters per streamed chunk. */
  chunkChars?: number;
  /** The tokens reported in the last chunk; false: none reported. */
  usage?: FakeChatUsage | false;
  /** The tool calls to answer a request with; none (undefined or []): the reply's text. */
  toolCalls?: (request: FakeChatRequest['body']) => FakeToolCall[] | undefined;
  /** Answer 400 to a request that offers tools. */
  rejectTools?: boolean;
}

export interface FakeChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The usage reported by default: 4 characters a token, of the prompt and of the reply. */
export function estimatedUsage(body: FakeChatRequest['body'], reply: string): FakeChatUsage {
  const prompt = body.messages.reduce((sum, message) => sum + message.content.length, 0);
  const usage = {
    prompt_tokens: Math.ceil(prompt / 4),
    completion_tokens: Math.ceil(reply.length / 4),
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

export interface FakeChatServer {
  url: string;
  requests: FakeChatRequest[];
  options: FakeChatOptions;
  reset(): void;
  close(): Promise<void>;
}

export const FOLLOW_UPS = ['How do I upgrade the engine?', 'Which versions are supported?'];

/** The default reply: an answer citing the first source's title, and two follow-ups. */
export function defaultReply(body: FakeChatRequest['body']): string {
  const prompt = body.messages.map((message) => message.content).join('\n');
  if (prompt.startsWith('You suggest questions')) {
    const titles = [...prompt.matchAll(/^- (.+)$/gm)].map((match) => match[1]);
    return titles.map((title) => `- How do I use ${title}?`).join('\n');
  }
  const first = /### Source 1: ([^\n(]+)/.exec(prompt)?.[1]?.trim();
  const answer = first
    ? `According to **${first}**, you install the engine with \`npm install\`.`
    : 'The documentation does not answer this question.';
  return `${answer}\n\nFollow-up questions:\n${FOLLOW_UPS.map((q) => `- ${q}`).join('\n')}\n`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function chunked(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

export async function startFakeChatServer(): Promise<FakeChatServer> {
  const requests: FakeChatRequest[] = [];
  const state: { options: FakeChatOptions } = { options: {} };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.parse(await readBody(request)) as FakeChatRequest['body'];
    if (request.url !== '/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    requests.push({ body });
    const { options } = state;
    if (options.hangUp) {
      request.socket.destroy();
      return;
    }
    if (options.status) {
      response.writeHead(options.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'the model is down' } }));
      return;
    }
    if (options.rejectTools && body.tools?.length) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'this model does not support tools' } }));
      return;
    }
    const calls = body.stream ? (options.toolCalls?.(body) ?? []) : [];
    if (calls.length > 0) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [index, call] of calls.entries()) {
        const args = chunked(JSON.stringify(call.arguments), 5);
        const first = { index, id: `call_${index}_${requests.length}`, type: 'function' };
        const head = { ...first, function: { name: call.name, arguments: '' } };
        response.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [head] } }] })}\n\n`,
        );
        for (const piece of args) {
          const delta = { tool_calls: [{ index, function: { arguments: piece } }] };
          response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`);
        }
      }
      response.write('data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n');
      response.end('data: [DONE]\n\n');
      return;
    }
    const text = (options.reply ?? defaultReply)(body);
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: text } }] }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const pieces = chunked(text, options.chunkChars ?? 6);
    for (const [i, piece] of pieces.entries()) {
      if (options.breakAfter !== undefined && i >= options.breakAfter) {
        request.socket.destroy();
        return;
      }
      const chunk = { choices: [{ index: 0, delta: { content: piece } }] };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    response.write('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n');
    if (body.stream_options?.include_usage && options.usage !== false) {
      const usage = options.usage ?? estimatedUsage(body, text);
      response.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
    }
    response.end('data: [DONE]\n\n');
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get options() {
      return state.options;
    },
    set options(options: FakeChatOptions) {
      state.options = options;
    },
    reset() {
      requests.length = 0;
      state.options = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
