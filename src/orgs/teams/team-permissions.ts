import { atLeast, Role } from '../../platform/policy/roles';
import type { TeamRole } from './entities/team-member.entity';

export interface TeamPermissions {
  /** May see the team and list its members. */
  view: boolean;
  /** May rename the team and manage its members. */
  admin: boolean;
}

/**
 * What a caller may do with a team, from its organization role (null = guest) and its role in
 * the team (null = not in it): members from `read` up see every team, guests only their own;
 * organization admins and the team's owners manage it.
 */
export function teamPermissions(orgRole: Role | null, teamRole: TeamRole | null): TeamPermissions {
  return {
    view: atLeast(orgRole, 'read') || teamRole !== null,
    admin: orgRole === 'admin' || teamRole === 'owner',
  };
}
