import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';

/** `whsec_` and the base64 of the key's bytes, as the Standard Webhooks specification writes it. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

/** A new secret: `whsec_` and 24 random bytes in base64 (192 bits). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Whether a secret a caller chose is one: `whsec_` and base64 of 24 to 64 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!WEBHOOK_SECRET_PATTERN.test(secret)) return false;
  const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return bytes.length >= 24 && bytes.length <= 64;
}

/**
 * Signs deliveries with a webhook's secrets (during a rotation, the new and the previous one):
 * the `webhook-signature` header, `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each,
 * separated by spaces.
 */
export class WebhookSigner {
  private readonly keys: StandardWebhook[];

  constructor(secrets: string[]) {
    this.keys = secrets.map((secret) => new StandardWebhook(secret));
  }

  sign(id: string, at: Date, body: string): string {
    return this.keys.map((key) => key.sign(id, at, body)).join(' ');
  }
}
