/**
 * What kind of failure an error is; the kind alone decides the HTTP status. Services throw
 * DomainErrors with a specific `code` (SpaceNotFound, ChangeRequestAlreadyMerged, ...) for
 * logs and tests, and a message written for the person reading the API response.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'bad_gateway'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    /** Seconds after which a retry may succeed, sent as Retry-After (a limit's window). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = code;
  }
}

export function statusOfKind(kind: ErrorKind): number {
  switch (kind) {
    case 'bad_request':
      return 400;
    case 'unauthenticated':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
      return 409;
    case 'precondition_failed':
      return 412;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'rate_limited':
      return 429;
    case 'bad_gateway':
      return 502;
    case 'unavailable':
      return 503;
    default: {
      const unmapped: never = kind;
      throw new Error(`Unmapped error kind ${String(unmapped)}`);
    }
  }
}

export const invalidInput = (message: string) =>
  new DomainError('bad_request', 'InvalidInput', message);

/** `notFound('Organization')` → 404 "Organization not found." */
export const notFound = (resource: string) =>
  new DomainError('not_found', `${resource.replace(/\s+/g, '')}NotFound`, `${resource} not found.`);

export const forbidden = (message: string) => new DomainError('forbidden', 'Forbidden', message);

export const unauthenticated = (message: string) =>
  new DomainError('unauthenticated', 'Unauthenticated', message);
