import {
  ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { bodyError } from '../validation/request-body';
import { DomainError, ErrorKind, invalidInput, notFound } from './domain-error';

interface Captured {
  status?: number;
  body?: unknown;
}

interface FakeResponse {
  headersSent: boolean;
  headers: Record<string, string>;
  status: jest.Mock<FakeResponse, [number]>;
  json: jest.Mock<FakeResponse, [unknown]>;
  setHeader: jest.Mock<FakeResponse, [string, string]>;
}

function fakeHost(headersSent = false) {
  const captured: Captured = {};
  const response: FakeResponse = {
    headersSent,
    headers: {},
    setHeader: jest.fn((name: string, value: string) => {
      response.headers[name] = value;
      return response;
    }),
    status: jest.fn((code: number) => {
      captured.status = code;
      return response;
    }),
    json: jest.fn((body: unknown) => {
      captured.body = body;
      return response;
    }),
  };
  const request = { id: 'req-1', method: 'GET', originalUrl: '/x' };
  const host = {
    switchToHttp: () => ({
      getRequest: () => request,
      getResponse: () => response,
      getNext: () => undefined,
    }),
  } as unknown as ArgumentsHost;
  return { host, response, captured };
}

/** Runs the filter on `exception` and returns the status and body it sent. */
function handle(exception: unknown): Captured {
  const { host, captured, response } = fakeHost();
  new AllExceptionsFilter().catch(exception, host);
  expect(response.status).toHaveBeenCalledTimes(1);
  expect(response.json).toHaveBeenCalledTimes(1);
  return captured;
}

const databaseError = (code: string | undefined) =>
  new QueryFailedError('SELECT 1', [], Object.assign(new Error('dup'), { code }));

describe('AllExceptionsFilter', () => {
  let loggerError: jest.SpyInstance;

  beforeEach(() => {
    loggerError = jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });

  afterEach(() => {
    loggerError.mockRestore();
  });

  describe('DomainError', () => {
    it.each([
      ['bad_request', 400],
      ['unauthenticated', 401],
      ['forbidden', 403],
      ['not_found', 404],
      ['conflict', 409],
      ['precondition_failed', 412],
      ['payload_too_large', 413],
      ['rate_limited', 429],
      ['bad_gateway', 502],
      ['unavailable', 503],
    ] as [ErrorKind, number][])('maps kind %s to %i', (kind, status) => {
      const message = `Something about ${kind}.`;
      expect(handle(new DomainError(kind, 'SomeCode', message))).toEqual({
        status,
        body: { error: { code: status, message } },
      });
      expect(loggerError).not.toHaveBeenCalled();
    });

    it('sends the message of the helpers as is', () => {
      expect(handle(notFound('Space'))).toEqual({
        status: 404,
        body: { error: { code: 404, message: 'Space not found.' } },
      });
      expect(handle(invalidInput('limit must be an integer number'))).toEqual({
        status: 400,
        body: { error: { code: 400, message: 'limit must be an integer number' } },
      });
    });
  });

  describe('HttpException', () => {
    it("rewords Nest's missing-route 404", () => {
      expect(handle(new NotFoundException('Cannot GET /x'))).toEqual({
        status: 404,
        body: { error: { code: 404, message: 'No route GET /x.' } },
      });
    });

    it('keeps the path of a missing route, query string included', () => {
      expect(handle(new NotFoundException('Cannot DELETE /v1/orgs/abc?x=1')).body).toEqual({
        error: { code: 404, message: 'No route DELETE /v1/orgs/abc?x=1.' },
      });
    });

    it('keeps other 404 messages', () => {
      expect(handle(new NotFoundException('Nothing here')).body).toEqual({
        error: { code: 404, message: 'Nothing here' },
      });
    });

    it('sends the message of a BadRequestException', () => {
      expect(handle(new BadRequestException('limit is wrong'))).toEqual({
        status: 400,
        body: { error: { code: 400, message: 'limit is wrong' } },
      });
    });

    it('joins a list of messages', () => {
      expect(handle(new BadRequestException(['a is wrong', 'b is wrong'])).body).toEqual({
        error: { code: 400, message: 'a is wrong; b is wrong' },
      });
    });

    it('uses the default message of a bare exception', () => {
      expect(handle(new ForbiddenException())).toEqual({
        status: 403,
        body: { error: { code: 403, message: 'Forbidden' } },
      });
    });

    it('uses the message of an exception with a string body', () => {
      expect(handle(new HttpException('I am a teapot', 418))).toEqual({
        status: 418,
        body: { error: { code: 418, message: 'I am a teapot' } },
      });
    });

    it('maps 429 to a retry message', () => {
      expect(
        handle(
          new HttpException('ThrottlerException: Too Many Requests', HttpStatus.TOO_MANY_REQUESTS),
        ),
      ).toEqual({
        status: 429,
        body: {
          error: { code: 429, message: 'Too many requests. Retry after the delay in Retry-After.' },
        },
      });
    });

    it('hides the detail of a 5xx HttpException', () => {
      expect(handle(new ServiceUnavailableException('db pool exhausted at 10.0.0.5'))).toEqual({
        status: 503,
        body: { error: { code: 503, message: 'The service is unavailable.' } },
      });
    });
  });

  describe('QueryFailedError', () => {
    it.each([
      ['23505', 409, 'This conflicts with an existing resource.'],
      ['23503', 400, 'A referenced resource does not exist.'],
      ['22001', 400, 'A value is too long.'],
      ['22P02', 400, 'A value has an invalid format.'],
      ['22021', 400, 'A value holds a character that is not allowed.'],
      ['22P05', 400, 'A value holds a character that is not allowed.'],
    ])('maps PostgreSQL code %s to %i', (code, status, message) => {
      expect(handle(databaseError(code))).toEqual({
        status,
        body: { error: { code: status, message } },
      });
      expect(loggerError).not.toHaveBeenCalled();
    });

    it.each([['40001'], ['40P01']])(
      'maps a conflict (%s) that outlasted the retries to 503 with Retry-After',
      (code) => {
        const { host, captured, response } = fakeHost();
        new AllExceptionsFilter().catch(databaseError(code), host);
        expect(captured).toEqual({
          status: 503,
          body: { error: { code: 503, message: 'Too many concurrent changes; try again.' } },
        });
        expect(response.headers).toEqual({ 'Retry-After': '1' });
        expect(loggerError).not.toHaveBeenCalled();
      },
    );

    it.each([
      [
        'a lost connection (57P01)',
        databaseError('57P01'),
        'The database is unavailable; try again.',
      ],
      [
        'a refused connection',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        'The database is unavailable; try again.',
      ],
      [
        'a statement timeout (57014)',
        databaseError('57014'),
        'The request took too long in the database; try again.',
      ],
      [
        'a lock timeout (55P03)',
        databaseError('55P03'),
        'What this request changes or reads is busy; try again.',
      ],
    ])('maps %s to 503 with Retry-After, logged as a warning', (_label, error, message) => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      try {
        const { host, captured, response } = fakeHost();
        new AllExceptionsFilter().catch(error, host);
        expect(captured).toEqual({ status: 503, body: { error: { code: 503, message } } });
        expect(response.headers).toEqual({ 'Retry-After': '1' });
        expect(loggerError).not.toHaveBeenCalled();
        expect(warn).toHaveBeenCalledTimes(1);
      } finally {
        warn.mockRestore();
      }
    });

    it.each([['42P01'], [undefined]])('treats code %p as an unexpected failure (500)', (code) => {
      const { status, body } = handle(databaseError(code));
      expect(status).toBe(500);
      expect(body).toEqual({
        error: { code: 500, message: 'Internal error. Reference: req-1.' },
      });
      expect(JSON.stringify(body)).not.toContain('SELECT 1');
      expect(loggerError).toHaveBeenCalledTimes(1);
    });
  });

  // body-parser's errors reach the filter as `bodyError` names them (RequestBodyInterceptor).
  describe('body-parser errors, through bodyError', () => {
    const handleBodyError = (error: unknown, encoding?: string) =>
      handle(bodyError(error, { headers: { 'content-encoding': encoding } }));

    it.each([
      [{ type: 'entity.parse.failed', status: 400 }, 400],
      [{ type: 'entity.too.large', status: 413, limit: 1024 }, 413],
      [{ type: 'entity.too.large' }, 413],
      [{ type: 'request.aborted', status: 400 }, 400],
      [{ type: 'request.size.invalid', status: 400 }, 400],
      [{ type: 'encoding.unsupported', status: 415 }, 415],
      [{ type: 'charset.unsupported', status: 415 }, 415],
    ])('maps %p to %i', (fields, status) => {
      const { status: sent, body } = handleBodyError(
        Object.assign(new Error('raw body-parser message'), fields),
      );
      expect(sent).toBe(status);
      const error = (body as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(status);
      expect(error.message).toMatch(/request|Content-Encoding|charset/i);
      expect(loggerError).not.toHaveBeenCalled();
    });

    it('names the coding of a body that does not decompress as announced', () => {
      const zlib = Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' });
      const { status, body } = handleBodyError(Object.assign(zlib, { status: 400 }), 'gzip');
      expect(status).toBe(400);
      expect((body as { error: { message: string } }).error.message).toContain('"gzip"');
      expect(loggerError).not.toHaveBeenCalled();
    });
  });

  describe('unexpected failures', () => {
    it('sends a 500 naming the request id, never the detail', () => {
      const exception = new Error('secret detail');
      const { status, body } = handle(exception);
      expect(status).toBe(500);
      expect(body).toEqual({ error: { code: 500, message: 'Internal error. Reference: req-1.' } });
      const message = (body as { error: { message: string } }).error.message;
      expect(message).toContain('req-1');
      expect(message).not.toContain('secret detail');
    });

    it('logs the failure with the request', () => {
      const exception = new Error('secret detail');
      handle(exception);
      expect(loggerError).toHaveBeenCalledTimes(1);
      expect(loggerError).toHaveBeenCalledWith(
        { err: exception, requestId: 'req-1', method: 'GET', url: '/x' },
        'Unexpected failure',
      );
    });

    it.each([['a string'], [null], [undefined], [42]])('handles a thrown %p', (thrown) => {
      expect(handle(thrown)).toEqual({
        status: 500,
        body: { error: { code: 500, message: 'Internal error. Reference: req-1.' } },
      });
    });

    it('says "unknown" when the request has no id', () => {
      const { captured, response } = fakeHost();
      const host = {
        switchToHttp: () => ({
          getRequest: () => ({ method: 'GET', originalUrl: '/x' }),
          getResponse: () => response,
        }),
      } as unknown as ArgumentsHost;
      new AllExceptionsFilter().catch(new Error('boom'), host);
      expect(captured.body).toEqual({
        error: { code: 500, message: 'Internal error. Reference: unknown.' },
      });
    });
  });

  it('sends nothing once the headers are sent', () => {
    const { host, response } = fakeHost(true);
    new AllExceptionsFilter().catch(invalidInput('too late'), host);
    expect(response.status).not.toHaveBeenCalled();
    expect(response.json).not.toHaveBeenCalled();
  });

  it('still logs an unexpected failure after the headers are sent', () => {
    const { host, response } = fakeHost(true);
    new AllExceptionsFilter().catch(new Error('mid-stream'), host);
    expect(response.json).not.toHaveBeenCalled();
    expect(loggerError).toHaveBeenCalledTimes(1);
  });
});
