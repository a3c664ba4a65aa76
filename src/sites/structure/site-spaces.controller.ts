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
  AddSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveSiteSpaceDto,
  UpdateSiteSpaceDto,
} from './dto/site-space.dto';
import type { SiteAccess } from '../site-access.policy';
import { SiteSpaceResponse } from './dto/site-structure.response';
import type { SiteSpace } from './entities/site-space.entity';
import { SiteSpacesService } from './site-spaces.service';
import { SiteStructurePresenter } from './site-structure.presenter';
import type { NodeView } from './structure-nodes';

const BASE = 'orgs/:organizationId/sites/:siteId/site-spaces';
const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('site-spaces')
@Controller()
export class SiteSpacesController {
  constructor(
    private readonly siteSpaces: SiteSpacesService,
    private readonly presenter: SiteStructurePresenter,
    private readonly urls: UrlBuilder,
  ) {}

  @Get(BASE)
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteSpaces',
    summary: 'List all site spaces',
    description:
      "The site spaces of the site, in the order a reader meets them (the root's, then each section's, as moves and sorts set it); `default` keeps only the " +
      'defaults (of the root, or of each section) or only the others.',
  })
  @ApiOkResponse({ type: PageOf(SiteSpaceResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Query() query: ListSiteSpacesQueryDto,
  ): Promise<Page<SiteSpaceResponse>> {
    const page = await this.siteSpaces.list(site.organizationId, siteId, actor.userId, query);
    return mapPage(page, (item) => this.present(item));
  }

  @Post(BASE)
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'addSpaceToSite',
    summary: 'Add a space to a site',
    description:
      'To `sectionId`, else to the default section, else (a site without sections) at the ' +
      "root; at the end, with a path from the space's title. The first site space of a " +
      'section (or of the root) is its default. 400 when the space or section is not in the ' +
      'organization or site.',
  })
  @ApiCreatedResponse({ type: SiteSpaceResponse })
  @badRequest
  async add(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: AddSiteSpaceDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSpaceResponse> {
    const view = await this.siteSpaces.add(site.organizationId, siteId, actor.userId, body);
    response.location(
      this.urls.api('orgs', site.organizationId, 'sites', siteId, 'site-spaces', view.node.id),
    );
    return this.present(view);
  }

  @Patch(`${BASE}/:siteSpaceId`)
  @Access('siteSpace', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteSpaceById',
    summary: 'Update a site space',
    description:
      'Absent fields are unchanged; `condition: null` removes the condition. 409 when `path` ' +
      'is the path of a sibling (same section, or the root).',
  })
  @ApiOkResponse({ type: SiteSpaceResponse })
  @badRequest
  @ApiConflictResponse({ type: ErrorBody, description: 'The path is taken by a sibling.' })
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: UpdateSiteSpaceDto,
  ): Promise<SiteSpaceResponse> {
    return this.present(
      await this.siteSpaces.update(site.organizationId, siteId, actor.userId, siteSpaceId, body),
    );
  }

  @Delete(`${BASE}/:siteSpaceId`)
  @HttpCode(204)
  @Access('siteSpace', SITE_WRITE, { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteSpaceById',
    summary: 'Delete a site space',
    description:
      'Also 204 when there is no such site space. Deleting the default makes the next ' +
      'sibling the default.',
  })
  @ApiNoContentResponse({ description: 'The site space is gone.' })
  async remove(
    @Granted() site: SiteAccess | null,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
  ): Promise<void> {
    if (!site) return;
    await this.siteSpaces.remove(site.organizationId, siteId, siteSpaceId);
  }

  @Post(`${BASE}/:siteSpaceId/move`)
  @HttpCode(200)
  @Access('siteSpace', SITE_WRITE)
  @ApiOperation({
    operationId: 'moveSiteSpace',
    deprecated: true,
    summary: 'Move a site space',
    description:
      'Among the site spaces of its section (or root); the end without `position`. ' +
      'Deprecated: use `sortSiteStructure`.',
  })
  @ApiOkResponse({ type: SiteSpaceResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid move position.' })
  async move(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: MoveSiteSpaceDto,
  ): Promise<SiteSpaceResponse> {
    return this.present(
      await this.siteSpaces.move(site.organizationId, siteId, actor.userId, siteSpaceId, body),
    );
  }

  private present({ view, node }: NodeView<SiteSpace>): SiteSpaceResponse {
    return this.presenter.siteSpace(view, node);
  }
}
