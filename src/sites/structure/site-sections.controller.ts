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
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { SITE_READ, SITE_WRITE } from '../site-access';
import {
  AddSiteSectionDto,
  ListSiteSectionsQueryDto,
  MoveSiteSectionDto,
  UpdateSiteSectionDto,
} from './dto/site-section.dto';
import type { SiteAccess } from '../site-access.policy';
import { SiteSectionResponse } from './dto/site-structure.response';
import type { SiteSection } from './entities/site-section.entity';
import { SiteSectionsService } from './site-sections.service';
import { SiteStructurePresenter } from './site-structure.presenter';
import type { NodeView } from './structure-nodes';

const BASE = 'orgs/:organizationId/sites/:siteId/sections';
const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('site-sections')
@Controller()
export class SiteSectionsController {
  constructor(
    private readonly sections: SiteSectionsService,
    private readonly presenter: SiteStructurePresenter,
    private readonly urls: UrlBuilder,
  ) {}

  @Get(BASE)
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteSections',
    summary: 'List all site sections',
    description:
      'Every section of the site (grouped or not), in the order a reader meets them (as moves and sorts set it).',
  })
  @ApiOkResponse({ type: PageOf(SiteSectionResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Query() query: ListSiteSectionsQueryDto,
  ): Promise<Page<SiteSectionResponse>> {
    const page = await this.sections.list(site.organizationId, siteId, actor.userId, query);
    return mapPage(page, (item) => this.present(item));
  }

  @Post(BASE)
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'addSectionToSite',
    summary: 'Add a section to a site',
    description:
      "At the end of the site root, titled `title` (else the space's title), with the space as " +
      'its first, default variant. The first section of a site is its default section. A site ' +
      'without sections whose root has site spaces first turns them into a section of their ' +
      'own (named after the site, the default section): the new section comes after it.',
  })
  @ApiCreatedResponse({ type: SiteSectionResponse })
  @badRequest
  async add(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: AddSiteSectionDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSectionResponse> {
    const view = await this.sections.add(site.organizationId, siteId, actor.userId, body);
    response.location(
      this.urls.api('orgs', site.organizationId, 'sites', siteId, 'sections', view.node.id),
    );
    return this.present(view);
  }

  @Patch(`${BASE}/:siteSectionId`)
  @Access('siteSection', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteSectionById',
    summary: 'Update a site section',
    description:
      'Absent fields are unchanged; null removes `condition`, `icon` or `description`. 409 ' +
      'when `path` is the path of another section of the site.',
  })
  @ApiOkResponse({ type: SiteSectionResponse })
  @badRequest
  @ApiConflictResponse({ type: ErrorBody, description: 'The path is taken by another section.' })
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: UpdateSiteSectionDto,
  ): Promise<SiteSectionResponse> {
    return this.present(
      await this.sections.update(site.organizationId, siteId, actor.userId, sectionId, body),
    );
  }

  @Delete(`${BASE}/:siteSectionId`)
  @HttpCode(204)
  @Access('siteSection', SITE_WRITE, { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteSectionById',
    summary: 'Delete a site section',
    description:
      'With its site spaces; also 204 when there is no such section. Deleting the default ' +
      'section makes the next one the default.',
  })
  @ApiNoContentResponse({ description: 'The section is gone.' })
  async remove(
    @Granted() site: SiteAccess | null,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
  ): Promise<void> {
    if (!site) return;
    await this.sections.remove(site.organizationId, siteId, sectionId);
  }

  @Post(`${BASE}/:siteSectionId/move`)
  @HttpCode(200)
  @Access('siteSection', SITE_WRITE)
  @ApiOperation({
    operationId: 'moveSiteSection',
    deprecated: true,
    summary: 'Move a site section',
    description:
      'Among the sections and groups of its parent; the end without `position`. Deprecated: ' +
      'use `sortSiteStructure`.',
  })
  @ApiOkResponse({ type: SiteSectionResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid move position: a target that is not in the site or not a sibling.',
  })
  async move(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: MoveSiteSectionDto,
  ): Promise<SiteSectionResponse> {
    return this.present(
      await this.sections.move(site.organizationId, siteId, actor.userId, sectionId, body),
    );
  }

  private present({ view, node }: NodeView<SiteSection>): SiteSectionResponse {
    return this.presenter.section(view, node);
  }
}
