import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import {
  ContentLocationResponse,
  ContentReferencesPageResponse,
} from '../../spaces/links/dto/links.dto';
import { LinksPresenter } from '../../spaces/links/links.presenter';
import { LinksService } from '../../spaces/links/links.service';
import { ContentReader, type ReadRevision } from '../../content-engine/reads/content-reader';
import { contentView, type ContentView } from '../../spaces/content/content.presenter';
import {
  documentReadOptions,
  ListFilesQueryDto,
  PageContentQueryDto,
  RevisionQueryDto,
} from '../../spaces/content/dto/content-query.dto';
import {
  RevisionFileResponse,
  RevisionPageMetaLinksResponse,
  RevisionPageResponse,
  RevisionPagesResponse,
  RevisionResponse,
  RevisionReusableContentResponse,
} from '../../spaces/content/dto/content.response';
import { PageMetaLinks } from '../../spaces/content/page-meta-links';
import { RevisionContent } from '../../spaces/content/revision-content';
import { Access, CurrentActor, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { Actor, UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ChangeRequestsPresenter } from '../change-requests.presenter';
import { ChangeRequestsService, type ChangeRequestView } from '../change-requests.service';
import { ChangeRequestSummaryResponse } from '../dto/change-request.response';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
/** A change request and its head revision, as read. */
interface ChangeRequestHead {
  changeRequest: ChangeRequestView;
  read: ReadRevision;
}

/**
 * Reads of a change request's content: its head revision (`revision`), with the shapes and
 * parameters of the space's content reads, and URLs that point into the change request.
 * `:changeRequestId` is its id or its number in the space.
 */
@ApiExtraModels(ChangeRequestSummaryResponse)
@Controller('spaces/:spaceId/change-requests/:changeRequestId/content')
export class ChangeRequestContentController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly changeRequestsPresenter: ChangeRequestsPresenter,
    private readonly reader: ContentReader,
    private readonly content: RevisionContent,
    private readonly links: LinksService,
    private readonly linksPresenter: LinksPresenter,
    private readonly metaLinks: PageMetaLinks,
  ) {}

  @Get()
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getRevisionOfChangeRequestById',
    summary: 'Get the revision of a change request',
    description: 'Its head revision: its page tree, files, reusable contents and variables.',
  })
  @ApiOkResponse({ type: RevisionResponse })
  @badRequest
  async revision(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.revision(head.read, this.view(space, head, query));
  }

  @Get('pages')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listPagesInChangeRequest',
    summary: 'List the pages of a change request',
    description: 'Every page, nested, in order (not paginated).',
  })
  @ApiOkResponse({ type: RevisionPagesResponse })
  @badRequest
  async listPages(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionPagesResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.pages(head.read, this.view(space, head, query));
  }

  @Get('files')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listFilesInChangeRequestById',
    summary: 'List the files of a change request',
  })
  @ApiOkResponse({ type: PageOf(RevisionFileResponse) })
  @badRequest
  async listFiles(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: ListFilesQueryDto,
  ): Promise<Page<RevisionFileResponse>> {
    const head = await this.head(space, changeRequestId);
    return this.content.files(head.read, this.view(space, head, query), query);
  }

  @Get('files/:fileId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getFileInChangeRequestById',
    summary: 'Get a file of a change request by its id',
  })
  @ApiOkResponse({ type: RevisionFileResponse })
  @badRequest
  async getFile(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionFileResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.file(head.read, fileId, this.view(space, head, query));
  }

  @Get('files/:fileId/backlinks')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listChangeRequestFileBacklinks',
    summary: 'List the pages of a change request that reference a file',
  })
  @ApiOkResponse({ type: PageOf(ContentLocationResponse) })
  @badRequest
  async listFileBacklinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('changeRequestId') changeRequestId: string,
    @Param('fileId') fileId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ContentLocationResponse>> {
    const changeRequest = await this.changeRequests.get(space, changeRequestId);
    const listing = await this.links.fileBacklinks(
      space,
      actor.userId,
      fileId,
      query,
      changeRequest.changeRequest.revision,
    );
    return this.linksPresenter.backlinks(listing, this.presented(changeRequest));
  }

  @Get('reusable-contents/:reusableContentId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getReusableContentInChangeRequestById',
    summary: 'Get a reusable content of a change request by its id',
    description: 'A reusable content of its head revision, as getReusableContentById.',
  })
  @ApiOkResponse({ type: RevisionReusableContentResponse })
  @badRequest
  async getReusableContent(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionReusableContentResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.reusableContent(
      head.read,
      reusableContentId,
      this.view(space, head, query),
    );
  }

  @Get('page/:pageId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageInChangeRequestById',
    summary: 'Get a page of a change request by its id',
    description:
      'Any page variant, with its subpages; a document page with its body as `format` asks: ' +
      '`document` (the default; none for an empty page) or `markdown` (the title as the first ' +
      '`#` heading, then the body, its files as their download URLs; an empty page has its ' +
      'heading).',
  })
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPage(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.page(
      head.read,
      pageId,
      this.view(space, head, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('path/*pagePath')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageInChangeRequestByPath',
    summary: 'Get a page of a change request by its path',
    description:
      'A document or group page of its head revision, found by its slugs from the top ' +
      '(`a/b/c`), as getPageInChangeRequestById answers it.',
  })
  @ApiParam({
    name: 'pagePath',
    type: String,
    description: 'Path of the page in the change request: its slugs from the top joined by `/`.',
  })
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPageByPath(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pagePath') pagePath: string | string[],
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const head = await this.head(space, changeRequestId);
    return this.content.pageByPath(
      head.read,
      Array.isArray(pagePath) ? pagePath.join('/') : pagePath,
      this.view(space, head, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('page/:pageId/meta-links')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listChangeRequestPageMetaLinks',
    summary: 'List the meta links of a page of a change request',
    description:
      'As listRevisionPageMetaLinks, on its head revision: its canonical link (never set) and ' +
      'alternates, the same page in the translations of this space (their primary content) ' +
      'that the caller may see, the page itself first. `{}` when there is none.',
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksResponse })
  async listPageMetaLinks(
    @CurrentActor() actor: Actor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksResponse> {
    const head = await this.head(space, changeRequestId);
    return this.metaLinks.of(actor, space, head.read, pageId);
  }

  @Get('page/:pageId/links')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listPageLinksInChangeRequest',
    summary: 'List the links of a page of a change request',
    description:
      'Every link on the page, with its status; `stats` counts them all, and in ' +
      '`broken.changeRequest` the broken ones that the revision the change request was last ' +
      'based on does not have broken there.',
  })
  @ApiOkResponse({ type: ContentReferencesPageResponse })
  @badRequest
  async listPageLinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: PageQueryDto,
  ): Promise<ContentReferencesPageResponse> {
    const changeRequest = await this.changeRequests.get(space, changeRequestId);
    const { revision, revisionMergedAncestor, revisionInitial } = changeRequest.changeRequest;
    const listing = await this.links.pageLinks(space, actor.userId, pageId, query, {
      revisionId: revision,
      basedOn: revisionMergedAncestor ?? revisionInitial,
    });
    return this.linksPresenter.links(listing, this.presented(changeRequest));
  }

  @Get('page/:pageId/backlinks')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listChangeRequestPageBacklinks',
    summary: 'List the pages of a change request that link to a page',
    description:
      'The pages of its head revision with a link to the page or to an anchor on it (link ' +
      'pages and content-ref cards included), each once.',
  })
  @ApiOkResponse({ type: PageOf(ContentLocationResponse) })
  @badRequest
  async listPageBacklinks(
    @Granted() space: SpaceAccess,
    @CurrentUser() actor: UserActor,
    @Param('changeRequestId') changeRequestId: string,
    @Param('pageId') pageId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ContentLocationResponse>> {
    const changeRequest = await this.changeRequests.get(space, changeRequestId);
    const listing = await this.links.pageBacklinks(
      space,
      actor.userId,
      pageId,
      query,
      changeRequest.changeRequest.revision,
    );
    return this.linksPresenter.backlinks(listing, this.presented(changeRequest));
  }

  /** The change request (by id or number; 404 otherwise) and its head revision. */
  private async head(space: SpaceAccess, changeRequestId: string): Promise<ChangeRequestHead> {
    const changeRequest = await this.changeRequests.get(space, changeRequestId);
    const read = await this.reader.readRevision(space.id, changeRequest.changeRequest.revision);
    return { changeRequest, read };
  }

  private view(
    space: SpaceAccess,
    head: ChangeRequestHead,
    query: { metadata?: boolean },
  ): ContentView {
    return contentView(space, {
      changeRequestNumber: head.changeRequest.changeRequest.number,
      metadata: query.metadata,
    });
  }

  /** The change request as link locations name it. */
  private presented(changeRequest: ChangeRequestView): ChangeRequestSummaryResponse {
    return this.changeRequestsPresenter.summary(changeRequest);
  }
}
