import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, timeoutOf } from '../database/connection-faults';
import { DomainError, statusOfKind } from './domain-error';
import { redactUrl } from '../logging/redact';
import { errorBody } from './error-body';

interface Mapped {
  status: number;
  message: string;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
}

/** Turns every failure into `{"error":{"code","message"}}`; details of 500s go to the log only. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const mapped =
      map(exception) ?? this.databaseFault(exception) ?? this.unexpected(exception, request);
    if (response.headersSent) return;
    if (mapped.retryAfter !== undefined)
      response.setHeader('Retry-After', String(mapped.retryAfter));
    response.status(mapped.status).json(errorBody(mapped.status, mapped.message));
  }

  /**
   * The database was not there (a lost or refused connection, a full pool) or a statement ran
   * into a limit Bindery sets (statement or lock timeout): nothing is wrong with the request,
   * and a retry may well succeed. Logged at warn, with the cause.
   */
  private databaseFault(exception: unknown): Mapped | undefined {
    const timeout = timeoutOf(exception);
    if (!timeout && !isDatabaseUnavailable(exception)) return undefined;
    // One line, no stack: during an outage every request comes here.
    this.logger.warn(
      { cause: describeCause(exception) },
      'Answered 503: database unavailable or busy',
    );
    return timeout
      ? { status: 503, message: TIMEOUT_MESSAGES[timeout], retryAfter: 1 }
      : { status: 503, message: 'The database is unavailable; try again.', retryAfter: 1 };
  }

  private unexpected(exception: unknown, request: Request): Mapped {
    const requestId = String(request.id ?? 'unknown');
    this.logger.error(
      { err: exception, requestId, method: request.method, url: redactUrl(request.originalUrl) },
      'Unexpected failure',
    );
    return { status: 500, message: `Internal error. Reference: ${requestId}.` };
  }
}

/** `57P01 terminating connection due to administrator command`, or the error's name and message. */
function describeCause(exception: unknown): string {
  const { name, message, code, driverError } = exception as {
    name?: string;
    message?: string;
    code?: unknown;
    driverError?: { code?: unknown; message?: string };
  };
  const state = driverError?.code ?? code;
  return typeof state === 'string'
    ? `${state} ${driverError?.message ?? message ?? ''}`.trim()
    : `${name ?? 'Error'}: ${message ?? String(exception)}`;
}

const TIMEOUT_MESSAGES = {
  statement: 'The request took too long in the database; try again.',
  lock: 'What this request changes or reads is busy; try again.',
};

function map(exception: unknown): Mapped | undefined {
  if (exception instanceof DomainError) {
    return {
      status: statusOfKind(exception.kind),
      message: exception.message,
      retryAfter: exception.retryAfter,
    };
  }
  if (exception instanceof HttpException) return mapHttpException(exception);
  if (exception instanceof QueryFailedError) return mapDatabaseError(exception);
  return undefined;
}

function mapHttpException(exception: HttpException): Mapped {
  const status = exception.getStatus();
  if (status === 404) return { status, message: routeNotFound(exception.message) };
  if (status === 429)
    return { status, message: 'Too many requests. Retry after the delay in Retry-After.' };
  if (status >= 500) return { status, message: 'The service is unavailable.' };
  const body = exception.getResponse();
  const detail =
    typeof body === 'object' && body !== null && 'message' in body
      ? body.message
      : exception.message;
  return { status, message: Array.isArray(detail) ? detail.join('; ') : String(detail) };
}

/** Nest's router says "Cannot GET /x"; say it in Bindery's words. */
function routeNotFound(message: string): string {
  const match = /^Cannot (\w+) (.*)$/.exec(message);
  return match ? `No route ${match[1]} ${match[2]}.` : message;
}

const DATABASE_ERRORS: Record<string, Mapped> = {
  '23505': { status: 409, message: 'This conflicts with an existing resource.' },
  '23503': { status: 400, message: 'A referenced resource does not exist.' },
  '22001': { status: 400, message: 'A value is too long.' },
  '22P02': { status: 400, message: 'A value has an invalid format.' },
  '22007': { status: 400, message: 'A date or time has an invalid format.' },
  '22008': { status: 400, message: 'A date or time is out of range.' },
  '22003': { status: 400, message: 'A number is out of range.' },
  // Text PostgreSQL cannot store; the request layer refuses it first, this is the safety net.
  '22021': { status: 400, message: 'A value holds a character that is not allowed.' },
  '22P05': { status: 400, message: 'A value holds a character that is not allowed.' },
  // Lost a race with other writes even after the retries of RetryingDataSource.
  '40001': {
    status: 503,
    message: 'Too many concurrent changes; try again.',
    retryAfter: 1,
  },
  '40P01': {
    status: 503,
    message: 'Too many concurrent changes; try again.',
    retryAfter: 1,
  },
};

function mapDatabaseError(error: QueryFailedError): Mapped | undefined {
  const code = (error.driverError as { code?: string } | undefined)?.code;
  return code ? DATABASE_ERRORS[code] : undefined;
}
