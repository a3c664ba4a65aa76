import { ROLES, type Role } from '../roles';

/**
 * Roles as numbers, for SQL that picks the highest of several roles: the rank list is the one of
 * roles.ts (highest first), so `admin` is the largest number and `read` is 1.
 */
export const ROLE_RANKS: Readonly<Record<Role, number>> = Object.fromEntries(
  ROLES.map((role, i) => [role, ROLES.length - i]),
) as Record<Role, number>;

/** SQL: the rank of the role in `expression`; NULL for NULL or for anything that is not a role. */
export function roleRankSql(expression: string): string {
  const cases = ROLES.map((role) => `WHEN '${role}' THEN ${ROLE_RANKS[role]}`).join(' ');
  return `(CASE ${expression} ${cases} END)`;
}

/** The role of a rank read back from SQL (node-postgres may give it as a string). */
export function roleOfRank(rank: number | string): Role {
  const role = ROLES[ROLES.length - Number(rank)];
  if (role === undefined) throw new Error(`No role has rank ${String(rank)}`);
  return role;
}
