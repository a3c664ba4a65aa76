import { samlProviderStatus } from './saml-provider-status';

const entityId = 'https://idp.example.com/metadata';
const certificate = '-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----';
const ssoUrl = 'https://idp.example.com/sso';

describe('samlProviderStatus', () => {
  it('is active when entity id, certificate and sign-in URL are all set', () => {
    expect(samlProviderStatus({ entityId, certificate, ssoUrl })).toBe('active');
  });

  it.each([
    ['no entity id', { entityId: null, certificate, ssoUrl }],
    ['no certificate', { entityId, certificate: null, ssoUrl }],
    ['no sign-in URL', { entityId, certificate, ssoUrl: null }],
    ['an empty entity id', { entityId: '', certificate, ssoUrl }],
    ['nothing set', { entityId: null, certificate: null, ssoUrl: null }],
  ])('is pending with %s', (_label, provider) => {
    expect(samlProviderStatus(provider)).toBe('pending');
  });
});
