import { atLeast, type Role } from '../platform/policy/roles';

/** The caller's membership of the invite's organization, if any. */
export interface CallerMembership {
  role: Role | null;
  disabled: boolean;
}

/**
 * GitBook's `redundant`: the caller already has everything the invite would give. A guest
 * invite (null role) gives membership only, so any active membership makes it redundant; a
 * disabled membership has nothing (and only an admin can enable it again: joining cannot).
 */
export function inviteIsRedundant(
  membership: CallerMembership | null,
  inviteRole: Role | null,
): boolean {
  if (!membership || membership.disabled) return false;
  return inviteRole === null || atLeast(membership.role, inviteRole);
}

/**
 * `redundant` for a space or collection invite: the caller is an active member and its
 * effective role there (`roleThere`, null when it has none) is already `level` or more.
 */
export function contentInviteIsRedundant(
  membership: CallerMembership | null,
  roleThere: Role | null,
  level: Role,
): boolean {
  if (!membership || membership.disabled) return false;
  return atLeast(roleThere, level);
}
