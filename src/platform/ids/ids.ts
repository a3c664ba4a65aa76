import { createHash, randomBytes } from 'node:crypto';

/** An opaque, url-safe, random identifier (120 bits, 20 characters of [A-Za-z0-9_-]). */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}

/** A secret for a person to keep (API tokens, admin token): 256 bits. */
export function newSecret(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Matches ids generated here and GitBook's id alphabet (0.202.0: `^[a-zA-Z0-9_-]+$`). */
export const ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
