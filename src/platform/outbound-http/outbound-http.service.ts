import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { addressNotAllowed, isPublicAddress, publicOnlyLookup } from './address-policy';
import {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_USER_AGENT,
  OUTBOUND_HTTP_OPTIONS,
  type OutboundHttpOptions,
} from './outbound-http.constants';
import { OutboundHttpError } from './outbound-http.error';

export { OUTBOUND_HTTP_OPTIONS, type OutboundHttpOptions } from './outbound-http.constants';
export { OutboundHttpError, type OutboundHttpErrorCode } from './outbound-http.error';

export type OutboundHttpMethod = 'GET' | 'HEAD' | 'POST';

export interface OutboundRequestInit {
  method?: OutboundHttpMethod;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Overrides the configured total timeout for this call. */
  timeoutMs?: number;
  /** Overrides the configured body size limit for this call. */
  maxBytes?: number;
  /**
   * A body larger than the limit is cut there (`truncated` in the response) instead of refused:
   * for a reader that needs only the start of a document (a page's `<head>`).
   */
  truncate?: boolean;
}

/** A request whose response is read as a stream (OutboundHttp.stream). */
export interface OutboundStreamInit {
  method?: OutboundHttpMethod;
  headers?: Record<string, string>;
  /** A stream body is sent as it is read; its request is not sent again to a redirect. */
  body?: string | Buffer | Readable;
  /** The longest wait for the response's headers, and for each part of its body. */
  timeoutMs?: number;
  /** Overrides the configured body size limit; the body fails once it passes it. */
  maxBytes?: number;
}

/** A response whose body the caller reads, or destroys. */
export interface OutboundStreamResponse {
  status: number;
  headers: Record<string, string>;
  /** Fails with an OutboundHttpError (too large, timed out, connection lost). */
  body: Readable;
  url: string;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers are joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that produced this response, after redirects, without any user:password part. */
  url: string;
  /** The body is the first `maxBytes` bytes of a longer one (only with `truncate`). */
  truncated?: boolean;
}

/** A request `relay` sends: any method, one hop. */
export interface OutboundRelayInit {
  /** An HTTP method token (`GET`, `PUT`, `PATCH`, …). */
  method: string;
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs?: number;
  maxBytes?: number;
}

/** One request in a redirect chain. */
interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
}

interface Limits {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  truncate: boolean;
  /** Streamed: the timeout bounds each wait, not the whole exchange. */
  streamed?: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NO_BODY_STATUSES = new Set([204, 304]);
// Credentials given for one origin must not be handed to the origin it redirects to.
const ORIGIN_BOUND_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
const BODY_HEADERS = ['content-type', 'content-length'];
const UNDICI_TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The one way Bindery fetches URLs supplied by users (OpenAPI sources, git remotes, file URLs).
 * It only speaks http(s), bounds time and size, follows redirects itself so every hop is checked,
 * and, unless `allowPrivate`, refuses non-public addresses both as literals and as DNS answers.
 */
@Injectable()
export class OutboundHttp implements OnModuleDestroy {
  private readonly agent: Agent;
  private readonly maxRedirects: number;
  private readonly userAgent: string;

  constructor(@Inject(OUTBOUND_HTTP_OPTIONS) private readonly options: OutboundHttpOptions) {
    assertValidOptions(options);
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    // The lookup runs for every connection the agent opens, so a host name cannot resolve to a
    // public address when checked and to a private one when connected.
    this.agent = new Agent({ connect: options.allowPrivate ? {} : { lookup: publicOnlyLookup } });
  }

