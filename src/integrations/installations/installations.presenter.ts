import { Injectable } from '@nestjs/common';
import { SitesPresenter } from '../../sites/sites.presenter';
import { SpacesPresenter } from '../../spaces/spaces.presenter';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsPresenter } from '../integrations.presenter';
import type { IntegrationView } from '../integrations.service';
import { contentSecurityPolicyHeader } from '../manifest/content-security-policy';
import type {
  InstalledIntegrationResponse,
  IntegrationInstallationResponse,
  IntegrationSiteInstallationResponse,
  IntegrationSpaceInstallationResponse,
  SiteIntegrationScriptResponse,
  SpaceIntegrationBlocksResponse,
} from './dto/installation.response';
import { configurationStatus } from './installation-configuration';
import {
  contentIdOf,
  type ContentInstallationView,
  type InstallationView,
  type InstalledIntegrationView,
  type SiteScriptView,
  statusOf,
} from './installation-views';

/** GitBook's shapes of installations: `IntegrationInstallation`, its space and site installations. */
@Injectable()
export class InstallationsPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly integrations: IntegrationsPresenter,
    private readonly spaces: SpacesPresenter,
    private readonly sites: SitesPresenter,
  ) {}

  installation({
    integration,
    installation,
    spaces,
  }: InstallationView): IntegrationInstallationResponse {
    const location = this.location(integration, installation.id);
    return {
      id: installation.id,
      status: configurationStatus(integration, 'account', installation.configuration),
      space_selection: installation.spaceSelection,
      site_selection: installation.siteSelection,
      spaces,
      configuration: installation.configuration,
      createdAt: installation.createdAt.toISOString(),
      updatedAt: installation.updatedAt.toISOString(),
      urls: {
        location,
        app: this.urls.app('o', installation.organizationId, 'integrations', integration.name),
        ...this.endpoints(integration, installation.id),
      },
      externalIds: installation.externalIds,
      target: { organization: installation.organizationId },
    };
  }

  spaceInstallation(view: ContentInstallationView): IntegrationSpaceInstallationResponse {
    const space = view.space
      ? this.spaces.present(view.space.space, view.space.role)
      : contentIdOf(view.row);
    return { ...this.content(view), space };
  }

  siteInstallation(view: ContentInstallationView): IntegrationSiteInstallationResponse {
    const site = view.site
      ? this.sites.present(
          view.site.site.site,
          view.site.organization,
          view.site.site.siteSpaces,
          view.site.role,
        )
      : contentIdOf(view.row);
    return { ...this.content(view), site };
  }

  integration(view: IntegrationView) {
    return this.integrations.present(view);
  }

  installed({
    status,
    integration,
    target,
  }: InstalledIntegrationView): InstalledIntegrationResponse {
    return { status, integration: this.integrations.present(integration), target };
  }

  blocks(integration: Integration): SpaceIntegrationBlocksResponse {
    return { name: integration.name, blocks: integration.blocks };
  }

  /**
   * The script the site's pages load, served by the integration runtime below the site
   * installation's endpoint; its CSP as one header value.
   */
  script({ integration, installation, siteId }: SiteScriptView): SiteIntegrationScriptResponse {
    const csp = contentSecurityPolicyHeader(integration.contentSecurityPolicy);
    return {
      script: this.urls.under(
        this.location(integration, installation.id),
        'sites',
        siteId,
        'script.js',
      ),
      cookies: integration.scopes.includes('site:script:cookies'),
      ...(csp === null ? {} : { contentSecurityPolicy: csp }),
    };
  }

  /** An installation's public endpoint (installation-endpoint.controller.ts), below its location. */
  private endpoints(integration: Integration, installationId: string, ...below: string[]) {
    const publicEndpoint = this.urls.integrationEndpoint(
      'integrations',
      integration.name,
      'installations',
      installationId,
      ...below,
      'integration',
    );
    return { publicEndpoint, publicContentEndpoint: publicEndpoint };
  }

  private content(view: ContentInstallationView) {
    const { kind, integration, installation, row } = view;
    const location = this.urls.under(
      this.location(integration, installation.id),
      `${kind}s`,
      contentIdOf(row),
    );
    return {
      integration: integration.name,
      installation: installation.id,
      status: statusOf(view),
      configuration: row.configuration,
      externalIds: row.externalIds,
      urls: {
        location,
        ...this.endpoints(integration, installation.id, `${kind}s`, contentIdOf(row)),
      },
    };
  }

  /** The installation in the API; its public endpoint is below it (`endpoints`). */
  private location(integration: Integration, installationId: string): string {
    return this.urls.api('integrations', integration.name, 'installations', installationId);
  }
}
