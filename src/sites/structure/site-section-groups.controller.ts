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
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { SITE_READ, SITE_WRITE } from '../site-access';
import {
  AddSectionToGroupDto,
  AddSiteSectionGroupDto,
  MoveSiteSectionGroupDto,
  UpdateSiteSectionGroupDto,
} from './dto/site-section-group.dto';
import type { SiteAccess } from '../site-access.policy';
import { SiteSectionGroupResponse } from './dto/site-structure.response';
import type { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteSectionGroupsService } from './site-section-groups.service';
import { SiteStructurePresenter } from './site-structure.presenter';
import type { NodeView } from './structure-nodes';

const BASE = 'orgs/:organizationId/sites/:siteId/section-groups';
const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('site-section-groups')
@Controller()
export class SiteSectionGroupsController {
  constructor(
    private readonly groups: SiteSectionGroupsService,
    private readonly presenter: SiteStructurePresenter,
    private readonly urls: UrlBuilder,
  ) {}

  @Get(BASE)
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteSectionGroups',
    summary: 'List all site section groups',
    description:
      'Every group of the site (nested ones too), in the order a reader meets them (as moves and sorts set it).',
  })
  @ApiOkResponse({ type: PageOf(SiteSectionGroupResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<SiteSectionGroupResponse>> {
    const page = await this.groups.list(site.organizationId, siteId, actor.userId, query);
    return mapPage(page, (item) => this.present(item));
  }

  @Post(BASE)
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'addSectionGroupToSite',
    summary: 'Add a section group to a site',
    description:
      'At the end of `parent` (a group; the site root when absent), with `sections` moved ' +
      'into it in that order. 400 when the parent or a section is not in the site.',
  })
  @ApiCreatedResponse({ type: SiteSectionGroupResponse })
  @badRequest
  async add(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: AddSiteSectionGroupDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSectionGroupResponse> {
    const view = await this.groups.add(site.organizationId, siteId, actor.userId, body);
    response.location(this.location(site.organizationId, siteId, view.node.id));
    return this.present(view);
  }

  @Patch(`${BASE}/:siteSectionGroupId`)
  @Access('siteSectionGroup', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteSectionGroupById',
    summary: 'Update a site section group',
    description: 'Absent fields are unchanged; `icon: null` removes the icon.',
  })
  @ApiOkResponse({ type: SiteSectionGroupResponse })
  @badRequest
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: UpdateSiteSectionGroupDto,
  ): Promise<SiteSectionGroupResponse> {
    return this.present(
      await this.groups.update(site.organizationId, siteId, actor.userId, groupId, body),
    );
  }

  @Delete(`${BASE}/:siteSectionGroupId`)
  @HttpCode(204)
  @Access('siteSectionGroup', SITE_WRITE, { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteSectionGroupById',
    summary: 'Delete a site section group',
    description:
      'Its sections and nested groups take its place among its siblings. Also 204 when there ' +
      'is no such group.',
  })
  @ApiNoContentResponse({ description: 'The group is gone.' })
  async remove(
    @Granted() site: SiteAccess | null,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
  ): Promise<void> {
    if (!site) return;
    await this.groups.remove(site.organizationId, siteId, groupId);
  }

  @Post(`${BASE}/:siteSectionGroupId/sections`)
  @HttpCode(201)
  @Access('siteSectionGroup', SITE_WRITE)
  @ApiOperation({
    operationId: 'addSectionToGroup',
    summary: 'Add a section to a section group',
    description:
      'Moves the section (from the root or another group) to the end of the group; unchanged ' +
      'when already in it. 400 when the section is not in the site.',
  })
  @ApiCreatedResponse({ type: SiteSectionGroupResponse })
  @badRequest
  async addSection(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: AddSectionToGroupDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSectionGroupResponse> {
    const view = await this.groups.addSection(
      site.organizationId,
      siteId,
      actor.userId,
      groupId,
      body.sectionId,
    );
    response.location(this.location(site.organizationId, siteId, groupId));
    return this.present(view);
  }

  @Delete(`${BASE}/:siteSectionGroupId/sections/:siteSectionId`)
  @HttpCode(204)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'removeSectionFromGroup',
    summary: 'Remove a section from a section group',
    description:
      'The section goes right after the group, among its siblings. Also 204 when the section ' +
      'is not in the group.',
  })
  @ApiNoContentResponse({ description: 'The section is not in the group.' })
  async removeSection(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Param('siteSectionId') sectionId: string,
  ): Promise<void> {
    await this.groups.removeSection(site.organizationId, siteId, groupId, sectionId);
  }

  @Post(`${BASE}/:siteSectionGroupId/move`)
  @HttpCode(200)
  @Access('siteSectionGroup', SITE_WRITE)
  @ApiOperation({
    operationId: 'moveSiteSectionGroup',
    deprecated: true,
    summary: 'Move a site section group',
    description:
      'Among the sections and groups of its parent; the end without `position`. Deprecated: ' +
      'use `sortSiteStructure`.',
  })
  @ApiOkResponse({ type: SiteSectionGroupResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid move position: a target that is not in the site or not a sibling.',
  })
  async move(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: MoveSiteSectionGroupDto,
  ): Promise<SiteSectionGroupResponse> {
    return this.present(
      await this.groups.move(site.organizationId, siteId, actor.userId, groupId, body),
    );
  }

  private location(organizationId: string, siteId: string, groupId: string): string {
    return this.urls.api('orgs', organizationId, 'sites', siteId, 'section-groups', groupId);
  }

  private present({ view, node }: NodeView<SiteSectionGroup>): SiteSectionGroupResponse {
    return this.presenter.group(view, node);
  }
}
