import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { ContentReader, type ReadRevision } from './content-reader';
import { ContentPresenter, type ContentView } from './content.presenter';
import { ListFilesQueryDto, PageContentQueryDto, RevisionQueryDto } from './dto/content-query.dto';
import {
  RevisionFileResponse,
  RevisionPageResponse,
  RevisionPagesResponse,
  RevisionResponse,
} from './dto/content.response';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const pagePathParam = ApiParam({
  name: 'pagePath',
  type: String,
  description: 'Path of the page in the revision: its slugs from the top joined by `/`.',
});

/** A wildcard route parameter: Express 5 gives its segments, decoded. */
function joinPath(value: string | string[]): string {
  return Array.isArray(value) ? value.join('/') : value;
}

/**
 * Reads of a space's content: its primary revision (`/content`) or any revision of the space
 * by id (`/revisions/:revisionId`), with the same shapes.
 */
@ApiTags('space-content')
@Controller('spaces/:spaceId')
export class SpaceContentController {
  constructor(
    private readonly reader: ContentReader,
    private readonly presenter: ContentPresenter,
  ) {}

  @Get('content')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getCurrentRevision',
    summary: 'Get the current revision of a space',
    description: 'The primary revision: its page tree, files, reusable contents and variables.',
  })
  @ApiOkResponse({ type: RevisionResponse })
  @badRequest
  async current(
    @Granted() space: SpaceAccess,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionResponse> {
    return this.revision(await this.primary(space), this.view(space, null, query));
  }

  @Get('content/pages')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listPages',
    summary: 'List the pages of the current revision',
    description: 'Every page, nested, in order (not paginated).',
  })
  @ApiOkResponse({ type: RevisionPagesResponse })
  @badRequest
  async listPages(
    @Granted() space: SpaceAccess,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionPagesResponse> {
    return this.pages(await this.primary(space), this.view(space, null, query));
  }

  @Get('content/page/:pageId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageById',
    summary: 'Get a page of the current revision by its id',
    description:
      'Any page variant, with its subpages; a document page with its body as `format` asks ' +
      '(`document` by default, or `markdown`), an empty page with neither.',
  })
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPage(
    @Granted() space: SpaceAccess,
    @Param('pageId') pageId: string,
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const read = await this.reader.getPage(await this.primary(space), pageId, format(query));
    return this.presenter.page(read.page, this.view(space, null, query), read.body);
  }

  @Get('content/path/*pagePath')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageByPath',
    summary: 'Get a page of the current revision by its path',
    description: 'A document or group page, found by its slugs from the top (`a/b/c`).',
  })
  @pagePathParam
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPageByPath(
    @Granted() space: SpaceAccess,
    @Param('pagePath') pagePath: string | string[],
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const read = await this.reader.getPageByPath(
      await this.primary(space),
      joinPath(pagePath),
      format(query),
    );
    return this.presenter.page(read.page, this.view(space, null, query), read.body);
  }

  @Get('content/files')
  @Access('space', 'view')
  @ApiOperation({ operationId: 'listFiles', summary: 'List the files of the current revision' })
  @ApiOkResponse({ type: PageOf(RevisionFileResponse) })
  @badRequest
  async listFiles(
    @Granted() space: SpaceAccess,
    @Query() query: ListFilesQueryDto,
  ): Promise<Page<RevisionFileResponse>> {
    return this.files(await this.primary(space), this.view(space, null, query), query);
  }

  @Get('content/files/:fileId')
  @Access('space', 'view')
  @ApiOperation({ operationId: 'getFileById', summary: 'Get a file of the current revision' })
  @ApiOkResponse({ type: RevisionFileResponse })
  @badRequest
  async getFile(
    @Granted() space: SpaceAccess,
    @Param('fileId') fileId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionFileResponse> {
    const file = await this.reader.getFile(await this.primary(space), fileId);
    return this.presenter.file(file, this.view(space, null, query));
  }

  @Get('revisions/:revisionId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getRevisionById',
    summary: 'Get a revision of a space by its id',
    description: 'Any revision of the space; a revision of another space is not found.',
  })
  @ApiOkResponse({ type: RevisionResponse })
  @badRequest
  async revisionById(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionResponse> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.revision(read, this.view(space, revisionId, query));
  }

  @Get('revisions/:revisionId/pages')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listPagesInRevisionById',
    summary: 'List the pages of a revision',
  })
  @ApiOkResponse({ type: RevisionPagesResponse })
  @badRequest
  async listPagesInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionPagesResponse> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.pages(read, this.view(space, revisionId, query));
  }

  @Get('revisions/:revisionId/page/:pageId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageInRevisionById',
    summary: 'Get a page of a revision by its id',
  })
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPageInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const revision = await this.reader.readRevision(space.id, revisionId);
    const read = await this.reader.getPage(revision, pageId, format(query));
    return this.presenter.page(read.page, this.view(space, revisionId, query), read.body);
  }

  @Get('revisions/:revisionId/path/*pagePath')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getPageInRevisionByPath',
    summary: 'Get a page of a revision by its path',
  })
  @pagePathParam
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPageInRevisionByPath(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('pagePath') pagePath: string | string[],
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    const revision = await this.reader.readRevision(space.id, revisionId);
    const read = await this.reader.getPageByPath(revision, joinPath(pagePath), format(query));
    return this.presenter.page(read.page, this.view(space, revisionId, query), read.body);
  }

  @Get('revisions/:revisionId/files')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listFilesInRevisionById',
    summary: 'List the files of a revision',
  })
  @ApiOkResponse({ type: PageOf(RevisionFileResponse) })
  @badRequest
  async listFilesInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Query() query: ListFilesQueryDto,
  ): Promise<Page<RevisionFileResponse>> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.files(read, this.view(space, revisionId, query), query);
  }

  @Get('revisions/:revisionId/files/:fileId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getFileInRevisionById',
    summary: 'Get a file of a revision by its id',
  })
  @ApiOkResponse({ type: RevisionFileResponse })
  @badRequest
  async getFileInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('fileId') fileId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionFileResponse> {
    const read = await this.reader.readRevision(space.id, revisionId);
    const file = await this.reader.getFile(read, fileId);
    return this.presenter.file(file, this.view(space, revisionId, query));
  }

  private primary(space: SpaceAccess): Promise<ReadRevision> {
    return this.reader.readRevision(space.id, space.entity.revisionId);
  }

  private view(
    space: SpaceAccess,
    revisionId: string | null,
    query: { metadata?: boolean },
  ): ContentView {
    return {
      organizationId: space.entity.organizationId,
      spaceId: space.id,
      revisionId,
      metadata: query.metadata ?? true,
    };
  }

  private async revision(read: ReadRevision, view: ContentView): Promise<RevisionResponse> {
    const [pages, files] = await Promise.all([
      this.reader.listPages(read),
      this.reader.listAllFiles(read),
    ]);
    return this.presenter.revision(read, { pages, files }, view);
  }

  private async pages(read: ReadRevision, view: ContentView): Promise<RevisionPagesResponse> {
    const pages = await this.reader.listPages(read);
    return { pages: pages.map((page) => this.presenter.page(page, view)) };
  }

  private async files(
    read: ReadRevision,
    view: ContentView,
    query: ListFilesQueryDto,
  ): Promise<Page<RevisionFileResponse>> {
    const page = await this.reader.listFiles(read, query);
    return mapPage(page, (file) => this.presenter.file(file, view));
  }
}

function format(query: PageContentQueryDto) {
  return query.format ?? 'document';
}
