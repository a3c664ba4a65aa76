import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { IntegrationActor, UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, type Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { Integration } from '../entities/integration.entity';
import {
  ExtendedQueryDto,
  InstallIntegrationDto,
  InstallOnSiteDto,
  InstallOnSpaceDto,
  ListContentInstallationsQueryDto,
  ListInstallationsQueryDto,
  ListIntegrationContentInstallationsQueryDto,
  UpdateContentInstallationDto,
  UpdateIntegrationInstallationDto,
} from './dto/installation.dto';
import {
  IntegrationInstallationResponse,
  IntegrationSiteInstallationResponse,
  IntegrationSpaceInstallationResponse,
} from './dto/installation.response';
import type {
  InstallationAccess,
  SiteInstallationAccess,
  SpaceInstallationAccess,
} from './installation-access.policy';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsService } from './installations.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const location = (description: string) =>
  ApiHeader({ name: 'Location', description, required: false });
const INSTALLATION = { param: 'installationId' } as const;
/** Lists the integration's own token reads too (all its installations). */
const ITS_OWN = { integrations: { integration: true } } as const;
/** Who lists an integration's installations: a member, or the integration itself. */
type ListCaller = UserActor | IntegrationActor;
/** The integration and its installations administer their own installations. */
const SCRIPTS = { integrations: { integration: true, installation: 'any' } } as const;

/**
 * GitBook's installations of an integration: on an organization (`/installations`), and below
 * one on the organization's spaces and sites. Another organization's installation is absent
 * (404) to its callers.
 */
@Controller('integrations/:integrationName')
export class InstallationsController {
  constructor(
    private readonly installations: InstallationsService,
    private readonly presenter: InstallationsPresenter,
  ) {}

