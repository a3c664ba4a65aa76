import { highestRole, ROLES } from '../roles';
import { ROLE_RANKS, roleOfRank, roleRankSql } from './role-rank';

describe('role ranks', () => {
  it.each(ROLES.flatMap((a) => ROLES.map((b) => [a, b] as const)))(
    'orders %s and %s as highestRole does',
    (a, b) => {
      const higher = ROLE_RANKS[a] >= ROLE_RANKS[b] ? a : b;
      expect(higher).toBe(highestRole(a, b));
      expect(ROLE_RANKS[a] === ROLE_RANKS[b]).toBe(a === b);
    },
  );

  it.each(ROLES)('reads %s back from its rank, as a number or a string', (role) => {
    expect(roleOfRank(ROLE_RANKS[role])).toBe(role);
    expect(roleOfRank(String(ROLE_RANKS[role]))).toBe(role);
  });

  it('refuses a rank that is no role', () => {
    expect(() => roleOfRank(0)).toThrow('No role has rank 0');
    expect(() => roleOfRank(ROLES.length + 1)).toThrow();
  });

  it('maps every role to its rank in SQL, and nothing else', () => {
    expect(roleRankSql('g.role')).toBe(
      "(CASE g.role WHEN 'admin' THEN 6 WHEN 'create' THEN 5 WHEN 'review' THEN 4 " +
        "WHEN 'edit' THEN 3 WHEN 'comment' THEN 2 WHEN 'read' THEN 1 END)",
    );
  });
});
