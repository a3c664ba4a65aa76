import { highestRole, type Role } from '../platform/policy/roles';

/**
 * The organization roles site routes need (`@Access('organization', SITE_READ)`): every member
 * with a role reads sites and their structure; changing them takes the `create` role, as
 * creating content does (`organizationPermissions(...).createContent`).
 */
export const SITE_READ: Role = 'read';
export const SITE_WRITE: Role = 'create';

/**
 * A member's role on one site: the higher of its organization role (null for a guest) and the
 * roles granted on the site to it or a team of its (`inviteToSite`). A guest holds only its
 * grants; a removed grant no longer counts.
 */
export function siteRole(organizationRole: Role | null, grantRoles: readonly Role[]): Role | null {
  return highestRole(organizationRole, ...grantRoles);
}
