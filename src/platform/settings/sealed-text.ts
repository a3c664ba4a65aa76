import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { InstanceSecret } from './instance-secret';

const VERSION = 'v1';

/**
 * Secrets that Bindery must be able to read again (repository credentials for a job, the keys
 * of share links) are kept sealed: AES-256-GCM under the instance secret's key for their
 * purpose, so that neither a row nor a queued job holds them in clear. Sealed text made before
 * a rotation of SECRET_KEY is still read with SECRET_KEY_PREVIOUS.
 */
@Injectable()
export class SealedText {
  constructor(private readonly secret: InstanceSecret) {}

  seal(purpose: string, clear: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.secret.signingKey(purpose), iv);
    const data = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return [
      VERSION,
      ...[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url')),
    ].join('.');
  }

  /** The clear text; an error when the text is malformed or no known secret sealed it. */
  unseal(purpose: string, sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('Unreadable sealed text');
    }
    for (const key of this.secret.verificationKeys(purpose)) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(data, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        // Not sealed with this key: the authentication tag does not match.
      }
    }
    throw new Error('Unreadable sealed text: the instance secret changed');
  }
}
