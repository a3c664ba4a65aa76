import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { ListImportRunsQueryDto, StartImportRunDto } from './dto/import-run.dto';
import { ImportRunResponse } from './dto/import-run.response';
import { ImportsPresenter } from './imports.presenter';
import { ImportsService } from './imports.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const notFound = ApiNotFoundResponse({ type: ErrorBody, description: 'Not found.' });

const RUNS =
  'A run goes `pending` → `in-progress` → `completed` in the background: it converts the ' +
  'source (a website crawled on its own host, as its robots.txt allows, up to ' +
  'IMPORT_MAX_PAGES pages; or uploaded Markdown, HTML, Word, or ZIP files of pages or of a ' +
  'Confluence or Notion export) into pages, their images and links, and writes them into a ' +
  'change request of the target space (the one given, else a new one titled for the import), ' +
  'under `target.page` when given. The primary content never changes: a person reviews and ' +
  'merges the change request. `progress` and `warnings` say how far it is and what it could ' +
  'not bring over as it was; a `failed` run says why in `reason`. `enhance` (AI) is accepted ' +
  'and ignored.';

/** Members with a role read the organization's import runs. */
const IMPORTS_READ = 'read';

@ApiTags('imports')
@Controller('org/:organizationId/imports')
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly presenter: ImportsPresenter,
  ) {}

  @Get()
  @Access('organization', IMPORTS_READ)
  @ApiOperation({
    operationId: 'listImportRuns',
    summary: 'List the import runs of an organization',
    description:
      'Most recent first. Runs left behind by an import that never reported back ' +
      '(IMPORT_STALE_AFTER_MINUTES) are answered `failed`.',
  })
  @ApiOkResponse({ type: PageOf(ImportRunResponse) })
  @badRequest
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListImportRunsQueryDto,
  ): Promise<Page<ImportRunResponse>> {
    const page = await this.imports.list(organization.id, query);
    const staleBefore = this.imports.staleBefore();
    return mapPage(page, (view) => this.presenter.run(view, staleBefore));
  }

  @Post()
  @HttpCode(201)
  @Access('organization', IMPORTS_READ)
  @ApiOperation({
    operationId: 'startImportRun',
    summary: 'Import content into a space from a website',
    description:
      `${RUNS} Needs the edit role on the target space (403), which the caller sees in the ` +
      'organization (404); 400 for a URL that is not http(s), a file key not uploaded ' +
      '(generateStorageUploadURL, kind `import_file`), a merged or archived change request, ' +
      'or a page not in the content.',
  })
  @ApiCreatedResponse({ type: ImportRunResponse })
  @badRequest
  @notFound
  async start(
    @Granted() organization: ResolvedAccess,
    @CurrentUser() user: UserActor,
    @Body() body: StartImportRunDto,
  ): Promise<ImportRunResponse> {
    const view = await this.imports.start(organization.id, user.userId, body);
    return this.presenter.run(view, this.imports.staleBefore());
  }

  @Get(':importRunId')
  @Access('organization', IMPORTS_READ)
  @ApiOperation({
    operationId: 'getImportRun',
    summary: 'Get an import run',
    description:
      'With its progress, the pages it made, its warnings and, when it failed, why. A run ' +
      'left behind by an import that never reported back is answered `failed`.',
  })
  @ApiOkResponse({ type: ImportRunResponse })
  @notFound
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('importRunId') id: string,
  ): Promise<ImportRunResponse> {
    const view = await this.imports.get(organization.id, id);
    return this.presenter.run(view, this.imports.staleBefore());
  }

  @Post(':importRunId/cancel')
  @HttpCode(200)
  @Access('organization', IMPORTS_READ)
  @ApiOperation({
    operationId: 'cancelImportRun',
    summary: 'Cancel an import run',
    description:
      'Stops a `pending` or `in-progress` run, which writes nothing and stays `cancelled`. By ' +
      'who started it, or a member with the edit role on its space (403 otherwise); 400 once ' +
      'the run has ended.',
  })
  @ApiOkResponse({ type: ImportRunResponse })
  @badRequest
  @notFound
  async cancel(
    @Granted() organization: ResolvedAccess,
    @CurrentUser() user: UserActor,
    @Param('importRunId') id: string,
  ): Promise<ImportRunResponse> {
    const view = await this.imports.cancel(organization.id, user.userId, id);
    return this.presenter.run(view, this.imports.staleBefore());
  }
}
