import { RequestMethod } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a sane incoming X-Request-Id, else makes one; either way it is sent back. */
function requestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** The matched route pattern (`/v1/orgs/:organizationId`), not the raw URL, for grouping. */
function routeOf(request: IncomingMessage): string | undefined {
  const route = (request as IncomingMessage & { route?: { path?: string } }).route;
  // Unmatched requests only went through the logging middleware's catch-all pattern.
  return route?.path?.includes('{*path}') ? undefined : route?.path;
}

function withRoute(request: IncomingMessage, _response: ServerResponse, value: object) {
  return { ...value, route: routeOf(request) };
}

/** pino JSON logs: one line per request with method, route, status, duration and request id. */
export const LoggingModule = LoggerModule.forRootAsync({
  inject: [AppConfig],
  useFactory: (config: AppConfig) => ({
    // Express 5 path syntax for "every route" (the default '*' draws a deprecation warning).
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      level: config.LOG_LEVEL,
      genReqId: requestId,
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      // Added when the request ends: only then is the matched route known.
      customSuccessObject: withRoute,
      customErrorObject: withRoute,
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      customSuccessMessage: (req: IncomingMessage, res: ServerResponse) =>
        `${req.method} ${routeOf(req) ?? req.url} ${res.statusCode}`,
      customErrorMessage: (req: IncomingMessage, res: ServerResponse) =>
        `${req.method} ${routeOf(req) ?? req.url} ${res.statusCode}`,
      redact: { paths: ['req.headers.authorization'], remove: true },
    },
  }),
});
