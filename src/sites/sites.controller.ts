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
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Organization } from '../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { CreateSiteDto, ListSitesQueryDto, UpdateSiteDto } from './dto/site.dto';
import { SiteResponse } from './dto/site.response';
import { SITE_READ, SITE_WRITE } from './site-access';
import type { SiteAccess } from './site-access.policy';
import { SitesPresenter } from './sites.presenter';
import { SitesService, SiteWithCount } from './sites.service';
import { SiteWritesService } from './site-writes.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@Controller('orgs/:organizationId/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly writes: SiteWritesService,
    private readonly presenter: SitesPresenter,
  ) {}

  @Get()
  @Access('organization', SITE_READ)
  @ApiOperation({
    operationId: 'listSites',
    summary: 'List all sites',
    description:
      "Oldest first; each with the caller's `permissions` on it (its organization role, " +
      'raised by grants on the site). `space` keeps the sites publishing that space, `title` those whose title ' +
      'contains the text (case-insensitive), `published` those published (or not), `type` ' +
      '(repeatable) those of these types.',
  })
  @ApiOkResponse({ type: PageOf(SiteResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Query() query: ListSitesQueryDto,
  ): Promise<Page<SiteResponse>> {
    const page = await this.sites.list(organization.id, query);
    const roles = await this.sites.rolesOn(
      organization.id,
      { userId: actor.userId, role: organization.role },
      page.items.map((item) => item.site.id),
    );
    return mapPage(page, (site) =>
      this.present(organization.entity!, site, roles.get(site.site.id) ?? organization.role),
    );
  }

  @Post()
  @HttpCode(201)
  @Access('organization', SITE_WRITE)
  @ApiOperation({
    operationId: 'createSite',
    summary: 'Create a site',
    description:
      'Unpublished, `basic` and `public` unless told otherwise. Each of `spaces` becomes a ' +
      'site space at the root, in order, the first the default.',
  })
  @ApiCreatedResponse({ type: SiteResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input or unknown space.' })
  async create(
    @Granted() organization: ResolvedAccess<Organization>,
    @Body() body: CreateSiteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteResponse> {
    const presented = this.present(
      organization.entity!,
      await this.writes.create(organization.id, body),
      organization.role,
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(':siteId')
  @Access('site', SITE_READ, { integrations: { installation: 'site:metadata:read' } })
  @ApiOperation({ operationId: 'getSiteById', summary: 'Get a site by its ID' })
  @ApiOkResponse({ type: SiteResponse })
  async get(@Granted() site: SiteAccess, @Param('siteId') siteId: string): Promise<SiteResponse> {
    return this.present(
      site.entity.organization,
      await this.sites.get(site.organizationId, siteId),
      site.role,
    );
  }

  @Patch(':siteId')
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteById',
    summary: 'Update a site',
    description:
      'Absent fields are unchanged; null removes `proxy`, `hostname` and `icon`. ' +
      '`defaultSiteSpace` is the default at the root, or in the default section when the site ' +
      'has sections.',
  })
  @ApiOkResponse({ type: SiteResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid input, or an unknown default section or site space.',
  })
  @ApiConflictResponse({ type: ErrorBody, description: 'The hostname is already taken.' })
  async update(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: UpdateSiteDto,
  ): Promise<SiteResponse> {
    return this.present(
      site.entity.organization,
      await this.writes.update(site.organizationId, siteId, body),
      site.role,
    );
  }

  @Delete(':siteId')
  @HttpCode(204)
  @Access('site', SITE_WRITE, { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteById',
    summary: 'Delete a site',
    description:
      'With its site spaces, sections, section groups, share links and grants (the spaces ' +
      'stay). Also ' +
      '204 when there is no such site.',
  })
  @ApiNoContentResponse({ description: 'The site is gone.' })
  async remove(@Granted() site: SiteAccess | null, @Param('siteId') siteId: string): Promise<void> {
    if (!site) return;
    await this.writes.remove(site.organizationId, siteId);
  }

  @Post(':siteId/publish')
  @HttpCode(200)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'publishSite',
    summary: 'Publish a site',
    description: 'Makes the site live for the audience of its visibility (`urls.published`).',
  })
  @ApiOkResponse({ type: SiteResponse })
  async publish(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
  ): Promise<SiteResponse> {
    return this.present(
      site.entity.organization,
      await this.writes.setPublished(site.entity.organization, siteId, true, actor.userId),
      site.role,
    );
  }

  @Post(':siteId/unpublish')
  @HttpCode(200)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'unpublishSite',
    summary: 'Unpublish a site',
    description: 'Takes the site offline; its configuration and content stay for a later publish.',
  })
  @ApiOkResponse({ type: SiteResponse })
  async unpublish(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
  ): Promise<SiteResponse> {
    return this.present(
      site.entity.organization,
      await this.writes.setPublished(site.entity.organization, siteId, false, actor.userId),
      site.role,
    );
  }

  private present(
    organization: Organization,
    found: SiteWithCount,
    role: Role | null,
  ): SiteResponse {
    return this.presenter.present(found.site, organization, found.siteSpaces, role);
  }
}
