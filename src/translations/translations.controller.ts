import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Organization } from '../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { ResolvedAccess } from '../platform/policy/access';
import { CreateTranslationDto, UpdateTranslationDto } from './dto/translation.dto';
import { TranslationResponse } from './dto/translation.response';
import { TRANSLATION_READ, TRANSLATION_WRITE } from './translation-access';
import { TranslationsPresenter } from './translations.presenter';
import { TranslationsService } from './translations.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

const RUNS =
  'A run goes `pending` → `running` → `completed` in the background. It translates the source ' +
  "space's primary content into the result space (created by the first run beside the source, " +
  'in the same collection, with `language` set), keeping the page tree, slugs, files and ' +
  'document structure: only text is translated (titles, descriptions and text of documents), ' +
  'not code blocks, inline code, URLs or variables. Later runs translate only the pages whose ' +
  'source changed since the last run (or all of them after new instructions) and reuse the ' +
  'rest; edits made in the result space are replaced by the next run. A failed run records ' +
  'why in `lastRunError` and leaves the result as it was.';

@ApiTags('translations')
@Controller('orgs/:organizationId/translations')
export class TranslationsController {
  constructor(
    private readonly translations: TranslationsService,
    private readonly presenter: TranslationsPresenter,
  ) {}

  @Get()
  @Access('organization', TRANSLATION_READ)
  @ApiOperation({
    operationId: 'listTranslations',
    summary: 'List all the translations',
    description: 'Oldest first.',
  })
  @ApiOkResponse({ type: PageOf(TranslationResponse) })
  @badRequest
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<TranslationResponse>> {
    const page = await this.translations.list(organization.id, query);
    return mapPage(page, (translation) =>
      this.presenter.translation(translation, organization.role),
    );
  }

  @Post()
  @HttpCode(201)
  @Access('organization', TRANSLATION_WRITE)
  @ApiOperation({
    operationId: 'createTranslation',
    summary: 'Create a translation',
    description:
      'Of a space of the organization into another language; `pending` until its first run ' +
      '(runTranslation). 400 for an unknown language, a source space that is not in the ' +
      "organization, or the source's own language.",
  })
  @ApiCreatedResponse({ type: TranslationResponse })
  @badRequest
  async create(
    @Granted() organization: ResolvedAccess,
    @Body() body: CreateTranslationDto,
  ): Promise<TranslationResponse> {
    const translation = await this.translations.create(organization.id, body);
    return this.presenter.translation(translation, organization.role);
  }

  @Get(':translationId')
  @Access('organization', TRANSLATION_READ)
  @ApiOperation({ operationId: 'getTranslation', summary: 'Get a translation by its ID' })
  @ApiOkResponse({ type: TranslationResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('translationId') id: string,
  ): Promise<TranslationResponse> {
    return this.presenter.translation(
      await this.translations.get(organization.id, id),
      organization.role,
    );
  }

  @Put(':translationId')
  @Access('organization', TRANSLATION_WRITE)
  @ApiOperation({
    operationId: 'updateTranslation',
    summary: 'Update a translation',
    description: 'Replaces its instructions; the next run translates every page again.',
  })
  @ApiOkResponse({ type: TranslationResponse })
  @badRequest
  async update(
    @Granted() organization: ResolvedAccess,
    @Param('translationId') id: string,
    @Body() body: UpdateTranslationDto,
  ): Promise<TranslationResponse> {
    const translation = await this.translations.update(organization.id, id, body);
    return this.presenter.translation(translation, organization.role);
  }

  @Delete(':translationId')
  @HttpCode(204)
  @Access('organization', TRANSLATION_WRITE)
  @ApiOperation({
    operationId: 'deleteTranslation',
    summary: 'Delete a translation',
    description:
      'The result space stays, as an ordinary space no longer linked to the source. Also 204 ' +
      'when there is no such translation.',
  })
  @ApiNoContentResponse({ description: 'The translation is gone.' })
  async remove(
    @Granted() organization: ResolvedAccess,
    @Param('translationId') id: string,
  ): Promise<void> {
    await this.translations.remove(organization.id, id);
  }

  @Post(':translationId/run')
  @HttpCode(204)
  @Access('organization', TRANSLATION_WRITE)
  @ApiOperation({
    operationId: 'runTranslation',
    summary: 'Run a translation again',
    description:
      `${RUNS} A run asked for while one is running starts when that one ends (never two at ` +
      'once). 409 when no translation provider is configured (TRANSLATION_PROVIDER) or the ' +
      'source space is deleted; nothing changes then.',
  })
  @ApiNoContentResponse({ description: 'The run is queued.' })
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'No translation provider is configured, or the source space is deleted.',
  })
  async run(
    @Granted() organization: ResolvedAccess<Organization>,
    @CurrentUser() user: UserActor,
    @Param('translationId') id: string,
  ): Promise<void> {
    await this.translations.run(organization.entity!, organization.role, user.userId, id);
  }
}
