import { Injectable, OnModuleInit } from '@nestjs/common';
import type { ResolvedAccess } from '../platform/policy/access';
import { isRole, type Role } from '../platform/policy/roles';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import type { Integration } from './entities/integration.entity';
import { IntegrationsRepository } from './integrations.repository';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    integration: true;
  }
}

/**
 * Who sees an integration (the resource is named by its `integrationName`): anyone signed in
 * sees a public or unlisted one; a private one only the members of the organization that owns
 * it. The caller's role is its role in that organization: its admins administer it.
 */
@Injectable()
export class IntegrationAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    this.policy.register('integration', this);
  }

  async resolve(userId: string, name: string): Promise<ResolvedAccess<Integration> | null> {
    const found = await this.integrations.findWithMembership(name, userId);
    if (!found) return null;
    const { integration, isMember, role } = found;
    if (integration.visibility === 'private' && !isMember) return null;
    return {
      resource: 'integration',
      id: integration.name,
      organizationId: integration.organizationId,
      role: isMember && role !== null && isRole(role) ? (role as Role) : null,
      entity: integration,
    };
  }
}
