import { atLeast, type Role } from '../platform/policy/roles';

/**
 * The organization roles translation routes need: every member with a role reads them;
 * creating, changing, running and deleting them takes the create role (a run creates a space
 * beside the source, which the same role allows).
 */
export const TRANSLATION_READ: Role = 'read';
export const TRANSLATION_WRITE: Role = 'create';

/** GitBook's `Translation.permissions` for a member with organization role `role`. */
export function translationPermissions(role: Role | null): { view: boolean; edit: boolean } {
  return { view: atLeast(role, TRANSLATION_READ), edit: atLeast(role, TRANSLATION_WRITE) };
}
