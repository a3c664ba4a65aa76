import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake translation service on 127.0.0.1 speaking the three protocols Bindery supports:
 * LibreTranslate (`POST /translate`), DeepL (`POST /v2/translate`) and OpenAI-compatible chat
 * completions (`POST /v1/chat/completions`). Its translation is deterministic: every word gets
 * the target language as a prefix (`Hello world` → `[fr]Hello [fr]world`). It records every
 * text it was asked to translate, and can be told to fail.
 */

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeTranslationServer {
  origin: string;
  requests: ReceivedRequest[];
  /** Every text received, in order, all protocols together. */
  texts: string[];
  /** The next `times` requests answer `status` (with an error body). */
  fail(status: number, times?: number): void;
  /** Every answer waits this long first (to keep a run running for a while). */
  delay(ms: number): void;
  /** Most requests ever served at the same time. */
  maxConcurrent(): number;
  /** Forgets the requests and texts received so far. */
  reset(): void;
  close(): Promise<void>;
}

/** What the fake translator makes of `text` in `language`. */
export function fakeTranslation(text: string, language: string): string {
  return text
    .split(/(\s+)/)
    .map((part) => (part.trim() === '' ? part : `[${language}]${part}`))
    .join('');
}

export async function startFakeTranslationServer(): Promise<FakeTranslationServer> {
  const requests: ReceivedRequest[] = [];
  const texts: string[] = [];
  let failures: { status: number; times: number } | null = null;
  let delayMs = 0;
  let active = 0;
  let peak = 0;

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      active++;
      peak = Math.max(peak, active);
      res.on('close', () => active--);
      setTimeout(() => respond(req, res, Buffer.concat(chunks)), delayMs);
    });
  });
  const respond = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    const path = req.url ?? '';
    requests.push({ path, headers: req.headers, body });
    if (failures && failures.times > 0) {
      failures.times--;
      answer(res, failures.status, { error: 'The fake translator fails on purpose.' });
      return;
    }
    if (req.method === 'POST' && path === '/translate') {
      const q = body.q as string[];
      texts.push(...q);
      answer(res, 200, {
        translatedText: q.map((text) => fakeTranslation(text, String(body.target))),
      });
      return;
    }
    if (req.method === 'POST' && path === '/v2/translate') {
      if (!String(req.headers.authorization ?? '').startsWith('DeepL-Auth-Key ')) {
        answer(res, 403, { message: 'Wrong authorization' });
        return;
      }
      const text = body.text as string[];
      texts.push(...text);
      const target = String(body.target_lang).toLowerCase();
      answer(res, 200, {
        translations: text.map((t) => ({
          detected_source_language: 'EN',
          text: fakeTranslation(t, target),
        })),
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const messages = body.messages as { role: string; content: string }[];
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      const target = /to [^\n]*?\(([a-z-]+)\)\./.exec(system)?.[1] ?? '??';
      const segments = JSON.parse(
        messages.find((m) => m.role === 'user')?.content ?? '{}',
      ) as Record<string, string>;
      texts.push(...Object.values(segments));
      const translated = Object.fromEntries(
        Object.entries(segments).map(([id, text]) => [id, fakeTranslation(text, target)]),
      );
      answer(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: JSON.stringify(translated) } },
        ],
      });
      return;
    }
    answer(res, 404, { error: `No route ${req.method} ${path}` });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    texts,
    fail: (status, times = 1) => {
      failures = { status, times };
    },
    delay: (ms) => {
      delayMs = ms;
    },
    maxConcurrent: () => peak,
    reset: () => {
      requests.length = 0;
      texts.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
