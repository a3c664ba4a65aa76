import type { Role } from './roles';

/**
 * Resource types the policy knows. A module adds its own by augmentation, next to its
 * resolver:  declare module '../platform/policy/access' { interface ResourceTypes { space: true } }
 */
export interface ResourceTypes {
  organization: true;
}
export type ResourceType = keyof ResourceTypes;

/** `view`: the caller may see the resource at all (e.g. a guest member); otherwise a minimum role. */
export type AccessLevel = 'view' | Role;

/** What the caller may do on one resource: its effective role (null = sees it, holds no role). */
export interface ResolvedAccess<T = unknown> {
  resource: ResourceType;
  id: string;
  organizationId: string;
  role: Role | null;
  /**
   * The resource itself when the resolver had to load it to decide (it usually does), so the
   * handler does not read it again.
   */
  entity?: T;
}

export type AccessRequirement =
  | { kind: 'public' }
  /** Any signed-in user; with `admin`, the instance administrator too. */
  | { kind: 'user'; admin?: boolean }
  | { kind: 'admin' }
  | { kind: 'resource'; resource: ResourceType; param: string; level: AccessLevel };

export function describeRequirement(requirement: AccessRequirement): string {
  switch (requirement.kind) {
    case 'public':
      return 'public';
    case 'user':
      return requirement.admin ? 'any user or instance administrator' : 'any user';
    case 'admin':
      return 'instance administrator';
    case 'resource':
      return `${requirement.resource}:${requirement.level}`;
  }
}
