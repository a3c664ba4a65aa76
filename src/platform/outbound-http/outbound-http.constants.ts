/** Injection token for the {@link OutboundHttpOptions} given to `OutboundHttpModule.register`. */
export const OUTBOUND_HTTP_OPTIONS = Symbol('OUTBOUND_HTTP_OPTIONS');

export interface OutboundHttpOptions {
  /** Total budget for one fetch: connecting, every redirect hop, headers and body. */
  timeoutMs: number;
  /** Largest response body accepted, in bytes. */
  maxBytes: number;
  /** Let requests reach loopback, private and other non-public addresses (local development). */
  allowPrivate: boolean;
  /** Redirects followed before giving up; defaults to 5. */
  maxRedirects?: number;
  /** Sent unless the caller gives its own `user-agent` header. */
  userAgent?: string;
}

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_USER_AGENT = 'Bindery';
