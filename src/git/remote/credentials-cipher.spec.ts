import { SecretKeyring, type InstanceSecret } from '../../platform/settings/instance-secret';
import { SealedText } from '../../platform/settings/sealed-text';
import { CredentialsCipher } from './credentials-cipher';

const secret = (value: string, previous: string[] = []) =>
  new SealedText(new SecretKeyring(value, previous) as unknown as InstanceSecret);

describe('CredentialsCipher', () => {
  const credentials = { username: 'bot', password: 'very-secret-token' };

  it('round-trips credentials without leaving them in clear', () => {
    const cipher = new CredentialsCipher(secret('a'.repeat(40)));
    const sealed = cipher.encrypt(credentials);
    expect(sealed).not.toContain('very-secret-token');
    expect(sealed).not.toContain(Buffer.from('very-secret-token').toString('base64'));
    expect(cipher.decrypt(sealed)).toEqual(credentials);
    // A fresh IV each time.
    expect(cipher.encrypt(credentials)).not.toBe(sealed);
  });

  it('refuses a sealed value made with another secret or tampered with', () => {
    const sealed = new CredentialsCipher(secret('a'.repeat(40))).encrypt(credentials);
    expect(() => new CredentialsCipher(secret('b'.repeat(40))).decrypt(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => new CredentialsCipher(secret('a'.repeat(40))).decrypt(parts.join('.'))).toThrow();
  });

  it('reads credentials sealed with a previous secret during a rotation, and seals with the new one', () => {
    const sealed = new CredentialsCipher(secret('a'.repeat(40))).encrypt(credentials);
    const rotated = new CredentialsCipher(secret('b'.repeat(40), ['a'.repeat(40)]));
    expect(rotated.decrypt(sealed)).toEqual(credentials);
    const resealed = rotated.encrypt(credentials);
    expect(() => new CredentialsCipher(secret('a'.repeat(40))).decrypt(resealed)).toThrow();
    expect(new CredentialsCipher(secret('b'.repeat(40))).decrypt(resealed)).toEqual(credentials);
  });
});