  async fetch(url: string, init: OutboundRequestInit = {}): Promise<OutboundResponse> {
    const first = this.firstHop(url, init);
    const controller = new AbortController();
    const timeoutMs = init.timeoutMs ?? this.options.timeoutMs;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await this.follow(first, {
        signal: controller.signal,
        timeoutMs,
        maxBytes: init.maxBytes ?? this.options.maxBytes,
        truncate: init.truncate ?? false,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One request of any method, its redirect answered rather than followed: for a client that
   * follows redirects itself and sends each hop through here (an integration's script), so
   * every hop is still checked against the address rules.
   */
  async relay(url: string, init: OutboundRelayInit): Promise<OutboundResponse> {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/.test(init.method)) {
      throw new OutboundHttpError(
        'invalid_url',
        `${init.method.slice(0, 32)} is not an HTTP method.`,
      );
    }
    const hop = withUrl(
      { method: init.method.toUpperCase(), headers: init.headers ?? {}, body: init.body },
      parseUrl(url),
    );
    const controller = new AbortController();
    const timeoutMs = init.timeoutMs ?? this.options.timeoutMs;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const limits = {
      signal: controller.signal,
      timeoutMs,
      maxBytes: init.maxBytes ?? this.options.maxBytes,
      truncate: false,
    };
    try {
      this.assertAllowedTarget(hop.url);
      return await readResponse(hop, await this.send(hop, limits), limits);
    } catch (error) {
      throw toOutboundError(error, hop.url, limits);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * As `fetch`, for transfers too large to hold (a Git repository's pack): the response's body
   * is a stream, checked against `maxBytes` as it flows, and `timeoutMs` bounds each wait (for
   * the headers, then for each part of the body) rather than the whole exchange.
   */
  async stream(url: string, init: OutboundStreamInit = {}): Promise<OutboundStreamResponse> {
    const first = this.firstHop(url, init);
    const limits: Limits = {
      signal: new AbortController().signal,
      timeoutMs: init.timeoutMs ?? this.options.timeoutMs,
      maxBytes: init.maxBytes ?? this.options.maxBytes,
      truncate: false,
      streamed: true,
    };
    let hop = first;
    try {
      for (let redirects = 0; ; redirects += 1) {
        this.assertAllowedTarget(hop.url);
        const response = await this.send(hop, limits);
        const location = redirectLocation(response);
        if (location === undefined) return streamResponse(hop, response, limits);
        discard(response.body);
        if (redirects >= this.maxRedirects) throw tooManyRedirects(this.maxRedirects);
        if (hop.body instanceof Readable) {
          throw new OutboundHttpError(
            'network_error',
            `${hop.url.host} redirected a request whose body cannot be sent again.`,
          );
        }
        hop = redirectedHop(hop, response.statusCode, location);
      }
    } catch (error) {
      throw toOutboundError(error, hop.url, limits);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  private firstHop(raw: string, init: OutboundRequestInit | OutboundStreamInit): Hop {
    const headers = lowerCaseKeys(init.headers ?? {});
    headers['user-agent'] ??= this.userAgent;
    return withUrl({ method: init.method ?? 'GET', headers, body: init.body }, parseUrl(raw));
  }

  private async follow(first: Hop, limits: Limits): Promise<OutboundResponse> {
    let hop = first;
    try {
      for (let redirects = 0; ; redirects += 1) {
        this.assertAllowedTarget(hop.url);
        const response = await this.send(hop, limits);
        const location = redirectLocation(response);
        if (location === undefined) return await readResponse(hop, response, limits);
        discard(response.body);
        if (redirects >= this.maxRedirects) throw tooManyRedirects(this.maxRedirects);
        hop = redirectedHop(hop, response.statusCode, location);
      }
    } catch (error) {
      throw toOutboundError(error, hop.url, limits);
    }
  }

  private assertAllowedTarget(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundHttpError(
        'scheme_not_allowed',
        `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)}.`,
      );
    }
    if (this.options.allowPrivate) return;
    // Literal addresses never reach the DNS lookup, so they are checked here, before connecting.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !isPublicAddress(host)) throw addressNotAllowed(host, host);
  }

  private send(hop: Hop, limits: Limits): Promise<Dispatcher.ResponseData> {
    return request(hop.url, {
      dispatcher: this.agent,
      // A method token (checked in `relay`); undici sends any.
      method: hop.method as Dispatcher.HttpMethod,
      headers: hop.headers,
      body: hop.body,
      signal: limits.signal,
      ...(limits.streamed
        ? { headersTimeout: limits.timeoutMs, bodyTimeout: limits.timeoutMs }
        : {}),
    });
  }
}

function assertValidOptions(options: OutboundHttpOptions): void {
  if (!(options.timeoutMs > 0)) throw new Error('OutboundHttp: timeoutMs must be positive');
  if (!(options.maxBytes >= 0)) throw new Error('OutboundHttp: maxBytes must not be negative');
  if (options.maxRedirects !== undefined && !(options.maxRedirects >= 0)) {
    throw new Error('OutboundHttp: maxRedirects must not be negative');
  }
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new OutboundHttpError(
      'invalid_url',
      base
        ? `${base.host} redirected to an invalid URL.`
        : 'The URL is not valid; expected an absolute URL such as https://example.com/file.',
    );
  }
}

/**
 * Points a hop at `url`. A user:password part is moved into an Authorization header (git remotes
 * often carry tokens this way) so that it never appears in the URL we send or return.
 */
function withUrl(hop: Omit<Hop, 'url'>, url: URL): Hop {
  if (url.username === '' && url.password === '') return { ...hop, url };
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  const credentials = `${decodeUserInfo(url.username)}:${decodeUserInfo(url.password)}`;
  const headers = { ...hop.headers };
  headers.authorization ??= `Basic ${Buffer.from(credentials).toString('base64')}`;
  return { ...hop, headers, url: bare };
}

function decodeUserInfo(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new OutboundHttpError(
      'invalid_url',
      'The user name or password in the URL is malformed.',
    );
  }
}

function redirectLocation(response: Dispatcher.ResponseData): string | undefined {
  if (!REDIRECT_STATUSES.has(response.statusCode)) return undefined;
  const location = response.headers.location;
  return Array.isArray(location) ? location[0] : location;
}

/** The next request, following the rules browsers apply (RFC 9110 §15.4, Fetch §4.4). */
function redirectedHop(previous: Hop, status: number, location: string): Hop {
  const url = parseUrl(location, previous.url);
  let { method, headers, body } = previous;
  if (url.origin !== previous.url.origin) headers = omit(headers, ORIGIN_BOUND_HEADERS);
  const becomesGet =
    status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
  if (becomesGet) {
    method = 'GET';
    body = undefined;
    headers = omit(headers, BODY_HEADERS);
  }
  return withUrl({ method, headers, body }, url);
}

async function readResponse(
  hop: Hop,
  response: Dispatcher.ResponseData,
  limits: Pick<Limits, 'maxBytes' | 'truncate'>,
): Promise<OutboundResponse> {
  const { maxBytes, truncate } = limits;
  const hasBody = hop.method !== 'HEAD' && !NO_BODY_STATUSES.has(response.statusCode);
  const announced = Number(response.headers['content-length']);
  if (hasBody && announced > maxBytes && !truncate) {
    discard(response.body);
    throw tooLarge(maxBytes);
  }
  const body = await readBody(response.body, maxBytes, truncate);
  return {
    status: response.statusCode,
    headers: flattenHeaders(response.headers),
    body: body.bytes,
    url: hop.url.href,
    ...(body.truncated ? { truncated: true } : {}),
  };
}

/** The response with its body as a stream that fails, as fetch would, past `maxBytes`. */
function streamResponse(
  hop: Hop,
  response: Dispatcher.ResponseData,
  limits: Limits,
): OutboundStreamResponse {
  const { maxBytes } = limits;
  const announced = Number(response.headers['content-length']);
  if (hop.method !== 'HEAD' && announced > maxBytes) {
    discard(response.body);
    throw tooLarge(maxBytes);
  }
  let size = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  });
  response.body.on('error', (error) => limited.destroy(toOutboundError(error, hop.url, limits)));
  limited.on('close', () => {
    if (!response.body.destroyed) discard(response.body);
  });
  response.body.pipe(limited);
  return {
    status: response.statusCode,
    headers: flattenHeaders(response.headers),
    body: limited,
    url: hop.url.href,
  };
}

/**
 * Reads the body, stopping the transfer as soon as it grows past `maxBytes`: refused, or with
 * `truncate` cut at `maxBytes`.
 */
async function readBody(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  truncate: boolean,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    if (size + bytes.length > maxBytes) {
      discard(body);
      if (!truncate) throw tooLarge(maxBytes);
      chunks.push(bytes.subarray(0, maxBytes - size));
      return { bytes: Buffer.concat(chunks, maxBytes), truncated: true };
    }
    size += bytes.length;
    chunks.push(bytes);
  }
  return { bytes: Buffer.concat(chunks, size), truncated: false };
}

/** Stops a transfer we have no use for; the abort error it causes is expected, not a failure. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function toOutboundError(error: unknown, url: URL, limits: Limits): OutboundHttpError {
  if (error instanceof OutboundHttpError) return error;
  if (limits.signal.aborted) return timedOut(url, limits.timeoutMs);
  const refused = findInCauses(error, (e) => e instanceof OutboundHttpError);
  if (refused) return refused as OutboundHttpError;
  const code = errorCode(error);
  if (code !== undefined && UNDICI_TIMEOUT_CODES.has(code)) return timedOut(url, limits.timeoutMs);
  return new OutboundHttpError(
    'network_error',
    `Could not fetch from ${url.host}: ${describeNetworkFailure(code)}.`,
    { cause: error },
  );
}

function describeNetworkFailure(code: string | undefined): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed unexpectedly';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    case undefined:
      return 'the request failed';
    default:
      return /CERT|TLS|SSL/.test(code)
        ? 'its TLS certificate could not be verified'
        : `the request failed (${code})`;
  }
}

function errorCode(error: unknown): string | undefined {
  const withCode = findInCauses(error, (e) => typeof (e as { code?: unknown }).code === 'string');
  return (withCode as { code?: string } | undefined)?.code;
}

function findInCauses(error: unknown, test: (e: object) => boolean): object | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function timedOut(url: URL, timeoutMs: number): OutboundHttpError {
  return new OutboundHttpError('timeout', `${url.host} did not respond within ${timeoutMs} ms.`);
}

function tooLarge(maxBytes: number): OutboundHttpError {
  return new OutboundHttpError(
    'too_large',
    `The response is larger than the ${maxBytes}-byte limit.`,
  );
}

function tooManyRedirects(maxRedirects: number): OutboundHttpError {
  return new OutboundHttpError(
    'too_many_redirects',
    `Gave up after ${maxRedirects} redirect${maxRedirects === 1 ? '' : 's'}.`,
  );
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function omit(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}
