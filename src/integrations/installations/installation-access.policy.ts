import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Organization } from '../../orgs/entities/organization.entity';
import {
  organizationPermissions,
  type OrganizationPermissions,
} from '../../orgs/organization-permissions';
import { DomainError, forbidden, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import type { Site } from '../../sites/entities/site.entity';
import { sitePermissions } from '../../sites/site-permissions';
import { SitesService } from '../../sites/sites.service';
import type { Space } from '../../spaces/entities/space.entity';
import { spacePermissions } from '../../spaces/space-permissions';
import type { Integration } from '../entities/integration.entity';
import type { IntegrationInstallation } from './entities/integration-installation.entity';
import type { IntegrationSiteInstallation } from './entities/integration-site-installation.entity';
import type { IntegrationSpaceInstallation } from './entities/integration-space-installation.entity';
import { InstallationsRepository } from './installations.repository';

declare module '../../platform/policy/access' {
  interface ResourceTypes {
    /** An installation (`installationId`) of the route's integration. */
    integrationInstallation: true;
    /** The installation on a space (`spaceId`) of the route's installation. */
    integrationSpaceInstallation: true;
    /** The installation on a site (`siteId`) of the route's installation. */
    integrationSiteInstallation: true;
  }
  interface ResourceActions {
    integrationInstallation: InstallationAction;
    integrationSpaceInstallation: 'installIntegration';
    integrationSiteInstallation: 'installIntegration';
  }
}

/**
 * What may be done with an organization's installation, by the organization permissions GitBook
 * names: `view` (`listIntegrations`: members with a role, who may then install it on a space
 * they administer; guests hold no role in the organization), `listInstallations` and
 * `installIntegration` (its admins).
 */
export type InstallationAction = 'view' | 'listInstallations' | 'installIntegration';

/** An installation with its integration and organization; the role is the organization role. */
export interface InstallationTarget {
  integration: Integration;
  installation: IntegrationInstallation;
  organization: Organization;
}
export type InstallationAccess = ResolvedAccess<InstallationTarget> & {
  entity: InstallationTarget;
};

/** A space installation, its space and its installation; the role is the role on the space. */
export interface SpaceInstallationTarget extends InstallationTarget {
  /** The caller's role in the organization (the access's role is its role on the space). */
  organizationRole: ResolvedAccess['role'];
  space: Space;
  spaceInstallation: IntegrationSpaceInstallation;
}
export type SpaceInstallationAccess = ResolvedAccess<SpaceInstallationTarget> & {
  entity: SpaceInstallationTarget;
};

/** A site installation, its site and its installation; the role is the organization role. */
export interface SiteInstallationTarget extends InstallationTarget {
  site: Site;
  siteInstallation: IntegrationSiteInstallation;
}
export type SiteInstallationAccess = ResolvedAccess<SiteInstallationTarget> & {
  entity: SiteInstallationTarget;
};

const ORGANIZATION_REFUSALS: Record<InstallationAction, string> = {
  view: "Only the organization's members with a role see its installations.",
  listInstallations: "Only the organization's admins see its installations.",
  installIntegration: "Only the organization's admins install and configure integrations.",
};

/** Refused when the organization role does not open `permission`. */
export function organizationRefusal(
  role: ResolvedAccess['role'],
  permission: InstallationAction,
): DomainError | null {
  const permissions: Record<InstallationAction, keyof OrganizationPermissions> = {
    view: 'listIntegrations',
    listInstallations: 'listInstallations',
    installIntegration: 'installIntegration',
  };
  return organizationPermissions(role)[permissions[permission]]
    ? null
    : forbidden(ORGANIZATION_REFUSALS[permission]);
}

export const SPACE_INSTALL_REFUSAL = "Only the space's admins install integrations on it.";
export const SITE_INSTALL_REFUSAL = "Only the site's admins install integrations on it.";

/**
 * The access policy of installations, below the integration the route names (as the caller
 * sees it: a private one only in its organization). An organization's installation is found
 * for the members of that organization (a guest then gets 403: it holds no role there); a
 * caller of another organization gets 404, as for one that does not exist. A space
 * installation is found for whoever sees the space, and changed by its admins (GitBook's space
 * `installIntegration`) who hold a role in the organization; a site installation is found for
 * the members of the organization, and changed by its admins (the site's `installIntegration`).
 */
@Injectable()
export class InstallationAccessPolicy implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
    private readonly installations: InstallationsRepository,
    private readonly sites: SitesService,
  ) {}

  onModuleInit(): void {
    this.policy.register('integrationInstallation', {
      resolver: { resolve: (_userId, id, context) => this.resolveInstallation(id, context!) },
      noun: 'integration installation',
      actions: {
        view: (access) => organizationRefusal(access.role, 'view'),
        listInstallations: (access) => organizationRefusal(access.role, 'listInstallations'),
        installIntegration: (access) => organizationRefusal(access.role, 'installIntegration'),
      },
    });
    this.policy.register('integrationSpaceInstallation', {
      resolver: { resolve: (_userId, id, context) => this.resolveSpaceInstallation(id, context!) },
      noun: 'integration space installation',
      actions: {
        // Below the organization's installation, which its members with a role see.
        installIntegration: (access) =>
          organizationRefusal(
            (access as SpaceInstallationAccess).entity.organizationRole,
            'view',
          ) ??
          (spacePermissions(access.role).installIntegration
            ? null
            : forbidden(SPACE_INSTALL_REFUSAL)),
      },
    });
    this.policy.register('integrationSiteInstallation', {
      resolver: { resolve: (_userId, id, context) => this.resolveSiteInstallation(id, context!) },
      noun: 'integration site installation',
      actions: {
        installIntegration: (access) =>
          sitePermissions(access.role).installIntegration ? null : forbidden(SITE_INSTALL_REFUSAL),
      },
    });
  }

  /**
   * The route's integration's installation `id`, as the caller sees its integration and
   * organization (parents of the route, resolved for whoever calls: a member, an integration).
   */
  async resolveInstallation(
    id: string,
    context: AccessContext,
  ): Promise<InstallationAccess | null> {
    const integration = (await context.parent(
      'integration',
      context.params.integrationName,
    )) as ResolvedAccess<Integration> | null;
    if (!integration) throw notFound('Integration');
    const installation = await this.installations.findInstallation(integration.entity!.id, id);
    if (!installation) return null;
    const organization = (await context.parent(
      'organization',
      installation.organizationId,
    )) as ResolvedAccess<Organization> | null;
    if (!organization) return null;
    return {
      resource: 'integrationInstallation',
      id,
      organizationId: organization.id,
      role: organization.role,
      entity: {
        integration: integration.entity!,
        installation,
        organization: organization.entity!,
      },
    };
  }

  /**
   * The route's installation: its own 404 when it is missing or unseen (null for a route that
   * proceeds without its resource: a delete answers 204).
   */
  private async parent(context: AccessContext): Promise<InstallationAccess | null> {
    const installation = (await context.parent(
      'integrationInstallation',
      context.params.installationId,
    )) as InstallationAccess | null;
    if (!installation && !context.proceedsIfAbsent) throw notFound('Integration installation');
    return installation;
  }

  async resolveSpaceInstallation(
    spaceId: string,
    context: AccessContext,
  ): Promise<SpaceInstallationAccess | null> {
    const parent = await this.parent(context);
    if (!parent) return null;
    const space = (await context.parent('space', spaceId)) as ResolvedAccess<Space> | null;
    if (!space || space.organizationId !== parent.organizationId) return null;
    const row = await this.installations.findContent(
      'space',
      parent.entity.installation.id,
      spaceId,
    );
    if (!row) return null;
    return {
      resource: 'integrationSpaceInstallation',
      id: spaceId,
      organizationId: parent.organizationId,
      spaceId,
      role: space.role,
      entity: {
        ...parent.entity,
        organizationRole: parent.role,
        space: space.entity!,
        spaceInstallation: row as IntegrationSpaceInstallation,
      },
    };
  }

  async resolveSiteInstallation(
    siteId: string,
    context: AccessContext,
  ): Promise<SiteInstallationAccess | null> {
    const parent = await this.parent(context);
    if (!parent) return null;
    const site = await this.siteOf(parent.organizationId, siteId);
    if (!site) return null;
    const row = await this.installations.findContent('site', parent.entity.installation.id, siteId);
    if (!row) return null;
    return {
      resource: 'integrationSiteInstallation',
      id: siteId,
      organizationId: parent.organizationId,
      siteId,
      role: parent.role,
      entity: {
        ...parent.entity,
        site,
        siteInstallation: row as IntegrationSiteInstallation,
      },
    };
  }

  /** The organization's site `siteId`, null when it has none by that id. */
  async siteOf(organizationId: string, siteId: string): Promise<Site | null> {
    try {
      return await this.sites.findForOrganization(this.dataSource.manager, organizationId, siteId);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return null;
      throw error;
    }
  }
}
