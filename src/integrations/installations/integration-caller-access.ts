import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import type { IntegrationCallerActor } from '../../platform/auth/actor';
import { notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import {
  type AccessContext,
  type IntegrationCallerResolver,
  PolicyService,
} from '../../platform/policy/policy.service';
import type { SiteAccess } from '../../sites/site-access.policy';
import { Space } from '../../spaces/entities/space.entity';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { InstallationsRepository } from './installations.repository';
import {
  InstallationAccessPolicy,
  type InstallationAccess,
  type SiteInstallationAccess,
  type SpaceInstallationAccess,
} from './installation-access.policy';

/**
 * What an integration's script reaches with its tokens (GitBook's `integration` and
 * `integration-installation` security schemes), on the routes that admit them:
 *
 * - the integration itself, by its own name only;
 * - its installations (an installation's token: itself only), which it administers: it
 *   configures them and installs itself on their spaces and sites (role `admin` there);
 * - the organizations it is installed on, and there the spaces and sites its installation
 *   covers: all of them when its selection is `all`, else those it is installed on. It holds the
 *   `read` role on those spaces and sites (reads only; writes are refused as to a reader), and
 *   none in the organization. Spaces in the trash are not reached.
 *
 * Everything else is absent (404). Every request reads the installation again, so a token of
 * an uninstalled integration reaches nothing at once.
 */
@Injectable()
export class IntegrationCallerAccess implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly installationPolicy: InstallationAccessPolicy,
  ) {}

  onModuleInit(): void {
    this.admit('integration', (caller, name) => this.integration(caller, name));
    this.admit('organization', (caller, id) => this.organization(caller, id));
    this.admit('space', (caller, id) => this.space(caller, id));
    this.admit('spaceIncludingDeleted', (caller, id) => this.space(caller, id));
    this.admit('site', (caller, id, context) => this.site(caller, id, context));
    this.admit('integrationInstallation', (caller, id, context) =>
      this.installation(caller, id, context),
    );
    this.admit('integrationSpaceInstallation', async (_caller, id, context) => {
      const access = await this.installationPolicy.resolveSpaceInstallation(id, context);
      return access && administered(access, { organizationRole: 'admin' });
    });
    this.admit('integrationSiteInstallation', async (_caller, id, context) => {
      const access = await this.installationPolicy.resolveSiteInstallation(id, context);
      return access && administered(access, {});
    });
  }

  private admit(
    resource: Parameters<PolicyService['admitIntegrations']>[0],
    resolver: IntegrationCallerResolver,
  ): void {
    this.policy.admitIntegrations(resource, resolver);
  }

  private async integration(
    caller: IntegrationCallerActor,
    name: string,
  ): Promise<ResolvedAccess<Integration> | null> {
    const integration = await this.integrations.findByName(name);
    if (!integration || integration.id !== caller.integrationId) return null;
    return {
      resource: 'integration',
      id: integration.name,
      organizationId: integration.organizationId,
      role: caller.kind === 'integration' ? 'admin' : null,
      entity: integration,
    };
  }

  private async installation(
    caller: IntegrationCallerActor,
    id: string,
    context: AccessContext,
  ): Promise<InstallationAccess | null> {
    if (caller.kind === 'installation' && id !== caller.installationId) return null;
    const access = await this.installationPolicy.resolveInstallation(id, context);
    return access && administered(access, {});
  }

  private async organization(
    caller: IntegrationCallerActor,
    organizationId: string,
  ): Promise<ResolvedAccess<Organization> | null> {
    if (caller.kind === 'installation' && organizationId !== caller.organizationId) return null;
    const installed = await this.installations.covers(caller.integrationId, organizationId, {
      installationId: callerInstallation(caller),
    });
    if (!installed) return null;
    const organization = await this.dataSource.manager.findOneBy(Organization, {
      id: organizationId,
    });
    if (!organization) return null;
    return {
      resource: 'organization',
      id: organization.id,
      organizationId: organization.id,
      role: null,
      entity: organization,
    };
  }

  private async space(
    caller: IntegrationCallerActor,
    spaceId: string,
  ): Promise<SpaceAccess | null> {
    const space = await this.dataSource.manager.findOneBy(Space, { id: spaceId });
    if (!space || space.deletedAt !== null) return null;
    if (!(await this.covers(caller, space.organizationId, 'space', spaceId))) return null;
    return {
      resource: 'space',
      id: space.id,
      organizationId: space.organizationId,
      spaceId: space.id,
      role: 'read',
      entity: space,
    };
  }

  private async site(
    caller: IntegrationCallerActor,
    siteId: string,
    context: AccessContext,
  ): Promise<SiteAccess | null> {
    const organization = (await context.parent(
      'organization',
      context.params.organizationId,
    )) as ResolvedAccess<Organization> | null;
    if (!organization) throw notFound('Organization');
    if (!(await this.covers(caller, organization.id, 'site', siteId))) return null;
    const site = await this.installationPolicy.siteOf(organization.id, siteId);
    if (!site) return null;
    return {
      resource: 'site',
      id: site.id,
      organizationId: organization.id,
      siteId: site.id,
      role: 'read',
      entity: { organization: organization.entity!, site },
    };
  }

  /** Whether the caller's installation on the organization covers the space or site. */
  private covers(
    caller: IntegrationCallerActor,
    organizationId: string,
    kind: 'space' | 'site',
    contentId: string,
  ): Promise<boolean> {
    return this.installations.covers(caller.integrationId, organizationId, {
      installationId: callerInstallation(caller),
      content: { kind, contentId },
    });
  }
}

/** The installation an installation's token is limited to; null for the integration's token. */
function callerInstallation(caller: IntegrationCallerActor): string | null {
  return caller.kind === 'installation' ? caller.installationId : null;
}

/**
 * An installation-level access as the integration holds it: it administers its own
 * installations, whatever role a member would need.
 */
function administered<
  T extends InstallationAccess | SpaceInstallationAccess | SiteInstallationAccess,
>(access: T, entity: Partial<SpaceInstallationAccess['entity']>): T {
  return { ...access, role: 'admin', entity: { ...access.entity, ...entity } };
}
