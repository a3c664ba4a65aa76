import { createHmac } from 'node:crypto';

/**
 * `x-gitbook-signature` of a revalidation request: the lowercase hex HMAC-SHA256 of the exact
 * body bytes, keyed with the renderer's GITBOOK_SECRET (a renderer with a secret answers 400
 * without it and 401 when it does not match).
 */
export function revalidationSignature(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