  @Post('installations')
  @HttpCode(201)
  @Access.user()
  @ApiOperation({
    operationId: 'installIntegration',
    summary: 'Install an integration on an organization',
    description:
      "Needs the organization's `installIntegration` (its admins); 404 for an integration or " +
      'an organization the caller does not see. A private integration installs only in the ' +
      'organization that owns it (403 elsewhere). It starts with an empty configuration: ' +
      '`pending` while its integration requires account configuration, `active` otherwise; no ' +
      'spaces or sites selected. 409 when it is installed there already.',
  })
  @ApiCreatedResponse({ type: IntegrationInstallationResponse })
  @location('URL for the installed integration')
  @ApiConflictResponse({ type: ErrorBody, description: 'Installed there already.' })
  @badRequest
  async install(
    @CurrentUser() user: UserActor,
    @Param('integrationName') integrationName: string,
    @Body() body: InstallIntegrationDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<IntegrationInstallationResponse> {
    const answer = this.presenter.installation(
      await this.installations.install(user, integrationName, body),
    );
    response.setHeader('Location', answer.urls.location);
    return answer;
  }

  @Get('installations')
  @Access('integration', 'view', { param: 'integrationName', ...ITS_OWN })
  @ApiOperation({
    operationId: 'listIntegrationInstallations',
    summary: 'List the installations of an integration',
    description:
      'Those in the organizations where the caller may list installations (their admins); ' +
      "with the integration's own token, all of them; oldest first; with `externalId`, those " +
      'holding it.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationInstallationResponse) })
  @badRequest
  async list(
    @CurrentActor() caller: ListCaller,
    @Granted() integration: ResolvedAccess<Integration>,
    @Query() query: ListInstallationsQueryDto,
  ): Promise<Page<IntegrationInstallationResponse>> {
    const page = await this.installations.list(caller, integration, query.externalId, query);
    return mapPage(page, (view) => this.presenter.installation(view));
  }

  @Get('installations/:installationId')
  @Access('integrationInstallation', 'listInstallations', { ...INSTALLATION, ...SCRIPTS })
  @ApiOperation({
    operationId: 'getIntegrationInstallationById',
    summary: 'Get an installation of an integration',
    description: "Needs the organization's `listInstallations` (its admins).",
  })
  @ApiOkResponse({ type: IntegrationInstallationResponse })
  async get(@Granted() access: InstallationAccess): Promise<IntegrationInstallationResponse> {
    return this.presenter.installation(await this.installations.view(access));
  }

  @Patch('installations/:installationId')
  @Access('integrationInstallation', 'installIntegration', { ...INSTALLATION, ...SCRIPTS })
  @ApiOperation({
    operationId: 'updateIntegrationInstallation',
    summary: 'Update an installation of an integration',
    description:
      "Needs the organization's `installIntegration` (its admins). Changes the fields given; " +
      "`configuration` replaces the one before and is checked against the integration's " +
      '`configurations.account` (400 for an unknown property or a value of the wrong type or ' +
      'not in its `enum`); the installation is `active` once the required ones are given.',
  })
  @ApiOkResponse({ type: IntegrationInstallationResponse })
  @badRequest
  async update(
    @Granted() access: InstallationAccess,
    @Body() body: UpdateIntegrationInstallationDto,
  ): Promise<IntegrationInstallationResponse> {
    return this.presenter.installation(await this.installations.update(access, body));
  }

  @Delete('installations/:installationId')
  @HttpCode(204)
  @Access('integrationInstallation', 'installIntegration', {
    ...INSTALLATION,
    ifAbsent: 'proceed',
  })
  @ApiOperation({
    operationId: 'uninstallIntegration',
    summary: 'Uninstall an integration from an organization',
    description:
      "Needs the organization's `installIntegration` (its admins). Uninstalls it from the " +
      "organization's spaces and sites too. 205 when it was uninstalled, 204 when there was " +
      'no such installation (or none the caller sees).',
  })
  @ApiResponse({ status: 205, description: 'Integration uninstalled successfully' })
  @ApiNoContentResponse({ description: 'Integration installation did not exist' })
  async uninstall(
    @Granted() access: InstallationAccess | null,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (await this.installations.uninstall(access)) response.status(205);
  }

  @Get('installations/:installationId/spaces')
  @Access('integrationInstallation', 'listInstallations', INSTALLATION)
  @ApiOperation({
    operationId: 'listIntegrationInstallationSpaces',
    summary: 'List the spaces an installation is installed on',
    description: "Needs the organization's `listInstallations` (its admins). Oldest first.",
  })
  @ApiOkResponse({ type: PageOf(IntegrationSpaceInstallationResponse) })
  @badRequest
  async listSpaces(
    @CurrentUser() user: UserActor,
    @Granted() access: InstallationAccess,
    @Query() query: ListContentInstallationsQueryDto,
  ): Promise<Page<IntegrationSpaceInstallationResponse>> {
    const page = await this.installations.listContent('space', access, query);
    const views = query.extended ? await this.installations.extendPage(user, page) : page;
    return mapPage(views, (view) => this.presenter.spaceInstallation(view));
  }

  @Post('installations/:installationId/spaces')
  @HttpCode(201)
  @Access('integrationInstallation', 'view', INSTALLATION)
  @ApiOperation({
    operationId: 'installIntegrationOnSpace',
    summary: 'Install an integration on a space',
    description:
      "Installs the organization's installation on one of its spaces: needs a role in the " +
      "organization (guests have none) and the space's `installIntegration` (its admins); " +
      '404 for a space the caller does not see or of ' +
      'another organization; 400 when the integration is not for spaces (`target`); 409 when ' +
      'it is there already.',
  })
  @ApiCreatedResponse({ type: IntegrationSpaceInstallationResponse })
  @location('URL for the installed integration')
  @ApiConflictResponse({ type: ErrorBody, description: 'Installed there already.' })
  @badRequest
  async installOnSpace(
    @CurrentUser() user: UserActor,
    @Granted() access: InstallationAccess,
    @Body() body: InstallOnSpaceDto,
    @Query() query: ExtendedQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<IntegrationSpaceInstallationResponse> {
    const view = await this.installations.installOnSpace(user, access, body.space);
    const answer = this.presenter.spaceInstallation(
      query.extended ? view : { ...view, space: undefined },
    );
    response.setHeader('Location', answer.urls.location);
    return answer;
  }

  @Get('installations/:installationId/spaces/:spaceId')
  @Access('integrationSpaceInstallation', 'installIntegration', { param: 'spaceId', ...SCRIPTS })
  @ApiOperation({
    operationId: 'getIntegrationSpaceInstallation',
    summary: 'Get the installation of an integration on a space',
    description:
      "Needs the space's `installIntegration` (its admins, with a role in the organization): " +
      'its configuration is theirs.',
  })
  @ApiOkResponse({ type: IntegrationSpaceInstallationResponse })
  @badRequest
  getSpace(
    @Granted() access: SpaceInstallationAccess,
    @Query() query: ExtendedQueryDto,
  ): IntegrationSpaceInstallationResponse {
    return this.presenter.spaceInstallation(this.installations.spaceView(access, query.extended));
  }

  @Patch('installations/:installationId/spaces/:spaceId')
  @Access('integrationSpaceInstallation', 'installIntegration', { param: 'spaceId', ...SCRIPTS })
  @ApiOperation({
    operationId: 'updateIntegrationSpaceInstallation',
    summary: 'Update the installation of an integration on a space',
    description:
      "Needs the space's `installIntegration` (its admins). `configuration` replaces the one " +
      "before, checked against the integration's `configurations.space`; it is `active` once " +
      'the required ones are given and its installation is active.',
  })
  @ApiOkResponse({ type: IntegrationSpaceInstallationResponse })
  @badRequest
  async updateSpace(
    @Granted() access: SpaceInstallationAccess,
    @Body() body: UpdateContentInstallationDto,
    @Query() query: ExtendedQueryDto,
  ): Promise<IntegrationSpaceInstallationResponse> {
    return this.presenter.spaceInstallation(
      await this.installations.updateContent(
        this.installations.spaceView(access, query.extended),
        body,
      ),
    );
  }

  @Delete('installations/:installationId/spaces/:spaceId')
  @HttpCode(204)
  @Access('integrationSpaceInstallation', 'installIntegration', {
    param: 'spaceId',
    ifAbsent: 'proceed',
  })
  @ApiOperation({
    operationId: 'uninstallIntegrationFromSpace',
    summary: 'Uninstall an integration from a space',
    description:
      "Needs the space's `installIntegration` (its admins). 205 when it was uninstalled, 204 " +
      'when it was not installed there (or the caller does not see it).',
  })
  @ApiResponse({ status: 205, description: 'The space installation has been deleted.' })
  @ApiNoContentResponse({ description: 'The space installation did not exist.' })
  async uninstallFromSpace(
    @Granted() access: SpaceInstallationAccess | null,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const view = access ? this.installations.spaceView(access) : null;
    if (await this.installations.uninstallContent(view)) response.status(205);
  }

  @Get('installations/:installationId/sites')
  @Access('integrationInstallation', 'listInstallations', INSTALLATION)
  @ApiOperation({
    operationId: 'listIntegrationInstallationSites',
    summary: 'List the sites an installation is installed on',
    description: "Needs the organization's `listInstallations` (its admins). Oldest first.",
  })
  @ApiOkResponse({ type: PageOf(IntegrationSiteInstallationResponse) })
  @badRequest
  async listSites(
    @CurrentUser() user: UserActor,
    @Granted() access: InstallationAccess,
    @Query() query: ListContentInstallationsQueryDto,
  ): Promise<Page<IntegrationSiteInstallationResponse>> {
    const page = await this.installations.listContent('site', access, query);
    const views = query.extended ? await this.installations.extendPage(user, page) : page;
    return mapPage(views, (view) => this.presenter.siteInstallation(view));
  }

  @Post('installations/:installationId/sites')
  @HttpCode(201)
  @Access('integrationInstallation', 'installIntegration', INSTALLATION)
  @ApiOperation({
    operationId: 'installIntegrationOnSite',
    summary: 'Install an integration on a site',
    description:
      "Installs the organization's installation on one of its sites: needs the site's " +
      "`installIntegration`, which is the organization's (its admins); 404 for a site of " +
      'another organization; 400 when the integration is not for sites (`target`); 409 when it ' +
      'is there already.',
  })
  @ApiCreatedResponse({ type: IntegrationSiteInstallationResponse })
  @location('URL for the installed integration on the site')
  @ApiConflictResponse({ type: ErrorBody, description: 'Installed there already.' })
  @badRequest
  async installOnSite(
    @Granted() access: InstallationAccess,
    @Body() body: InstallOnSiteDto,
    @Query() query: ExtendedQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<IntegrationSiteInstallationResponse> {
    const view = await this.installations.installOnSite(access, body.siteId);
    const answer = this.presenter.siteInstallation(
      query.extended ? view : { ...view, site: undefined },
    );
    response.setHeader('Location', answer.urls.location);
    return answer;
  }

  @Get('installations/:installationId/sites/:siteId')
  @Access('integrationSiteInstallation', 'installIntegration', { param: 'siteId', ...SCRIPTS })
  @ApiOperation({
    operationId: 'getIntegrationSiteInstallation',
    summary: 'Get the installation of an integration on a site',
    description: "Needs the site's `installIntegration` (the organization's admins).",
  })
  @ApiOkResponse({ type: IntegrationSiteInstallationResponse })
  @badRequest
  async getSite(
    @Granted() access: SiteInstallationAccess,
    @Query() query: ExtendedQueryDto,
  ): Promise<IntegrationSiteInstallationResponse> {
    return this.presenter.siteInstallation(
      await this.installations.siteView(access, query.extended),
    );
  }

  @Patch('installations/:installationId/sites/:siteId')
  @Access('integrationSiteInstallation', 'installIntegration', { param: 'siteId', ...SCRIPTS })
  @ApiOperation({
    operationId: 'updateIntegrationSiteInstallation',
    summary: 'Update the installation of an integration on a site',
    description:
      "Needs the site's `installIntegration` (the organization's admins). `configuration` " +
      "replaces the one before, checked against the integration's `configurations.site`; it " +
      'is `active` once the required ones are given and its installation is active.',
  })
  @ApiOkResponse({ type: IntegrationSiteInstallationResponse })
  @badRequest
  async updateSite(
    @Granted() access: SiteInstallationAccess,
    @Body() body: UpdateContentInstallationDto,
    @Query() query: ExtendedQueryDto,
  ): Promise<IntegrationSiteInstallationResponse> {
    return this.presenter.siteInstallation(
      await this.installations.updateContent(
        await this.installations.siteView(access, query.extended),
        body,
      ),
    );
  }

  @Delete('installations/:installationId/sites/:siteId')
  @HttpCode(204)
  @Access('integrationSiteInstallation', 'installIntegration', {
    param: 'siteId',
    ifAbsent: 'proceed',
  })
  @ApiOperation({
    operationId: 'uninstallIntegrationFromSite',
    summary: 'Uninstall an integration from a site',
    description:
      "Needs the site's `installIntegration` (the organization's admins). 205 when it was " +
      'uninstalled, 204 when it was not installed there (or the caller does not see it).',
  })
  @ApiResponse({ status: 205, description: 'The site installation has been deleted.' })
  @ApiNoContentResponse({ description: 'The site installation did not exist.' })
  async uninstallFromSite(
    @Granted() access: SiteInstallationAccess | null,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const view = access ? await this.installations.siteView(access) : null;
    if (await this.installations.uninstallContent(view)) response.status(205);
  }

  @Get('spaces')
  @Access('integration', 'view', { param: 'integrationName', ...ITS_OWN })
  @ApiOperation({
    operationId: 'listIntegrationSpaceInstallations',
    summary: 'List the space installations of an integration',
    description:
      'Those in the organizations where the caller may list installations (their admins); ' +
      "with the integration's own token, all of them (`extended` is then ignored); oldest " +
      'first; with `externalId`, those holding it.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationSpaceInstallationResponse) })
  @badRequest
  async listSpaceInstallations(
    @CurrentActor() caller: ListCaller,
    @Granted() integration: ResolvedAccess<Integration>,
    @Query() query: ListIntegrationContentInstallationsQueryDto,
  ): Promise<Page<IntegrationSpaceInstallationResponse>> {
    const page = await this.installations.listContentOfIntegration(
      'space',
      caller,
      integration,
      query.externalId,
      query,
    );
    const views =
      query.extended && caller.kind === 'user'
        ? await this.installations.extendPage(caller, page)
        : page;
    return mapPage(views, (view) => this.presenter.spaceInstallation(view));
  }

  @Get('sites')
  @Access('integration', 'view', { param: 'integrationName', ...ITS_OWN })
  @ApiOperation({
    operationId: 'listIntegrationSiteInstallations',
    summary: 'List the site installations of an integration',
    description:
      'Those in the organizations where the caller may list installations (their admins); ' +
      "with the integration's own token, all of them (`extended` is then ignored); oldest " +
      'first; with `externalId`, those holding it.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationSiteInstallationResponse) })
  @badRequest
  async listSiteInstallations(
    @CurrentActor() caller: ListCaller,
    @Granted() integration: ResolvedAccess<Integration>,
    @Query() query: ListIntegrationContentInstallationsQueryDto,
  ): Promise<Page<IntegrationSiteInstallationResponse>> {
    const page = await this.installations.listContentOfIntegration(
      'site',
      caller,
      integration,
      query.externalId,
      query,
    );
    const views =
      query.extended && caller.kind === 'user'
        ? await this.installations.extendPage(caller, page)
        : page;
    return mapPage(views, (view) => this.presenter.siteInstallation(view));
  }
}
