import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether an Authorization header carries `Bearer <token>`, compared in constant time (digests
 * of equal length, so that neither the token's length nor its prefix leaks).
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (sent === undefined) return false;
  return timingSafeEqual(digest(sent), digest(token));
}
