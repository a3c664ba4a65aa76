import type { NextFunction, Request, Response } from 'express';
import { DomainError, invalidInput } from './domain-error';

/**
 * Express error middleware placed right after the JSON body parser: it names body-parser's
 * failures in Bindery's words before Nest's router would turn them into generic exceptions.
 */
export function bodyErrors(
  error: unknown,
  _request: Request,
  _response: Response,
  next: NextFunction,
): void {
  const type =
    typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  switch (type) {
    case 'entity.parse.failed':
      return next(invalidInput(`The request body is not valid JSON: ${(error as Error).message}`));
    case 'entity.too.large':
      return next(
        new DomainError('payload_too_large', 'PayloadTooLarge', 'The request body is too large.'),
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return next(invalidInput('The request body encoding is not supported; send UTF-8 JSON.'));
    case 'request.aborted':
      return next(invalidInput('The request was aborted before its body arrived.'));
    default:
      return next(error);
  }
}
