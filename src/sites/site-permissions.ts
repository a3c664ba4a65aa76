import { atLeast, type Role } from '../platform/policy/roles';
import { SITE_READ, SITE_WRITE } from './site-access';

/** GitBook's `Site.permissions` (API 0.201.0). */
export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

/**
 * What a caller whose role on the site is `role` (its organization role raised by the site's
 * grants, siteRole; null: not a member with a role, such as a reader of a published site) may
 * do with a site, by the needs of the site routes: whoever sees
 * the site may view it; members with a role open it and read its settings (`SITE_READ`); the
 * `create` role changes its structure, settings and adaptive schema (`SITE_WRITE`); the edit
 * role edits content; administering it and its integrations needs the admin role.
 */
export function sitePermissions(role: Role | null): SitePermissions {
  const read = atLeast(role, SITE_READ);
  const write = atLeast(role, SITE_WRITE);
  const admin = atLeast(role, 'admin');
  return {
    view: true,
    access: read,
    edit: atLeast(role, 'edit'),
    create: write,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: read,
    editAdaptiveSchema: write,
  };
}
