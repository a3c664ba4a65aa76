/** Member and content roles, highest first (GitBook's ranking). */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` is `required` or higher; a missing role (guest, no grant) satisfies nothing. */
export function atLeast(role: Role | null | undefined, required: Role): boolean {
  return role != null && RANK[role] >= RANK[required];
}

/** The highest of several grants, or null when there is none. */
export function highestRole(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (role != null && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}
