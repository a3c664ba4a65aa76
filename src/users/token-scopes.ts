import { Injectable } from '@nestjs/common';
import type { TokenScope } from '../platform/auth/actor';
import { invalidInput } from '../platform/errors/domain-error';
import { PolicyService } from '../platform/policy/policy.service';
import type { TokenScopesDto } from './dto/admin-user.dto';

/**
 * A new token's scope, from what its creator asked: the organization, spaces and sites it
 * names must be ones the token's user sees (a 400 names the first that is not), spaces and
 * sites in that organization. The guard enforces it (platform/auth/token-scope.ts).
 */
@Injectable()
export class TokenScopes {
  constructor(private readonly policy: PolicyService) {}

  /** The scope to store; null for a token that may do all its user may. */
  async read(userId: string, input: TokenScopesDto | undefined): Promise<TokenScope | null> {
    if (!input) return null;
    const access = input.access ?? 'read-write';
    const organization = input.organization ?? null;
    if (organization === null) {
      if (input.spaces || input.sites) {
        throw invalidInput('scopes.spaces and scopes.sites need scopes.organization, theirs.');
      }
      return access === 'read-write' ? null : { access, organization, spaces: null, sites: null };
    }
    const seen = await this.policy.resolveOutsideRequest(userId, 'organization', organization, {
      organizationId: organization,
    });
    if (!seen) throw invalidInput(`scopes.organization: no organization ${organization} of yours.`);
    const spaces = input.spaces ? [...new Set(input.spaces)] : null;
    for (const spaceId of spaces ?? []) {
      const space = await this.policy.resolveOutsideRequest(userId, 'space', spaceId, { spaceId });
      if (space?.organizationId !== organization) {
        throw invalidInput(`scopes.spaces: no space ${spaceId} you see in that organization.`);
      }
    }
    const sites = input.sites ? [...new Set(input.sites)] : null;
    for (const siteId of sites ?? []) {
      const site = await this.policy.resolveOutsideRequest(userId, 'site', siteId, {
        organizationId: organization,
        siteId,
      });
      if (!site)
        throw invalidInput(`scopes.sites: no site ${siteId} you see in that organization.`);
    }
    return { access, organization, spaces, sites };
  }
}
