import type { UserActor } from './actor';

/**
 * Resolves an API token (its SHA-256) to a user. Implemented by the users module, which owns
 * users and their tokens; the platform's guard depends only on this contract.
 */
export abstract class Authenticator {
  abstract authenticate(tokenHash: string): Promise<UserActor | null>;
}
