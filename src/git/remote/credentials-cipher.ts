import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { InstanceSecret } from '../../platform/settings/instance-secret';

export interface GitCredentials {
  username: string;
  password: string;
}

const VERSION = 'v1';

/**
 * Encrypts the credentials of a repository URL for the job that uses them (AES-256-GCM, key
 * derived from the instance secret): they are never stored in clear, in a row or in the queue.
 */
@Injectable()
export class CredentialsCipher {
  constructor(private readonly secret: InstanceSecret) {}

  encrypt(credentials: GitCredentials): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    const data = Buffer.concat([
      cipher.update(JSON.stringify(credentials), 'utf8'),
      cipher.final(),
    ]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The credentials, or an error when the instance secret changed since they were encrypted. */
  decrypt(sealed: string): GitCredentials {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('Unreadable repository credentials');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const clear = Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return JSON.parse(clear) as GitCredentials;
  }

  private key(): Buffer {
    return createHash('sha256').update(`bindery:git-credentials:${this.secret.value}`).digest();
  }
}
