import type { Request } from 'express';
import { sha256Hex } from '../ids/ids';

/** The SHA-256 of the request's bearer token, or undefined when there is none. */
export function bearerTokenHash(request: Request): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? sha256Hex(match[1]) : undefined;
}
