import type { Role } from '../platform/policy/roles';

/**
 * The organization roles site routes need (`@Access('organization', SITE_READ)`): every member
 * with a role reads sites and their structure; changing them takes the `create` role, as
 * creating content does (`organizationPermissions(...).createContent`).
 */
export const SITE_READ: Role = 'read';
export const SITE_WRITE: Role = 'create';
