import { Body, Delete, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import {
  AddSectionToGroupDto,
  AddSiteSectionGroupDto,
  MoveSiteSectionGroupDto,
  UpdateSiteSectionGroupDto,
} from './dto/site-section-group.dto';
import { SiteSectionGroupResponse } from './dto/site-structure.response';
import { SiteSectionGroupsService } from './site-section-groups.service';
import { SiteStructurePresenter } from './site-structure.presenter';
import { StructureNodeController } from './structure-node.controller';

const GROUP = 'orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId';

/** The routes of section groups: those of every structure node, and their sections. */
export class SiteSectionGroupsController extends StructureNodeController({
  segment: 'section-groups',
  resource: 'siteSectionGroup',
  param: 'siteSectionGroupId',
  tag: 'site-section-groups',
  service: SiteSectionGroupsService,
  response: SiteSectionGroupResponse,
  classes: {
    list: PageQueryDto,
    add: AddSiteSectionGroupDto,
    update: UpdateSiteSectionGroupDto,
    move: MoveSiteSectionGroupDto,
  },
  operations: {
    list: {
      operationId: 'listSiteSectionGroups',
      summary: 'List all site section groups',
      description:
        'Every group of the site (nested ones too), in the order a reader meets them (as moves and sorts set it).',
    },
    add: {
      operationId: 'addSectionGroupToSite',
      summary: 'Add a section group to a site',
      description:
        'At the end of `parent` (a group; the site root when absent), with `sections` moved ' +
        'into it in that order. 400 when the parent or a section is not in the site.',
    },
    update: {
      operationId: 'updateSiteSectionGroupById',
      summary: 'Update a site section group',
      description: 'Absent fields are unchanged; `icon: null` removes the icon.',
    },
    remove: {
      operationId: 'deleteSiteSectionGroupById',
      summary: 'Delete a site section group',
      description:
        'Its sections and nested groups take its place among its siblings. Also 204 when there ' +
        'is no such group.',
    },
    move: {
      operationId: 'moveSiteSectionGroup',
      summary: 'Move a site section group',
      description:
        'Among the sections and groups of its parent; the end without `position`. Deprecated: ' +
        'use `sortSiteStructure`.',
    },
  },
  answers: {
    removed: 'The group is gone.',
    badMove: 'Invalid move position: a target that is not in the site or not a sibling.',
  },
  present: (presenter, { view, node }) => presenter.group(view, node),
}) {
  constructor(
    private readonly groups: SiteSectionGroupsService,
    presenter: SiteStructurePresenter,
    urls: UrlBuilder,
  ) {
    super(groups, presenter, urls);
  }

  @Post(`${GROUP}/sections`)
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
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async addSection(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: AddSectionToGroupDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSectionGroupResponse> {
    const { view, node } = await this.groups.addSection(
      site.organizationId,
      siteId,
      actor.userId,
      groupId,
      body.sectionId,
    );
    response.location(
      this.urls.api('orgs', site.organizationId, 'sites', siteId, 'section-groups', groupId),
    );
    return this.presenter.group(view, node);
  }

  @Delete(`${GROUP}/sections/:siteSectionId`)
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
}
