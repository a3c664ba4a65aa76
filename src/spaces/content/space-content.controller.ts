import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import type { Actor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import type { SpaceAccess } from '../space-access.resolver';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentReader, type ReadRevision } from '../../content-engine/reads/content-reader';
import { contentView, type ContentView } from './content.presenter';
import {
  documentReadOptions,
  DocumentQueryDto,
  ListFilesQueryDto,
  PageContentQueryDto,
  RevisionQueryDto,
} from './dto/content-query.dto';
import {
  JSONDocumentResponse,
  RevisionFileResponse,
  RevisionPageMetaLinksResponse,
  RevisionPageResponse,
  RevisionPagesResponse,
  RevisionResponse,
  RevisionReusableContentResponse,
} from './dto/content.response';
import { PageMetaLinks } from './page-meta-links';
import { RevisionContent } from './revision-content';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const pagePathParam = ApiParam({
  name: 'pagePath',
  type: String,
  description: 'Path of the page in the revision: its slugs from the top joined by `/`.',
});

const HIDDEN_PAGE_REFS =
  'For a site token, a document has no refs to the pages its visitor does not see: a link to ' +
  'one keeps its text; a mention, a button or a content-ref card of one is left out.';

/**
 * Content reads: by members, by a published site's token (what it publishes), and by an
 * integration's installation holding `space:content:read` on the spaces it is installed on.
 */
const PUBLISHED_OR_INSTALLED = {
  siteReaders: true,
  integrations: { installation: 'space:content:read' },
} as const;
/** A wildcard route parameter: Express 5 gives its segments, decoded. */
function joinPath(value: string | string[]): string {
  return Array.isArray(value) ? value.join('/') : value;
}

/**
 * Reads of a space's content: its primary revision (`/content`) or any revision of the space
 * by id (`/revisions/:revisionId`), with the same shapes.
 */
@Controller('spaces/:spaceId')
export class SpaceContentController {
  constructor(
    private readonly reader: ContentReader,
    private readonly content: RevisionContent,
    private readonly metaLinks: PageMetaLinks,
  ) {}

