import type { InstanceSecret } from '../../platform/settings/instance-secret';
import { CredentialsCipher } from './credentials-cipher';

const secret = (value: string) => ({ value }) as InstanceSecret;

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
});
