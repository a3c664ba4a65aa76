import type { Role } from '../../platform/policy/roles';

export interface AdminSeat {
  userId: string;
  disabled: boolean;
}

export interface MembershipChange {
  userId: string;
  /** The member's role now. */
  role: Role | null;
  disabled: boolean;
  /** Its role after the change; undefined when the member leaves the organization. */
  next?: Role | null;
}

/**
 * True when the change would leave the organization without an enabled admin: the member is
 * its only enabled admin and stops being one. `admins` are the organization's admin members,
 * read under a lock by the caller.
 */
export function removesLastAdmin(admins: AdminSeat[], change: MembershipChange): boolean {
  if (change.role !== 'admin' || change.disabled || change.next === 'admin') return false;
  return !admins.some((admin) => admin.userId !== change.userId && !admin.disabled);
}
