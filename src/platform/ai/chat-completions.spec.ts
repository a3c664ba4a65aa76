import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config/app-config';
import { ChatCompletions, ChatCompletionsError } from './chat-completions';
import { RetryableError, retryAfterMs, withRetries } from './retry';

const FAST = { attempts: 3, baseDelayMs: 1 };

describe('withRetries', () => {
  it('retries retryable errors and returns the first success', async () => {
    const attempts: number[] = [];
    const result = await withRetries(async (n) => {
      attempts.push(n);
      if (n < 3) throw new RetryableError('busy');
      return 'done';
    }, FAST);
    expect(result).toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('gives up after the last attempt with the last error', async () => {
    let calls = 0;
    const failing = withRetries(() => {
      calls++;
      return Promise.reject(new RetryableError(`busy ${calls}`));
    }, FAST);
    await expect(failing).rejects.toThrow('busy 3');
    expect(calls).toBe(3);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    const failing = withRetries(() => {
      calls++;
      return Promise.reject(new Error('bad request'));
    }, FAST);
    await expect(failing).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });

  it('reads Retry-After in seconds or as a date, capped at a minute', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('3600')).toBe(60_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('ChatCompletions', () => {
  let server: Server;
  let baseUrl: string;
  let answers: ((req: IncomingMessage, res: ServerResponse) => void)[];
  let requests: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        requests.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
        const answer = answers.shift() ?? reply('default');
        answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    answers = [];
    requests = [];
  });

  function reply(content: string) {
    return (_req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    };
  }
  function status(code: number, headers: Record<string, string> = {}) {
    return (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(code, headers);
      res.end('{"error":"no"}');
    };
  }
  function client(overrides: Record<string, unknown> = {}) {
    return new ChatCompletions(
      loadConfig({}, { AI_API_URL: baseUrl, AI_MODEL: 'tiny', AI_API_KEY: 'k-123', ...overrides }),
    );
  }

  it('posts the model, messages and key, and returns the reply', async () => {
    answers.push(reply('bonjour'));
    const text = await client().complete([{ role: 'user', content: 'hello' }], { json: true });
    expect(text).toBe('bonjour');
    expect(requests).toHaveLength(1);
    expect(requests[0].headers.authorization).toBe('Bearer k-123');
    expect(requests[0].body).toEqual({
      model: 'tiny',
      messages: [{ role: 'user', content: 'hello' }],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
  });

  it('retries rate limits and server errors, then succeeds', async () => {
    answers.push(status(429, { 'retry-after': '0' }), status(503), reply('ok'));
    const text = await client().complete([{ role: 'user', content: 'x' }], { retry: FAST });
    expect(text).toBe('ok');
    expect(requests).toHaveLength(3);
  });

  it('does not retry a client error', async () => {
    answers.push(status(400));
    const failing = client().complete([{ role: 'user', content: 'x' }], { retry: FAST });
    await expect(failing).rejects.toBeInstanceOf(ChatCompletionsError);
    expect(requests).toHaveLength(1);
  });

  it('refuses a reply without content', async () => {
    answers.push((_req, res) => res.end('{"choices":[]}'));
    const failing = client().complete([{ role: 'user', content: 'x' }], { retry: FAST });
    await expect(failing).rejects.toThrow('choices[0].message.content');
  });

  it('streams the reply, asking for its usage and reporting it when the endpoint sends it', async () => {
    answers.push((_req, res) => {
      res.setHeader('content-type', 'text/event-stream');
      res.write('data: {"choices":[{"delta":{"content":"bon"}}]}\n\n');
      res.write('data: {"choices":[{"delta":{"content":"jour"}}]}\n\n');
      res.write('data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2}}\n\n');
      res.end('data: [DONE]\n\n');
    });
    const usage: unknown[] = [];
    const pieces: string[] = [];
    const stream = client().stream([{ role: 'user', content: 'hello' }], {
      onUsage: (reported) => usage.push(reported),
    });
    for await (const piece of stream) pieces.push(piece);
    expect(pieces.join('')).toBe('bonjour');
    expect(requests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(usage).toEqual([{ promptTokens: 7, completionTokens: 2, totalTokens: 9 }]);
  });

  it('is not configured without a model, and says so', async () => {
    const unconfigured = client({ AI_MODEL: undefined });
    expect(unconfigured.configured).toBe(false);
    await expect(unconfigured.complete([{ role: 'user', content: 'x' }])).rejects.toThrow(
      'AI_API_URL and AI_MODEL',
    );
    expect(requests).toHaveLength(0);
  });
});
