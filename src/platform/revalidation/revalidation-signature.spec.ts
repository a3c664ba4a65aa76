import { revalidationSignature } from './revalidation-signature';

describe('revalidationSignature', () => {
  it('is the lowercase hex HMAC-SHA256 of the body (RFC 4231, test case 2)', () => {
    expect(revalidationSignature('what do ya want for nothing?', 'Jefe')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('signs the exact bytes of a revalidation body (as `openssl dgst -sha256 -hmac` does)', () => {
    const body = Buffer.from('{"tags":["site:abc"]}');
    expect(revalidationSignature(body, 'renderer-secret')).toBe(
      'cd1fb2ec3ed3523679f293a12ef610482fdb66955d2203497306fc63b2c779bc',
    );
    // One byte more is another signature: the renderer signs what it receives.
    expect(revalidationSignature('{"tags":["site:abc"]} ', 'renderer-secret')).not.toBe(
      revalidationSignature(body, 'renderer-secret'),
    );
  });
});
