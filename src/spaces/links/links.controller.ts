import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { SpaceAccess } from '../space-access.resolver';
import {
  ContentLocationResponse,
  ContentReferencesPageResponse,
  ListLinksQueryDto,
} from './dto/links.dto';
import { LinksPresenter } from './links.presenter';
import { LinksService } from './links.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/** Links of a space's primary revision: their status, and where they appear. */
@Controller('spaces/:spaceId')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly presenter: LinksPresenter,
  ) {}

  @Get('links')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listSpaceLinks',
    summary: 'List the links of a space',
    description:
      'Every target referenced by the pages of the current revision (pages, anchors, files, ' +
      'URLs…) with its status and the places it is referenced, and counts of all and broken ' +
      'links.',
  })
  @ApiOkResponse({ type: ContentReferencesPageResponse })
  @badRequest
  async listSpaceLinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Query() query: ListLinksQueryDto,
  ): Promise<ContentReferencesPageResponse> {
    return this.presenter.links(await this.links.spaceLinks(space, actor.userId, query));
  }

  @Get('content/page/:pageId/links')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listPageLinksInSpace',
    summary: 'List the links of a page of the current revision',
  })
  @ApiOkResponse({ type: ContentReferencesPageResponse })
  @badRequest
  async listPageLinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('pageId') pageId: string,
    @Query() query: ListLinksQueryDto,
  ): Promise<ContentReferencesPageResponse> {
    return this.presenter.links(await this.links.pageLinks(space, actor.userId, pageId, query));
  }

  @Get('content/page/:pageId/backlinks')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listSpacePageBacklinks',
    summary: 'List the pages of the current revision that link to a page',
    description:
      'The pages with a link to the page or to an anchor on it (link pages and content-ref ' +
      'cards included), each once.',
  })
  @ApiOkResponse({ type: PageOf(ContentLocationResponse) })
  @badRequest
  async listPageBacklinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('pageId') pageId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ContentLocationResponse>> {
    return this.presenter.backlinks(
      await this.links.pageBacklinks(space, actor.userId, pageId, query),
    );
  }

  @Get('content/files/:fileId/backlinks')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listSpaceFileBacklinks',
    summary: 'List the pages of the current revision that reference a file',
  })
  @ApiOkResponse({ type: PageOf(ContentLocationResponse) })
  @badRequest
  async listFileBacklinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('fileId') fileId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ContentLocationResponse>> {
    return this.presenter.backlinks(
      await this.links.fileBacklinks(space, actor.userId, fileId, query),
    );
  }
}
