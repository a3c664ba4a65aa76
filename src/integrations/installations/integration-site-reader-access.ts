import { Injectable, OnModuleInit } from '@nestjs/common';
import type { SiteReaderActor } from '../../platform/auth/actor';
import type { ResolvedAccess } from '../../platform/policy/access';
import { PolicyService } from '../../platform/policy/policy.service';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { InstallationsRepository } from './installations.repository';

/**
 * What a published site's token (its renderer's) sees of integrations: those installed on the
 * site's organization, whose blocks its pages may hold (GitBook's renderer draws them with that
 * token, `renderIntegrationUIWithPost`). Which space a render may name, the render service
 * decides: one its site shows its visitor, with the integration installed there.
 */
@Injectable()
export class IntegrationSiteReaderAccess implements OnModuleInit {
  constructor(
    private readonly policy: PolicyService,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
  ) {}

  onModuleInit(): void {
    this.policy.admitSiteReaders('integration', (reader, name) => this.integration(reader, name));
  }

  private async integration(
    reader: SiteReaderActor,
    name: string,
  ): Promise<ResolvedAccess<Integration> | null> {
    const integration = await this.integrations.findByName(name);
    if (!integration) return null;
    if (
      integration.visibility === 'private' &&
      integration.organizationId !== reader.organizationId
    )
      return null;
    const installed = await this.installations.findInstallationInOrganization(
      integration.id,
      reader.organizationId,
    );
    if (!installed) return null;
    return {
      resource: 'integration',
      id: integration.name,
      organizationId: integration.organizationId,
      role: null,
      entity: integration,
    };
  }
}
