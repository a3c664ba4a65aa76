import { atLeast, type Role } from '../platform/policy/roles';

/**
 * The organization roles OpenAPI routes need (`@Access('organization', OPENAPI_READ)`): every
 * member with a role reads the specifications; creating, replacing, changing and deleting them
 * takes the role of the organization permission `createOpenAPISpec` (`create`).
 */
export const OPENAPI_READ: Role = 'read';
export const OPENAPI_WRITE: Role = 'create';

/** GitBook's `OpenAPISpec.permissions`. */
export interface OpenAPISpecPermissions {
  view: boolean;
  edit: boolean;
}

/** What a member with organization role `role` (null: guest) may do with a specification. */
export function openAPISpecPermissions(role: Role | null): OpenAPISpecPermissions {
  return { view: atLeast(role, OPENAPI_READ), edit: atLeast(role, OPENAPI_WRITE) };
}
