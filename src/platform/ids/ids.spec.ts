import { ID_PATTERN, newId, newSecret, sha256Hex } from './ids';

describe('newId', () => {
  it('is 20 url-safe characters matching ID_PATTERN', () => {
    for (let i = 0; i < 100; i++) {
      const id = newId();
      expect(id).toHaveLength(20);
      expect(id).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect(id).toMatch(ID_PATTERN);
    }
  });

  it('is unique over 10,000 draws', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId()));
    expect(ids.size).toBe(10_000);
  });

  it('decodes to 15 random bytes (120 bits)', () => {
    expect(Buffer.from(newId(), 'base64url')).toHaveLength(15);
  });
});

describe('newSecret', () => {
  it('starts with the prefix, followed by at least 43 base64url characters', () => {
    const secret = newSecret('bnd_');
    expect(secret.startsWith('bnd_')).toBe(true);
    const rest = secret.slice('bnd_'.length);
    expect(rest.length).toBeGreaterThanOrEqual(43);
    expect(rest).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(rest, 'base64url')).toHaveLength(32);
  });

  it('has no prefix by default', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('differs on every draw', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => newSecret('bnd_')));
    expect(secrets.size).toBe(1000);
  });
});

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('hashes %p to the known digest', (input, digest) => {
    expect(sha256Hex(input)).toBe(digest);
  });

  it('hashes a Buffer like the same string', () => {
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
  });

  it('hashes UTF-8 text', () => {
    // sha256 of the UTF-8 bytes of "é" (c3 a9).
    expect(sha256Hex('é')).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
    expect(sha256Hex('é')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('ID_PATTERN', () => {
  it.each(['a', 'Abc_123-xyz', 'x'.repeat(64)])('accepts %p', (id) => {
    expect(ID_PATTERN.test(id)).toBe(true);
  });

  it.each(['', 'x'.repeat(65), 'a b', 'a/b', 'a.b', 'a+b', 'é', 'abc\n'])('rejects %p', (id) => {
    expect(ID_PATTERN.test(id)).toBe(false);
  });
});
