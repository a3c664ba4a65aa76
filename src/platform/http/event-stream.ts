import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, statusOfKind } from '../errors/domain-error';
import { redactUrl } from '../logging/redact';
import { errorBody } from '../errors/error-body';

const logger = new Logger('EventStream');

/**
 * An AbortSignal that aborts when the client of `response` goes away before it has been
 * answered in full: what the work behind a stream should stop on.
 */
export function clientGone(response: Response): AbortSignal {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Answers `events` as server-sent events, as GitBook's API streams them and its client
 * (`@gitbook/api`'s streamRequest) reads them: each event a `data:` line of JSON, then
 * `event: done`; a failure after the stream has begun is `event: error` with
 * `{"error":{"code","message"}}` (a DomainError's status and message; anything else a 500
 * whose details go to the log only), and the stream ends. Failures before the first event are
 * thrown before anything is sent, so the usual error answer goes out instead.
 */
export async function sendEventStream(
  request: Request,
  response: Response,
  events: AsyncIterable<unknown>,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  // The first event decides between a stream and an ordinary error answer.
  const first = await iterator.next();
  response.status(200);
  response.setHeader('content-type', 'text/event-stream; charset=utf-8');
  // no-transform: the compression middleware leaves the stream alone (it would hold it back).
  response.setHeader('cache-control', 'no-cache, no-transform');
  response.setHeader('x-accel-buffering', 'no');
  response.flushHeaders();
  try {
    for (let next = first; !next.done; next = await iterator.next()) {
      if (response.destroyed) break;
      response.write(`data: ${JSON.stringify(next.value)}\n\n`);
    }
    if (!response.destroyed) response.write('event: done\ndata: {}\n\n');
  } catch (error) {
    const { status, message } = streamFailure(error, request);
    if (!response.destroyed) {
      response.write(`event: error\ndata: ${JSON.stringify(errorBody(status, message))}\n\n`);
    }
  } finally {
    if (response.destroyed) await iterator.return?.();
    response.end();
  }
}

function streamFailure(error: unknown, request: Request): { status: number; message: string } {
  if (error instanceof DomainError)
    return { status: statusOfKind(error.kind), message: error.message };
  const requestId = String(request.id ?? 'unknown');
  logger.error(
    { err: error, requestId, method: request.method, url: redactUrl(request.originalUrl) },
    'Unexpected failure in an event stream',
  );
  return { status: 500, message: `Internal error. Reference: ${requestId}.` };
}
