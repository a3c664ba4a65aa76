import type { Actor } from './actor';

/**
 * Resolves a bearer token (its SHA-256) to its caller: today an API token to its user.
 * Implemented by the users module, which owns users and their tokens; the platform's guard
 * depends only on this contract.
 */
export abstract class Authenticator {
  abstract authenticate(tokenHash: string): Promise<Exclude<Actor, { kind: 'admin' }> | null>;
}
