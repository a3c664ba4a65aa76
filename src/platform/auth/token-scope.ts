import { DomainError } from '../errors/domain-error';
import type { AccessRequirement, ResolvedAccess } from '../policy/access';
import type { TokenScope } from './actor';

/**
 * What a scoped API token may reach, decided by the access guard around the resource policies
 * (which decide what its user may do: a scoped token never does more).
 *
 * - `read-only`: reads only: GET and HEAD, and the POSTs declared `reads` (searches).
 * - `organization`: resources of that organization only; the others are unseen (404), as are
 *   routes not about one organization (403), unless declared `limitedTokens` (the caller's own
 *   profile; the list of organizations, narrowed to the token's).
 * - `spaces`, `sites`: within the organization, the named spaces and what they hold, the named
 *   sites and what they hold; other spaces and sites are unseen (404), anything else is
 *   refused (403).
 * - A write that `reaches` further than its resource (a move, a duplicate, a transfer) is
 *   refused to tokens limited to less than it reaches.
 */

const READ_METHODS = new Set(['GET', 'HEAD']);

const scopeError = (code: string, message: string) => new DomainError('forbidden', code, message);

/** Whether the token is limited to some spaces or sites of its organization. */
function limitedToSome(scope: TokenScope): boolean {
  return scope.spaces !== null || scope.sites !== null;
}

/** Why the route is out of the token's reach before any resource is read; null when it is not. */
export function routeRefusal(
  scope: TokenScope,
  method: string,
  requirement: Exclude<AccessRequirement, { kind: 'public' } | { kind: 'admin' }>,
): DomainError | null {
  const reads =
    READ_METHODS.has(method) || (requirement.kind === 'resource' && requirement.reads === true);
  if (scope.access === 'read-only' && !reads) {
    return scopeError('TokenReadOnly', 'This token is read-only: it cannot make changes.');
  }
  if (scope.organization === null) return null;
  if (requirement.kind === 'user') {
    return requirement.limitedTokens
      ? null
      : scopeError(
          'TokenOutOfScope',
          'This token is limited to one organization: it cannot use routes about others, or about the account.',
        );
  }
  if (requirement.reaches === 'otherOrganizations') {
    return scopeError(
      'TokenOutOfScope',
      'This token is limited to one organization: it cannot take content to another.',
    );
  }
  if (requirement.reaches === 'organization' && limitedToSome(scope)) {
    return scopeError(
      'TokenOutOfScope',
      'This token is limited to some spaces or sites: it cannot place or copy content elsewhere.',
    );
  }
  return null;
}

/**
 * Whether a resource the user sees is also one the token sees: in its organization, and not
 * another space or site than those it names. Applied to every resource a request resolves, its
 * parents included, so an unseen one answers the 404 it would for any caller who cannot see it.
 */
export function seesResource(scope: TokenScope, access: ResolvedAccess): boolean {
  if (scope.organization !== null && access.organizationId !== scope.organization) return false;
  if (!limitedToSome(scope)) return true;
  if (access.spaceId !== undefined && !scope.spaces?.includes(access.spaceId)) return false;
  if (access.siteId !== undefined && !scope.sites?.includes(access.siteId)) return false;
  return true;
}

/**
 * Why the route's resource, which the token sees, is still out of its reach: a token limited to
 * spaces or sites reaches only resources in them, nothing of the organization around them.
 */
export function resourceRefusal(scope: TokenScope, access: ResolvedAccess): DomainError | null {
  if (!limitedToSome(scope)) return null;
  if (access.spaceId !== undefined || access.siteId !== undefined) return null;
  return scopeError(
    'TokenOutOfScope',
    'This token is limited to some spaces or sites: this route is outside them.',
  );
}
