import { bearerMatches } from './metrics-token';

describe('bearerMatches', () => {
  const token = 'metrics-token-0123456789';

  it('accepts the token as a bearer token, in any case of the scheme', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token} `, token)).toBe(true);
  });

  it('refuses anything else', () => {
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(bearerMatches('', token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token} extra`, token)).toBe(false);
  });
});
