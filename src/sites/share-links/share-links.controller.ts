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
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Organization } from '../../orgs/entities/organization.entity';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Site } from '../entities/site.entity';
import { SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SitesPresenter } from '../sites.presenter';
import {
  CreateSiteShareLinkDto,
  ShareLinkResponse,
  UpdateSiteShareLinkDto,
} from './share-link.dto';
import { ShareLinkWithKey, SiteShareLinksService } from './share-links.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * Share links hold secrets (their keys, in `urls.published`), so even listing them takes the
 * role that changes the site.
 */
@Controller('orgs/:organizationId/sites/:siteId/share-links')
export class SiteShareLinksController {
  constructor(
    private readonly links: SiteShareLinksService,
    private readonly sites: SitesPresenter,
  ) {}

  @Get()
  @Access('site', SITE_WRITE)
  @ApiOperation({ operationId: 'listSiteShareLinks', summary: 'List all share links' })
  @ApiOkResponse({ type: PageOf(ShareLinkResponse) })
  @badRequest
  async list(
    @Granted() access: SiteAccess,
    @Param('siteId') siteId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ShareLinkResponse>> {
    const { site, page } = await this.links.list(access.organizationId, siteId, query);
    return mapPage(page, (link) => this.present(access.entity.organization, site, link));
  }

  @Post()
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'createSiteShareLink',
    summary: 'Create a share link',
    description: 'An active link with a new secret key; its `urls.published` opens the site.',
  })
  @ApiCreatedResponse({ type: ShareLinkResponse })
  @badRequest
  async create(
    @Granted() access: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: CreateSiteShareLinkDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ShareLinkResponse> {
    const { site, ...link } = await this.links.create(access.organizationId, siteId, body);
    response.location(
      `${this.sites.location(site)}/share-links/${encodeURIComponent(link.link.id)}`,
    );
    return this.present(access.entity.organization, site, link);
  }

  @Patch(':shareLinkId')
  @Access('siteShareLink', SITE_WRITE, { param: 'shareLinkId' })
  @ApiOperation({
    operationId: 'updateSiteShareLinkById',
    summary: 'Update a share link',
    description: '`active: false` stops the link from opening the site; `name` renames it.',
  })
  @ApiOkResponse({ type: ShareLinkResponse })
  @badRequest
  async update(
    @Granted() access: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @Body() body: UpdateSiteShareLinkDto,
  ): Promise<ShareLinkResponse> {
    const { site, ...link } = await this.links.update(
      access.organizationId,
      siteId,
      shareLinkId,
      body,
    );
    return this.present(access.entity.organization, site, link);
  }

  @Delete(':shareLinkId')
  @HttpCode(204)
  @Access('siteShareLink', SITE_WRITE, { param: 'shareLinkId', ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteShareLinkById',
    summary: 'Deletes a share link',
    description: 'Also 204 when the site has no such link.',
  })
  @ApiNoContentResponse({ description: 'The share link is gone.' })
  async remove(
    @Granted() access: SiteAccess | null,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
  ): Promise<void> {
    if (!access) return;
    await this.links.remove(access.organizationId, siteId, shareLinkId);
  }

  private present(
    organization: Organization,
    site: Site,
    { link, key }: ShareLinkWithKey,
  ): ShareLinkResponse {
    const published = this.sites.publishedUrl(site, organization);
    return {
      object: 'share-link',
      id: link.id,
      createdAt: link.createdAt.toISOString(),
      name: link.name,
      active: link.active,
      urls: { published: `${published}/${encodeURIComponent(key)}` },
    };
  }
}
