export type SamlProviderStatus = 'active' | 'pending';

/** A provider can sign users in once the identity provider's three values are all known. */
export function samlProviderStatus(provider: {
  entityId: string | null;
  certificate: string | null;
  ssoUrl: string | null;
}): SamlProviderStatus {
  return provider.entityId && provider.certificate && provider.ssoUrl ? 'active' : 'pending';
}
