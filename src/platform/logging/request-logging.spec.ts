import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { requestLogging } from './request-logging';

/** A request and response pair that ends when `end(status)` is called. */
function exchange(url: string, headers: Record<string, string> = {}) {
  const request = { method: 'GET', url, headers } as unknown as IncomingMessage;
  const sent: Record<string, unknown> = {};
  const response = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: false,
    setHeader: (name: string, value: unknown) => (sent[name] = value),
  });
  const end = (status: number, finished = true) => {
    response.statusCode = status;
    response.writableFinished = finished;
    response.emit('close');
  };
  return { request, response: response as unknown as ServerResponse, sent, end };
}

describe('requestLogging', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = (level: string) =>
    pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  beforeEach(() => (lines.length = 0));

  it('gives the request an id, sends it back and logs one line when the response ends', () => {
    const { request, response, sent, end } = exchange('/v1/orgs/o1?token=secret');
    const next = jest.fn();
    requestLogging(logger('info'))(request, response, next);
    expect(next).toHaveBeenCalled();
    expect(sent['X-Request-Id']).toBe(request.id);
    expect(lines).toHaveLength(0);
    end(404);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        requestId: request.id,
        req: { method: 'GET', url: '/v1/orgs/o1?token=[REDACTED]' },
        res: { status: 404 },
        msg: 'GET /v1/orgs/o1?token=[REDACTED] 404',
      }),
    ]);
    expect(typeof lines[0].durationMs).toBe('number');
  });

  it('keeps a sane incoming X-Request-Id, replaces another', () => {
    const kept = exchange('/', { 'x-request-id': 'abc-123' });
    requestLogging(logger('info'))(kept.request, kept.response, () => undefined);
    expect(kept.request.id).toBe('abc-123');
    const replaced = exchange('/', { 'x-request-id': 'bad id\n' });
    requestLogging(logger('info'))(replaced.request, replaced.response, () => undefined);
    expect(replaced.request.id).not.toBe('bad id\n');
  });

  it('logs 5xx at error, a client gone as aborted, and nothing below the level', () => {
    const middleware = requestLogging(logger('warn'));
    const ok = exchange('/a');
    middleware(ok.request, ok.response, () => undefined);
    ok.end(200);
    expect(lines).toHaveLength(0);
    const failed = exchange('/b');
    middleware(failed.request, failed.response, () => undefined);
    failed.end(500, false);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, res: { status: 500 }, aborted: true }),
    ]);
  });
});
