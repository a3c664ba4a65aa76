import { atLeast, Role } from '../platform/policy/roles';

/** GitBook's `Space.permissions`. */
export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}

/**
 * What a caller whose effective role on the space is `role` may do. Whoever sees a space may
 * open it; `edit` (and merging, and starting a Git sync) needs the edit role, reviewing the
 * review role, administering it (settings, invite links, integrations) the admin role.
 */
export function spacePermissions(role: Role | null): SpacePermissions {
  const admin = atLeast(role, 'admin');
  const edit = atLeast(role, 'edit');
  return {
    view: true,
    access: true,
    admin,
    viewInviteLinks: admin,
    edit,
    triggerGitSync: edit,
    comment: atLeast(role, 'comment'),
    merge: edit,
    review: atLeast(role, 'review'),
    installIntegration: admin,
  };
}
