import { atLeast, Role } from '../platform/policy/roles';

/** GitBook's `Collection.permissions`. */
export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}

/**
 * What a caller whose effective role on the collection is `role` may do; null is a caller who
 * sees the collection (an organization guest holding no role on it) and may only view it.
 */
export function collectionPermissions(role: Role | null): CollectionPermissions {
  const admin = atLeast(role, 'admin');
  return { view: true, admin, viewInviteLinks: admin, create: atLeast(role, 'create') };
}
