import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { Clock } from '../../platform/clock/clock';
import type { SamlSignInRepository } from './saml-sign-in.repository';

/**
 * node-saml's store of the AuthnRequests it sent (for `InResponseTo`), on the `saml_requests`
 * table: any process can receive the answer to a request another one sent. One per provider
 * and use: a request id is only ever looked up for the provider that sent it.
 */
export class SamlRequestCache implements CacheProvider {
  constructor(
    private readonly repository: SamlSignInRepository,
    private readonly clock: Clock,
    private readonly providerId: string,
    private readonly ttlMs: number,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const now = this.clock.now();
    await this.repository.saveRequest({
      providerId: this.providerId,
      requestId: key,
      value,
      expiresAt: new Date(now.getTime() + this.ttlMs),
    });
    return { value, createdAt: now.getTime() };
  }

  getAsync(key: string): Promise<string | null> {
    return this.repository.findRequest(this.providerId, key, this.clock.now());
  }

  removeAsync(key: string | null): Promise<string | null> {
    if (key === null) return Promise.resolve(null);
    return this.repository.deleteRequest(this.providerId, key);
  }
}
