import { atLeast, highestRole, isRole, Role, ROLES } from './roles';

/** GitBook's ranking, highest first, written out independently of ROLES. */
const RANKING: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

describe('ROLES', () => {
  it('lists the roles highest first', () => {
    expect([...ROLES]).toEqual(RANKING);
  });
});

describe('atLeast', () => {
  // Every (role, required) pair: true exactly when role ranks at or above required.
  const table = RANKING.flatMap((role, roleIndex) =>
    RANKING.map((required, requiredIndex) => [role, required, roleIndex <= requiredIndex] as const),
  );

  it('covers every pair of roles', () => {
    expect(table).toHaveLength(36);
    expect(table.filter(([, , expected]) => expected)).toHaveLength(21);
  });

  it.each(table)('atLeast(%p, %p) is %p', (role, required, expected) => {
    expect(atLeast(role, required)).toBe(expected);
  });

  it.each(RANKING)('is reflexive for %p', (role) => {
    expect(atLeast(role, role)).toBe(true);
  });

  it.each(RANKING)('a missing role (null or undefined) does not satisfy %p', (required) => {
    expect(atLeast(null, required)).toBe(false);
    expect(atLeast(undefined, required)).toBe(false);
  });

  it('ranks admin > create > review > edit > comment > read', () => {
    for (let i = 0; i + 1 < RANKING.length; i++) {
      const higher = RANKING[i];
      const lower = RANKING[i + 1];
      expect(atLeast(higher, lower)).toBe(true);
      expect(atLeast(lower, higher)).toBe(false);
    }
  });

  it('lets admin do everything and read only read', () => {
    expect(RANKING.every((required) => atLeast('admin', required))).toBe(true);
    expect(RANKING.filter((required) => atLeast('read', required))).toEqual(['read']);
  });
});

describe('highestRole', () => {
  it('returns null for no grants', () => {
    expect(highestRole()).toBeNull();
  });

  it('returns null when every grant is missing', () => {
    expect(highestRole(null)).toBeNull();
    expect(highestRole(undefined)).toBeNull();
    expect(highestRole(null, undefined, null)).toBeNull();
  });

  it.each(RANKING)('returns a single grant %p', (role) => {
    expect(highestRole(role)).toBe(role);
    expect(highestRole(null, role, undefined)).toBe(role);
  });

  it.each([
    [['read', 'edit'], 'edit'],
    [['edit', 'read'], 'edit'],
    [['comment', 'review', 'read'], 'review'],
    [['read', null, 'create', undefined, 'edit'], 'create'],
    [[null, 'admin', 'read'], 'admin'],
    [['read', 'read'], 'read'],
    [['review', 'admin', 'create'], 'admin'],
  ] as [(Role | null | undefined)[], Role][])('highestRole(%p) is %p', (roles, expected) => {
    expect(highestRole(...roles)).toBe(expected);
  });

  it('returns the higher of every pair, in either order', () => {
    for (const a of RANKING) {
      for (const b of RANKING) {
        const expected = RANKING.indexOf(a) <= RANKING.indexOf(b) ? a : b;
        expect(highestRole(a, b)).toBe(expected);
        expect(highestRole(b, a)).toBe(expected);
      }
    }
  });

  it('returns the highest of all roles', () => {
    expect(highestRole(...[...RANKING].reverse())).toBe('admin');
  });
});

describe('isRole', () => {
  it.each(RANKING)('accepts %p', (role) => {
    expect(isRole(role)).toBe(true);
  });

  it.each([
    'Admin',
    'ADMIN',
    ' admin',
    'owner',
    'writer',
    'guest',
    '',
    'toString',
    'constructor',
    null,
    undefined,
    6,
    0,
    true,
    ['admin'],
    { role: 'admin' },
  ])('rejects %p', (value) => {
    expect(isRole(value)).toBe(false);
  });
});
