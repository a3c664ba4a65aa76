import type { Request } from 'express';
import { sha256Hex } from '../ids/ids';

/** Hashed once per request: the rate limiter and the access guard both need it. */
const hashes = new WeakMap<Request, string | undefined>();

/** The request's bearer token, or undefined when there is none. */
export function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** The SHA-256 of the request's bearer token, or undefined when there is none. */
export function bearerTokenHash(request: Request): string | undefined {
  if (hashes.has(request)) return hashes.get(request);
  const token = bearerToken(request);
  const hash = token !== undefined ? sha256Hex(token) : undefined;
  hashes.set(request, hash);
  return hash;
}
