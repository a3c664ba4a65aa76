import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { ApiExtension, ApiPayloadTooLargeResponse } from '@nestjs/swagger';
import { json, urlencoded } from 'body-parser';
import type { Request, RequestHandler, Response } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { DomainError, invalidInput } from '../errors/domain-error';
import { ErrorBody } from '../errors/error-body';
import type { DeclaredRoute } from '../http/declared-routes';
import type { RouteInterceptor } from '../http/route-interceptors';
import { findBodyProblem } from './body-inspection';

/**
 * Request bodies are read here, after the guards: a request without a valid token, or for a
 * resource the caller may not see, is answered before a byte of its body is read. Each route
 * reads at most BODY_LIMIT, or BODY_LIMIT_LARGE when it is marked `@LargeBody()`. Reads that
 * take no body (no `@Body()` parameter) leave one unread.
 */

type BodySize = 'ordinary' | 'large';
const BODY_SIZE = 'bindery:body-size';
const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_BODY = 'bindery:form-body';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The route takes content or a batch: its body may be as large as BODY_LIMIT_LARGE. */
export function LargeBody(): MethodDecorator {
  return applyDecorators(
    SetMetadata(BODY_SIZE, 'large' satisfies BodySize),
    ApiExtension('x-bindery-body-limit', 'large'),
    ApiPayloadTooLargeResponse({
      type: ErrorBody,
      description: 'The body is over BODY_LIMIT_LARGE.',
    }),
  );
}

const RAW_BODY = 'bindery:raw-body';

/**
 * The handler reads the request's body itself, as bytes of any type (an endpoint that relays
 * requests, whose signature covers the exact bytes): the body interceptor leaves it alone.
 */
export function RawBody(): MethodDecorator {
  return SetMetadata(RAW_BODY, true);
}

/**
 * The route also takes an HTML form's body (`application/x-www-form-urlencoded`, flat fields):
 * pages people submit, and identity providers posting a SAML response.
 */
export function FormBody(): MethodDecorator {
  return SetMetadata(FORM_BODY, true);
}

@Injectable()
export class RequestBodyInterceptor implements RouteInterceptor {
  private readonly parsers: Record<BodySize, RequestHandler>;
  private readonly formParser: RequestHandler;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    // `inflate` accepts gzip, deflate and br; the limit counts the decompressed bytes.
    const parser = (limit: string) =>
      json({ limit, type: JSON_TYPES, inflate: true, strict: true });
    this.parsers = { ordinary: parser(config.BODY_LIMIT), large: parser(config.BODY_LIMIT_LARGE) };
    this.formParser = urlencoded({
      limit: config.BODY_LIMIT,
      type: FORM_TYPE,
      extended: false,
      parameterLimit: 100,
    });
  }

  /**
   * Routes with a `@Body()` parameter, and every write: a body sent to a write that takes none
   * is still read and refused when it is not JSON (400, 415), as GitBook answers. Reads skip it.
   */
  appliesTo(route: DeclaredRoute): boolean {
    if (Reflect.getMetadata(RAW_BODY, route.handler) === true) return false;
    return takesBody(route) || !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    // Most requests carry no body: they go straight on, with no promise on their way.
    if (!hasBody(request)) return next.handle();
    const size =
      this.reflector.get<BodySize | undefined>(BODY_SIZE, context.getHandler()) ?? 'ordinary';
    const form = this.reflector.get<boolean | undefined>(FORM_BODY, context.getHandler());
    const read =
      form && request.is(FORM_TYPE)
        ? readBody(this.formParser, request, http.getResponse(), [FORM_TYPE])
        : readBody(this.parsers[size], request, http.getResponse());
    return from(read).pipe(switchMap(() => next.handle()));
  }
}

/** Whether the route's handler has a `@Body()` parameter. */
function takesBody({ controller, name }: DeclaredRoute): boolean {
  const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as object;
  return Object.keys(params).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/** Reads and checks the body of a request that has one (hasBody). */
async function readBody(
  parse: RequestHandler,
  request: Request,
  response: Response,
  types: string[] = JSON_TYPES,
) {
  if (!request.is(types)) {
    const type = request.headers['content-type'];
    throw new DomainError(
      'unsupported_media_type',
      'UnsupportedMediaType',
      `The request body must be JSON, sent with Content-Type: application/json${
        type ? ` (got ${JSON.stringify(type.slice(0, 100))})` : ''
      }.`,
    );
  }
  await new Promise<void>((resolve, reject) =>
    parse(request, response, (error?: unknown) =>
      error ? reject(bodyError(error, request)) : resolve(),
    ),
  );
  const problem = findBodyProblem(request.body);
  if (problem) throw invalidInput(problem);
}

/** A body is announced by Transfer-Encoding or a Content-Length; an empty one is none. */
function hasBody(request: Request): boolean {
  const length = Number.parseInt(request.headers['content-length'] ?? '', 10);
  return request.headers['transfer-encoding'] !== undefined || length > 0;
}

/** body-parser's failures (http-errors with a `type`, or a wrapped zlib error), in Bindery's words. */
export function bodyError(error: unknown, request: Pick<Request, 'headers'>): DomainError {
  const { type, limit, message } = (error ?? {}) as {
    type?: string;
    limit?: number;
    message?: string;
  };
  const encoding = String(request.headers['content-encoding'] ?? '');
  switch (type) {
    case 'entity.parse.failed':
      return invalidInput(`The request body is not valid JSON: ${message}`);
    case 'entity.too.large':
      return new DomainError(
        'payload_too_large',
        'PayloadTooLarge',
        `The request body is too large${limit ? `: this route accepts up to ${limit} bytes` : ''}.`,
      );
    case 'encoding.unsupported':
      return new DomainError(
        'unsupported_media_type',
        'UnsupportedContentEncoding',
        `Content-Encoding ${JSON.stringify(encoding.slice(0, 50))} is not supported: send the body as is, or with gzip, deflate or br.`,
      );
    case 'charset.unsupported':
      return new DomainError(
        'unsupported_media_type',
        'UnsupportedCharset',
        'The request body charset is not supported: send UTF-8 JSON.',
      );
    case 'request.aborted':
      return invalidInput('The request was aborted before its body arrived.');
    case 'request.size.invalid':
      return invalidInput('The request body is not as long as its Content-Length says.');
    default:
      // A stream that does not decompress as announced (zlib's error, wrapped in a 400).
      return invalidInput(
        encoding
          ? `The request body could not be decoded as Content-Encoding ${JSON.stringify(encoding.slice(0, 50))}.`
          : 'The request body could not be read.',
      );
  }
}
