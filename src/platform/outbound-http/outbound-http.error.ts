export type OutboundHttpErrorCode =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'address_not_allowed'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'network_error';

/**
 * Why an outbound request failed. The message is written for the person who gave the URL and
 * never carries a stack trace or internal detail; the original error, if any, is kept as `cause`
 * for logs only.
 */
export class OutboundHttpError extends Error {
  override readonly name = 'OutboundHttpError';

  constructor(
    readonly code: OutboundHttpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
