import { X509Certificate } from 'node:crypto';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** True when `value` is a PEM-encoded X.509 certificate that OpenSSL can parse. */
export function isX509CertificatePem(value: unknown): boolean {
  if (typeof value !== 'string' || !value.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    new X509Certificate(value);
    return true;
  } catch {
    return false;
  }
}

/** class-validator: the property is a PEM-encoded X.509 certificate. */
export function IsX509CertificatePem(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isX509CertificatePem',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ property }) => `${property} must be a PEM-encoded X.509 certificate`,
        ...options,
      },
      validator: { validate: isX509CertificatePem },
    });
}
