import { createSecretKey } from 'node:crypto';
import { JsonWebTokenError, TokenExpiredError, verify } from 'jsonwebtoken';
import { signVisitorClaims, VISITOR_CLAIMS_TTL_SECONDS } from './visitor-claims';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
/** The key as the instance secret hands it out; tokens verify with its text as well. */
const KEY = createSecretKey(Buffer.from(SECRET));
const NOW = new Date('2026-03-04T05:06:07.890Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
const CLAIMS = {
  userId: 'user1',
  organizationId: 'org1',
  role: 'edit' as const,
  email: 'ada@example.com',
};

describe('signVisitorClaims', () => {
  it('signs the member claims with HS256, issued now, for one hour', () => {
    const token = signVisitorClaims(CLAIMS, KEY, NOW);
    const decoded = verify(token, SECRET, {
      algorithms: ['HS256'],
      issuer: 'bindery',
      clockTimestamp: NOW_SECONDS,
    });
    expect(decoded).toEqual({
      sub: 'user1',
      organization: 'org1',
      role: 'edit',
      email: 'ada@example.com',
      iss: 'bindery',
      iat: NOW_SECONDS,
      exp: NOW_SECONDS + VISITOR_CLAIMS_TTL_SECONDS,
    });
    expect(VISITOR_CLAIMS_TTL_SECONDS).toBe(3600);
  });

  it('carries a null role for a guest', () => {
    const token = signVisitorClaims({ ...CLAIMS, role: null }, KEY, NOW);
    const decoded = verify(token, SECRET, { clockTimestamp: NOW_SECONDS }) as { role: unknown };
    expect(decoded.role).toBeNull();
  });

  it('expires after an hour', () => {
    const token = signVisitorClaims(CLAIMS, KEY, NOW);
    expect(() => verify(token, SECRET, { clockTimestamp: NOW_SECONDS + 3601 })).toThrow(
      TokenExpiredError,
    );
  });

  it('does not verify with another secret', () => {
    const token = signVisitorClaims(CLAIMS, KEY, NOW);
    expect(() =>
      verify(token, 'another-secret-of-at-least-32-characters', { clockTimestamp: NOW_SECONDS }),
    ).toThrow(JsonWebTokenError);
  });
});
