import { TEST_CERTIFICATE_PEM as CERTIFICATE } from '../../../test/fixtures/certificate';
import { isX509CertificatePem } from './x509-certificate';

describe('isX509CertificatePem', () => {
  it('accepts a PEM certificate, with or without surrounding whitespace', () => {
    expect(isX509CertificatePem(CERTIFICATE)).toBe(true);
    expect(isX509CertificatePem(`\n${CERTIFICATE}\n`)).toBe(true);
  });

  it.each([
    ['a non-string', 42],
    ['an empty string', ''],
    ['the base64 body without the PEM armour', CERTIFICATE.split('\n').slice(1, -1).join('')],
    ['a corrupted body', CERTIFICATE.replace(/[A-Z]/g, '*')],
    ['a truncated certificate', CERTIFICATE.slice(0, 200) + '\n-----END CERTIFICATE-----'],
    [
      'a private key',
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
    ],
  ])('refuses %s', (_label, value) => {
    expect(isX509CertificatePem(value)).toBe(false);
  });
});
