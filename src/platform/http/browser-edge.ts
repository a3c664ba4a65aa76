import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import compression from 'compression';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { AppConfig } from '../config/app-config';

/**
 * Headers a browser page on an allowed origin may read from an answer: the request id, the
 * rate limit's state, the revision a write produced and where a created resource lives.
 */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Location',
];

/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin calls from the origins of CORS_ORIGINS, or undefined when it is unset (then no
 * CORS header is sent and a browser refuses every cross-origin call). Preflights are answered
 * 204 before authentication; the request headers a preflight asks for are allowed (the API
 * authenticates with `Authorization`, not with cookies). With `*`, credentials are never
 * allowed: a browser then sends no cookies, and the answer is the same for every origin.
 */
export function corsOptions(config: AppConfig): CorsOptions | undefined {
  const origins = config.corsOrigins;
  if (!origins) return undefined;
  return {
    origin: origins === '*' ? '*' : (origin, allow) => allow(null, isListed(origins, origin)),
    credentials: origins !== '*',
    methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  };
}

function isListed(origins: string[], origin: string | undefined): boolean {
  return origin !== undefined && origins.includes(origin.toLowerCase());
}

/**
 * helmet's security headers, with a content security policy that Swagger UI (GET /docs, its
 * script and styles served from this origin) works under. Answers that set their own policy
 * (downloaded files, sign-in pages) replace it. Files may be embedded by pages of other origins
 * (an image of a published page), so Cross-Origin-Resource-Policy is `cross-origin`; requests
 * are not upgraded to https (a deployment on a private network may serve plain http; HSTS is
 * sent, and browsers heed it over https only). The headers are the same for every request:
 * helmet computes them once, at start, and each request only sets them.
 */
export function securityHeaders(): RequestHandler {
  const headers = fixedHeadersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'data:', 'https:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  return function setSecurityHeaders(_request, response, next) {
    for (const [name, value] of headers) response.setHeader(name, value);
    next();
  };
}

/**
 * The headers `middleware` sets, read by running it once on a stand-in request and response:
 * for a middleware whose headers do not depend on the request (it must call `next` at once).
 */
export function fixedHeadersOf(middleware: RequestHandler): [string, string | string[]][] {
  const headers: [string, string | string[]][] = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? [...(value as string[])] : String(value)]);
      return response;
    },
    removeHeader() {},
    getHeader: () => undefined,
  };
  let called = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as never, response as never, () => {
    called = true;
  });
  if (!called)
    throw new Error('The middleware did not call next at once: its headers are not fixed');
  return headers;
}

/**
 * Compresses answers of compressible types (JSON, text, the API document, Swagger UI's
 * script) of 1 KB or more, with gzip, deflate or brotli as the client accepts. A request that
 * accepts no encoding goes past it: compression would only wrap its response to find that out.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({ threshold: 1024 });
  return function compressResponses(request, response, next) {
    if (request.headers['accept-encoding'] === undefined) return next();
    compress(request, response, next);
  };
}
