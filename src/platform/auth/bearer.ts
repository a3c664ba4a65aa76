import type { Request } from 'express';
import { sha256Hex } from '../ids/ids';

/** Hashed once per request: the rate limiter and the access guard both need it. */
const hashes = new WeakMap<Request, string | undefined>();

/** The SHA-256 of the request's bearer token, or undefined when there is none. */
export function bearerTokenHash(request: Request): string | undefined {
  if (hashes.has(request)) return hashes.get(request);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  const hash = match ? sha256Hex(match[1]) : undefined;
  hashes.set(request, hash);
  return hash;
}
