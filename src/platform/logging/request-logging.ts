import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { redactUrl } from './redact';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (requestLogging), sent back as X-Request-Id. */
    id?: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a sane incoming X-Request-Id, else makes one; either way it is sent back. */
function requestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** The matched route pattern (`/v1/orgs/:organizationId`), not the raw URL, for grouping. */
export function routeOf(request: IncomingMessage): string | undefined {
  return (request as IncomingMessage & { route?: { path?: string } }).route?.path;
}

const levelOf = (status: number) => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/**
 * Gives each request its id (X-Request-Id) and logs one JSON line when it ends: method, route
 * (the matched pattern, else the URL with secret query values redacted), status, duration and
 * request id, at info, warn for 4xx, error for 5xx; `aborted` when the client left first. The
 * line is built only when its level is logged: a request pays an id and a listener, nothing
 * more (no child logger, no serializers; nestjs-pino's request-scoped logger, on
 * AsyncLocalStorage, cost about 0.35 ms of CPU per request on Node 20).
 */
export function requestLogging(logger: Logger) {
  return function logRequest(request: IncomingMessage, response: ServerResponse, next: () => void) {
    const id = requestId(request, response);
    request.id = id;
    const started = performance.now();
    response.once('close', () => {
      const status = response.statusCode;
      const level = levelOf(status);
      if (!logger.isLevelEnabled(level)) return;
      const route = routeOf(request);
      const url = redactUrl(request.url ?? '');
      logger[level](
        {
          requestId: id,
          req: { method: request.method, url },
          res: { status },
          route,
          durationMs: Math.round(performance.now() - started),
          ...(response.writableFinished ? {} : { aborted: true }),
        },
        `${request.method} ${route ?? url} ${status}`,
      );
    });
    next();
  };
}
