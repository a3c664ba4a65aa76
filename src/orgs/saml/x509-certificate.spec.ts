import { isX509CertificatePem } from './x509-certificate';

// Self-signed, CN=test, RSA 2048, valid 2026–2036 (openssl req -x509 -newkey rsa:2048 -nodes).
const CERTIFICATE = `
-----BEGIN CERTIFICATE-----
MIIC/zCCAeegAwIBAgIUQYfJK9e0fE4OvdErUFbZEVFf/dwwDQYJKoZIhvcNAQEL
BQAwDzENMAsGA1UEAwwEdGVzdDAeFw0yNjExMjExNTU0MzBaFw0zNjExMTgxNTU0
MzBaMA8xDTALBgNVBAMMBHRlc3QwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK
AoIBAQDAU59LbozSxFYoAzj0Kuja0H9qxJ9mCi69p7rtLrNPdZ6YvJ0y/BZYVTbw
rDsieOBeYL6YO9Kg0tTZ25mN2S8arSdn7dG25Zyc6DlRIGjMKHjpZa1FI855yy7d
pseMKVdh44HMsJdXgOZNG0mrdVHEfEskklS59bZmL5O6CtIYyWpTpp8r5JtYrZnH
thYZJ2IU61cD69ckcXPh0bly+Q5uAi1JoU5O+0QYrwdzUtX249FlaSsmPpTjx4er
AGnPHNvaUeAiLhUu8qdaWR2wghQQfi2xxmY7dIf+BXBl5d9+tt/i8ohtCFiJUupu
AJ20TWJGV8LHGRtEYmPvw2XRsz7RAgMBAAGjUzBRMB0GA1UdDgQWBBQWaZVIx8O1
Yd+WPL1SGJerjy8S2jAfBgNVHSMEGDAWgBQWaZVIx8O1Yd+WPL1SGJerjy8S2jAP
BgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQA6N2JDZZvBkLlqBSKL
4Dk1PON3BU+XL+3Ol5JcHx+/KIKVj1K2bQY2JTDZ/40SN01+S0sk9X0+hByIWjhw
6LV5WBmEgSf85141WEX+s/ecTmB/9L+LrGrAIfwdJkr/3oCdIRDYLIOpw8ZFRzZi
NBXCrp0UOOZS9Pcn+vaNr8q/OWjb1pHM5gO95kmUDf6cebV6YatAYfOGzYrKEITX
iG25iZhRDRP74vp9f8sGBb7jN+hoNq0lk88Klubxrz+nfWR1hZL33mhoMUPX0H4z
sjuFklmZfRK/ei6cOb1RbvGi4fc9G9usvMWI0iKmu1cKA3uTGX6TWl1gumt0Lcgv
Xtrf
-----END CERTIFICATE-----
`.trim();

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