  @Get('content')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.revision(await this.primary(space), this.view(space, null, query));
  }

  @Get('content/pages')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.pages(await this.primary(space), this.view(space, null, query));
  }

  @Get('content/page/:pageId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'getPageById',
    summary: 'Get a page of the current revision by its id',
    description:
      'Any page variant, with its subpages; a document page with its body as `format` asks: ' +
      '`document` (the default; none for an empty page) or `markdown` (the title as the first ' +
      '`#` heading, then the body, its files as their download URLs; an empty page has its ' +
      'heading). ' +
      HIDDEN_PAGE_REFS,
  })
  @ApiOkResponse({ type: RevisionPageResponse })
  @badRequest
  async getPage(
    @Granted() space: SpaceAccess,
    @Param('pageId') pageId: string,
    @Query() query: PageContentQueryDto,
  ): Promise<RevisionPageResponse> {
    return this.content.page(
      await this.primary(space),
      pageId,
      this.view(space, null, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('content/page/:pageId/meta-links')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'listSpacePageMetaLinks',
    summary: 'List the meta links of a page of the current revision',
    description:
      'As listRevisionPageMetaLinks, on the primary revision: its canonical link (never set) ' +
      'and alternates, the same page in the translations of this space that the caller may ' +
      'see, the page itself first. `{}` when there is none; 404 for a page that does not ' +
      "exist or that a site token's visitor does not see.",
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksResponse })
  async listPageMetaLinks(
    @CurrentActor() actor: Actor,
    @Granted() space: SpaceAccess,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksResponse> {
    return this.metaLinks.of(actor, space, await this.primary(space), pageId);
  }

  @Get('content/path/*pagePath')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.pageByPath(
      await this.primary(space),
      joinPath(pagePath),
      this.view(space, null, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('content/files')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({ operationId: 'listFiles', summary: 'List the files of the current revision' })
  @ApiOkResponse({ type: PageOf(RevisionFileResponse) })
  @badRequest
  async listFiles(
    @Granted() space: SpaceAccess,
    @Query() query: ListFilesQueryDto,
  ): Promise<Page<RevisionFileResponse>> {
    return this.content.files(await this.primary(space), this.view(space, null, query), query);
  }

  @Get('content/files/:fileId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({ operationId: 'getFileById', summary: 'Get a file of the current revision' })
  @ApiOkResponse({ type: RevisionFileResponse })
  @badRequest
  async getFile(
    @Granted() space: SpaceAccess,
    @Param('fileId') fileId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionFileResponse> {
    return this.content.file(await this.primary(space), fileId, this.view(space, null, query));
  }

  @Get('content/reusable-contents/:reusableContentId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'getReusableContentById',
    summary: 'Get a reusable content of the current revision by its id',
    description:
      'Its id, title and `document` (the id of its JSON document, absent when it is empty); ' +
      '`git` unless metadata=false.',
  })
  @ApiOkResponse({ type: RevisionReusableContentResponse })
  @badRequest
  async getReusableContent(
    @Granted() space: SpaceAccess,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionReusableContentResponse> {
    return this.content.reusableContent(
      await this.primary(space),
      reusableContentId,
      this.view(space, null, query),
    );
  }

  @Get('revisions/:revisionId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.revision(read, this.view(space, revisionId, query));
  }

  @Get('revisions/:revisionId/pages')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.pages(read, this.view(space, revisionId, query));
  }

  @Get('revisions/:revisionId/page/:pageId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.content.page(
      read,
      pageId,
      this.view(space, revisionId, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('revisions/:revisionId/page/:pageId/document')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'getPageDocumentInRevisionById',
    summary: 'Get the document of a page of a revision',
    description:
      'The JSON document of a document page (empty for a page without a body); 404 for a ' +
      'group, link or computed page. `dereferenced=reusable-contents` inlines the reusable ' +
      'contents the document includes. Expressions are not evaluated (`evaluated` is accepted ' +
      'and changes nothing): they come as stored. ' +
      HIDDEN_PAGE_REFS,
  })
  @ApiOkResponse({ type: JSONDocumentResponse })
  @badRequest
  async getPageDocumentInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() query: DocumentQueryDto,
  ): Promise<JSONDocument> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.content.pageDocument(
      read,
      pageId,
      this.view(space, revisionId, {}),
      documentReadOptions(query),
    );
  }

  @Get('revisions/:revisionId/page/:pageId/meta-links')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'listRevisionPageMetaLinks',
    summary: 'List the meta links of a page of a revision',
    description:
      'Its canonical link (never set) and alternates: the same page in the spaces that hold ' +
      "this space's pages in other languages (translations), where their primary content has " +
      'it and the caller may see them, the page itself first. `{}` when there is none; 404 ' +
      "for a page that does not exist or that a site token's visitor does not see.",
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksResponse })
  async listPageMetaLinksInRevision(
    @CurrentActor() actor: Actor,
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksResponse> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.metaLinks.of(actor, space, read, pageId);
  }

  @Get('revisions/:revisionId/reusable-contents/:reusableContentId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'getReusableContentInRevisionById',
    summary: 'Get a reusable content of a revision by its id',
    description:
      'The reusable content as it was in that revision: id, title, `document` (absent when ' +
      'empty) and `git` unless metadata=false; 404 when that revision has none by this id.',
  })
  @ApiOkResponse({ type: RevisionReusableContentResponse })
  @badRequest
  async getReusableContentInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: RevisionQueryDto,
  ): Promise<RevisionReusableContentResponse> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.content.reusableContent(
      read,
      reusableContentId,
      this.view(space, revisionId, query),
    );
  }

  @Get('revisions/:revisionId/reusable-contents/:reusableContentId/document')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
  @ApiOperation({
    operationId: 'getReusableContentDocumentInRevisionById',
    summary: 'Get the document of a reusable content of a revision',
    description:
      "The reusable content's JSON document (empty when it has none), with the same " +
      '`evaluated` and `dereferenced` as page documents, and, for a site token, the same refs ' +
      'left out.',
  })
  @ApiOkResponse({ type: JSONDocumentResponse })
  @badRequest
  async getReusableContentDocumentInRevision(
    @Granted() space: SpaceAccess,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: DocumentQueryDto,
  ): Promise<JSONDocument> {
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.content.reusableContentDocument(
      read,
      reusableContentId,
      this.view(space, revisionId, {}),
      documentReadOptions(query),
    );
  }

  @Get('revisions/:revisionId/path/*pagePath')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    const read = await this.reader.readRevision(space.id, revisionId);
    return this.content.pageByPath(
      read,
      joinPath(pagePath),
      this.view(space, revisionId, query),
      query.format,
      documentReadOptions(query),
    );
  }

  @Get('revisions/:revisionId/files')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.files(read, this.view(space, revisionId, query), query);
  }

  @Get('revisions/:revisionId/files/:fileId')
  @Access('space', 'view', PUBLISHED_OR_INSTALLED)
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
    return this.content.file(read, fileId, this.view(space, revisionId, query));
  }

  private primary(space: SpaceAccess): Promise<ReadRevision> {
    return this.reader.readRevision(space.id, space.entity.revisionId);
  }

  private view(
    space: SpaceAccess,
    revisionId: string | null,
    query: { metadata?: boolean },
  ): ContentView {
    return contentView(space, { revisionId, metadata: query.metadata });
  }
}
