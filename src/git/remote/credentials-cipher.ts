import { Injectable } from '@nestjs/common';
import { SealedText } from '../../platform/settings/sealed-text';

export interface GitCredentials {
  username: string;
  password: string;
}

const PURPOSE = 'git-credentials';

/**
 * Seals the credentials of a repository URL for the job that uses them: they are never stored
 * in clear, in a row or in the queue.
 */
@Injectable()
export class CredentialsCipher {
  constructor(private readonly sealed: SealedText) {}

  encrypt(credentials: GitCredentials): string {
    return this.sealed.seal(PURPOSE, JSON.stringify(credentials));
  }

  /** The credentials, or an error when no known instance secret sealed them. */
  decrypt(sealed: string): GitCredentials {
    try {
      return JSON.parse(this.sealed.unseal(PURPOSE, sealed)) as GitCredentials;
    } catch {
      throw new Error('Unreadable repository credentials: the instance secret changed');
    }
  }
}
