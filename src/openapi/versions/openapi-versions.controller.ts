import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import {
  OpenAPISpecContentResponse,
  OpenAPISpecRawContentResponse,
  OpenAPISpecVersionResponse,
} from '../dto/openapi-spec.response';
import { OPENAPI_READ } from '../openapi-access';
import { OpenAPIPresenter } from '../openapi.presenter';
import { LATEST, OpenAPIService } from '../openapi.service';

const NOT_FOUND =
  '404 "OpenAPI specification not found." without such a specification, "OpenAPI ' +
  'specification version not found." without such a version.';

/** The versions of a specification: immutable, newest first; `latest` is `lastVersion`. */
@Controller('orgs/:organizationId/openapi/:specSlug/versions')
export class OpenAPIVersionsController {
  constructor(
    private readonly specs: OpenAPIService,
    private readonly presenter: OpenAPIPresenter,
  ) {}

  @Get()
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'listOpenAPISpecVersions',
    summary: 'List the versions of an OpenAPI specification',
    description: 'Newest first. 404 without such a specification.',
  })
  @ApiOkResponse({ type: PageOf(OpenAPISpecVersionResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<OpenAPISpecVersionResponse>> {
    const { spec, page } = await this.specs.listVersions(organization.id, slug, query);
    return mapPage(page, (version) => this.presenter.version(spec, version));
  }

  @Get(LATEST)
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersion',
    summary: 'Get the latest version of an OpenAPI specification',
    description: `${NOT_FOUND} (also before the first successful processing).`,
  })
  @ApiOkResponse({ type: OpenAPISpecVersionResponse })
  latest(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
  ): Promise<OpenAPISpecVersionResponse> {
    return this.version(organization, slug, LATEST);
  }

  @Get(`${LATEST}/content`)
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'Get the content of the latest version of an OpenAPI specification',
    description: NOT_FOUND,
  })
  @ApiOkResponse({ type: OpenAPISpecContentResponse })
  latestContent(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
  ): Promise<OpenAPISpecContentResponse> {
    return this.content(organization, slug, LATEST);
  }

  @Get(`${LATEST}/content/raw`)
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'getLatestOpenAPISpecVersionContentRaw',
    summary: 'Get the raw source of the latest version of an OpenAPI specification',
    description:
      "The latest version's root document exactly as it was given (text) or fetched (URL), " +
      'as `{text, format}` (`json` or `yaml`); the files its `$ref`s bring in are not part ' +
      'of it. ' +
      NOT_FOUND +
      ' Also 404 before the first version, and for a version made before Bindery kept raw ' +
      'sources.',
  })
  @ApiOkResponse({ type: OpenAPISpecRawContentResponse })
  async latestContentRaw(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
  ): Promise<OpenAPISpecRawContentResponse> {
    const raw = await this.specs.getLatestRawSource(organization.id, slug);
    return { text: raw.text, format: raw.format };
  }

  @Get(':versionId')
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'getOpenAPISpecVersionById',
    summary: 'Get a version of an OpenAPI specification',
    description: NOT_FOUND,
  })
  @ApiOkResponse({ type: OpenAPISpecVersionResponse })
  byId(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
  ): Promise<OpenAPISpecVersionResponse> {
    return this.version(organization, slug, versionId);
  }

  @Get(':versionId/content')
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'getOpenAPISpecVersionContentById',
    summary: 'Get the content of a version of an OpenAPI specification',
    description: NOT_FOUND,
  })
  @ApiOkResponse({ type: OpenAPISpecContentResponse })
  contentById(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
  ): Promise<OpenAPISpecContentResponse> {
    return this.content(organization, slug, versionId);
  }

  private async version(
    organization: ResolvedAccess,
    slug: string,
    versionId: string,
  ): Promise<OpenAPISpecVersionResponse> {
    const { spec, version } = await this.specs.getVersion(organization.id, slug, versionId);
    return this.presenter.version(spec, version);
  }

  private async content(
    organization: ResolvedAccess,
    slug: string,
    versionId: string,
  ): Promise<OpenAPISpecContentResponse> {
    const { spec, version } = await this.specs.getVersionContent(organization.id, slug, versionId);
    return this.presenter.content(spec, version);
  }
}
