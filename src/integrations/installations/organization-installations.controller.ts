import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, type Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { SITE_READ } from '../../sites/site-access';
import { IntegrationResponse } from '../dto/integration.response';
import { ListIntegrationsQueryDto } from '../dto/publish-integration.dto';
import { IntegrationSearchQueryDto, IntegrationsStatusQueryDto } from './dto/installation.dto';
import {
  InstalledIntegrationResponse,
  IntegrationStatusResponse,
  OrganizationInstallationResponse,
  SiteIntegrationScriptResponse,
} from './dto/installation.response';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsService } from './installations.service';
import { SiteScriptsService } from './site-scripts.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * What is installed on an organization and its sites, as GitBook's organization and site
 * routes answer it. Listing integrations takes the organization's `listIntegrations` (members
 * with a role), listing installations its `listInstallations` (admins).
 */
@Controller('orgs/:organizationId')
export class OrganizationInstallationsController {
  constructor(
    private readonly installations: InstallationsService,
    private readonly presenter: InstallationsPresenter,
    private readonly siteScripts: SiteScriptsService,
  ) {}

  @Get('integrations')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'listOrganizationIntegrations',
    summary: 'List the integrations installed on an organization',
    description:
      "Needs the organization's `listIntegrations` (members with a role). By name, with the " +
      "catalogue's filters.",
  })
  @ApiOkResponse({ type: PageOf(IntegrationResponse) })
  @badRequest
  async listIntegrations(
    @CurrentUser() user: UserActor,
    @Granted() organization: ResolvedAccess,
    @Query() query: ListIntegrationsQueryDto,
  ): Promise<Page<IntegrationResponse>> {
    const page = await this.installations.listOrganizationIntegrations(
      user,
      organization.id,
      query,
    );
    return mapPage(page, (view) => this.presenter.integration(view));
  }

  @Get('installations')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listOrganizationInstallations',
    summary: "List the organization's installations",
    description:
      "Needs the organization's `listInstallations` (its admins). Each installation with its " +
      "integration, by the integration's name; `search` in its name or title.",
  })
  @ApiOkResponse({ type: PageOf(OrganizationInstallationResponse) })
  @badRequest
  async listInstallations(
    @CurrentUser() user: UserActor,
    @Granted() organization: ResolvedAccess,
    @Query() query: IntegrationSearchQueryDto,
  ): Promise<Page<OrganizationInstallationResponse>> {
    const page = await this.installations.listOrganizationInstallations(
      user,
      organization.id,
      query.search,
      query,
    );
    return mapPage(page, (item) => ({
      installation: this.presenter.installation(item.installation),
      integration: this.presenter.integration(item.integration),
    }));
  }

  @Get('integrations/installations-status')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'listOrganizationIntegrationsStatus',
    summary: 'List the installed integrations of an organization and their statuses',
    description:
      "Needs the organization's `listIntegrations` (members with a role). The organization's " +
      'own installations (`target=organization`, the default), or those on its spaces or ' +
      'sites (`target=space` or `site`, one of them with `space` or `site`: 400 with another ' +
      'target). By integration name, oldest first below the organization.',
  })
  @ApiOkResponse({ type: PageOf(InstalledIntegrationResponse) })
  @badRequest
  async listStatuses(
    @CurrentUser() user: UserActor,
    @Granted() organization: ResolvedAccess,
    @Query() query: IntegrationsStatusQueryDto,
  ): Promise<Page<InstalledIntegrationResponse>> {
    const page = await this.installations.organizationStatuses(user, organization.id, query);
    return mapPage(page, (view) => this.presenter.installed(view));
  }

  @Get('integrations/:integrationName/installation_status')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'getOrganizationIntegrationStatus',
    summary: 'Get the status of an integration on an organization',
    description:
      "Needs the organization's `listIntegrations` (members with a role). 404 when it is not " +
      'installed there.',
  })
  @ApiOkResponse({ type: IntegrationStatusResponse })
  async status(
    @CurrentUser() user: UserActor,
    @Granted() organization: ResolvedAccess,
    @Param('integrationName') integrationName: string,
  ): Promise<IntegrationStatusResponse> {
    return {
      status: await this.installations.organizationStatus(user, organization.id, integrationName),
    };
  }

  @Get('sites/:siteId/integrations')
  @Access('site', SITE_READ, 'siteId')
  @ApiOperation({
    operationId: 'listSiteIntegrations',
    summary: 'List the integrations installed on a site',
    description: 'For whoever reads the site (members with a role). By name.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationResponse) })
  @badRequest
  async listSiteIntegrations(
    @CurrentUser() user: UserActor,
    @Granted() site: ResolvedAccess,
    @Query() query: IntegrationSearchQueryDto,
  ): Promise<Page<IntegrationResponse>> {
    const page = await this.installations.listContentIntegrations(user, 'site', site.id, query);
    return mapPage(page, (view) => this.presenter.integration(view));
  }

  @Get('sites/:siteId/integration-scripts')
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true })
  @ApiOperation({
    operationId: 'listSiteIntegrationScripts',
    summary: "List the integrations' scripts a site loads",
    description:
      'The active installations on the site of integrations with the `site:script:inject` ' +
      'scope: the script each serves (`cookies` with `site:script:cookies`), with its ' +
      'Content Security Policy. For members with a role, and for the reader token of the ' +
      'published site (its renderer).',
  })
  @ApiOkResponse({ type: [SiteIntegrationScriptResponse] })
  listSiteScripts(@Granted() site: ResolvedAccess): Promise<SiteIntegrationScriptResponse[]> {
    return this.siteScripts.list(site.id);
  }
}
