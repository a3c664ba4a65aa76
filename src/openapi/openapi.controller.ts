import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
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
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, Granted } from '../platform/auth/access.decorator';
import { LargeBody } from '../platform/validation/request-body';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import {
  CreateOpenAPISpecDto,
  PutOpenAPISpecDto,
  UpdateOpenAPISpecDto,
} from './dto/openapi-spec.dto';
import { OpenAPISpecResponse } from './dto/openapi-spec.response';
import { OPENAPI_READ, OPENAPI_WRITE } from './openapi-access';
import { OpenAPIPresenter } from './openapi.presenter';
import { OpenAPIService } from './openapi.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

const PROCESSING =
  'Processing runs in the background: `processingState` goes `pending` → `progress` → ' +
  '`complete`, with a new version (`lastVersion`) when the content changed, or ' +
  '`lastProcessErrorCode` and `lastProcessedErrors` when it failed (the previous version stays).';

@Controller('orgs/:organizationId/openapi')
export class OpenAPIController {
  constructor(
    private readonly specs: OpenAPIService,
    private readonly presenter: OpenAPIPresenter,
  ) {}

  @Get()
  @Access('organization', OPENAPI_READ)
  @ApiOperation({
    operationId: 'listOpenAPISpecs',
    summary: 'List all OpenAPI specifications',
    description: 'Oldest first.',
  })
  @ApiOkResponse({ type: PageOf(OpenAPISpecResponse) })
  @badRequest
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<OpenAPISpecResponse>> {
    const page = await this.specs.list(organization.id, query);
    return mapPage(page, (spec) => this.presenter.spec(spec, organization.role));
  }

  @Post()
  @HttpCode(201)
  @Access('organization', OPENAPI_WRITE)
  @LargeBody()
  @ApiOperation({
    operationId: 'createOpenAPISpec',
    summary: 'Create an OpenAPI specification',
    description: `From a URL (fetched again every OPENAPI_REFRESH_MINUTES) or a text. ${PROCESSING}`,
  })
  @ApiCreatedResponse({ type: OpenAPISpecResponse })
  @badRequest
  @ApiConflictResponse({ type: ErrorBody, description: 'The slug is taken.' })
  async create(
    @Granted() organization: ResolvedAccess,
    @Body() body: CreateOpenAPISpecDto,
  ): Promise<OpenAPISpecResponse> {
    const spec = await this.specs.create(organization.id, body);
    return this.presenter.spec(spec, organization.role);
  }

  @Get(':specSlug')
  @Access('organization', OPENAPI_READ)
  @ApiOperation({ operationId: 'getOpenAPISpecBySlug', summary: 'Get an OpenAPI specification' })
  @ApiOkResponse({ type: OpenAPISpecResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
  ): Promise<OpenAPISpecResponse> {
    return this.presenter.spec(await this.specs.get(organization.id, slug), organization.role);
  }

  @Put(':specSlug')
  @Access('organization', OPENAPI_WRITE)
  @LargeBody()
  @ApiOperation({
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    summary: 'Create or update an OpenAPI specification',
    description: `Creates the specification (201) or replaces its source (200), and processes it again. ${PROCESSING}`,
  })
  @ApiOkResponse({ type: OpenAPISpecResponse, description: 'The specification was updated.' })
  @ApiCreatedResponse({ type: OpenAPISpecResponse, description: 'The specification was created.' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input, or an invalid slug.' })
  async put(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
    @Body() body: PutOpenAPISpecDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OpenAPISpecResponse> {
    const { spec, created } = await this.specs.put(organization.id, slug, body);
    response.status(created ? 201 : 200);
    return this.presenter.spec(spec, organization.role);
  }

  @Patch(':specSlug')
  @Access('organization', OPENAPI_WRITE)
  @ApiOperation({
    operationId: 'updateOpenAPISpecBySlug',
    summary: 'Update the visibility of an OpenAPI specification',
    description: 'A `public` specification is readable by anyone at `urls.published`.',
  })
  @ApiOkResponse({ type: OpenAPISpecResponse })
  @badRequest
  async update(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
    @Body() body: UpdateOpenAPISpecDto,
  ): Promise<OpenAPISpecResponse> {
    const spec = await this.specs.update(organization.id, slug, body);
    return this.presenter.spec(spec, organization.role);
  }

  @Delete(':specSlug')
  @HttpCode(204)
  @Access('organization', OPENAPI_WRITE)
  @ApiOperation({
    operationId: 'deleteOpenAPISpecBySlug',
    summary: 'Delete an OpenAPI specification',
    description: 'With its versions. Also 204 when there is no such specification.',
  })
  @ApiNoContentResponse({ description: 'The specification is gone.' })
  async remove(
    @Granted() organization: ResolvedAccess,
    @Param('specSlug') slug: string,
  ): Promise<void> {
    await this.specs.remove(organization.id, slug);
  }
}
