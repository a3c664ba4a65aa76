import type { NextFunction, Request, Response } from 'express';
import { invalidInput } from '../errors/domain-error';

const ENCODED_NUL = /%00/i;

/**
 * Refuses a URL that carries U+0000 (`%00`) in its path or query with a 400, before routing:
 * no id, filter or search holding it could be stored or found, and PostgreSQL would refuse it.
 * (Node's parser already refuses a raw NUL, and invalid percent-encoding in the path is a 400
 * from the router; in the query it decodes to U+FFFD, which is harmless.)
 */
export function rejectNulInRequestTarget(
  request: Request,
  _response: Response,
  next: NextFunction,
): void {
  const url = request.url;
  if (!ENCODED_NUL.test(url)) return next();
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  if (ENCODED_NUL.test(path)) {
    return next(invalidInput('The request path must not contain the character U+0000 (%00).'));
  }
  const names = new Set(
    [...new URLSearchParams(url.slice(queryStart + 1))]
      .filter(([name, value]) => name.includes('\u0000') || value.includes('\u0000'))
      .map(([name]) => JSON.stringify(name.replaceAll('\u0000', '%00'))),
  );
  const what = names.size > 0 ? `The query parameter ${[...names].join(', ')}` : 'The query';
  next(invalidInput(`${what} must not contain the character U+0000 (%00).`));
}
