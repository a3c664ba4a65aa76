import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor, Granted } from '../platform/auth/access.decorator';
import type { AdminActor, UserActor } from '../platform/auth/actor';
import { invalidInput } from '../platform/errors/domain-error';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { LargeBody } from '../platform/validation/request-body';
import { IntegrationResponse } from './dto/integration.response';
import {
  INTEGRATION_NAME_PATTERN,
  IntegrationDevelopmentModeDto,
  ListIntegrationsQueryDto,
  PublishIntegrationDto,
} from './dto/publish-integration.dto';
import type { Integration } from './entities/integration.entity';
import { IntegrationsPresenter } from './integrations.presenter';
import { IntegrationsService } from './integrations.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const nameParam = ApiParam({
  name: 'integrationName',
  description: 'Name of the integration.',
  schema: { type: 'string', pattern: INTEGRATION_NAME_PATTERN.source, maxLength: 100 },
});

type Caller = UserActor | AdminActor;

/**
 * GitBook's integration platform, the publishing side: what `gitbook publish`, `gitbook dev`
 * and `gitbook unpublish` call, and the catalogue.
 */
@Controller('integrations')
export class IntegrationsController {
  constructor(
    private readonly integrations: IntegrationsService,
    private readonly presenter: IntegrationsPresenter,
  ) {}

  @Get()
  @Access.userOrAdmin()
  @ApiOperation({
    operationId: 'listIntegrations',
    summary: 'List integrations',
    description:
      "The public integrations, and every one of the caller's organizations (private and " +
      'unlisted ones too); the instance administrator sees all. By name.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationResponse) })
  @badRequest
  async list(
    @CurrentActor() actor: Caller,
    @Query() query: ListIntegrationsQueryDto,
  ): Promise<Page<IntegrationResponse>> {
    return mapPage(await this.integrations.list(actor, query), (view) =>
      this.presenter.present(view),
    );
  }

  @Get(':integrationName')
  @Access('integration', 'view', {
    param: 'integrationName',
    integrations: { integration: true, installation: 'any' },
  })
  @ApiOperation({
    operationId: 'getIntegrationByName',
    summary: 'Get an integration by its name',
    description:
      'A public or unlisted integration for anyone signed in; a private one for the members ' +
      'of the organization that owns it.',
  })
  @ApiOkResponse({ type: IntegrationResponse })
  async get(@Granted() access: ResolvedAccess<Integration>): Promise<IntegrationResponse> {
    return this.presenter.present(await this.integrations.view(access));
  }

  @Post(':integrationName')
  @HttpCode(200)
  @Access.userOrAdmin()
  @LargeBody()
  @nameParam
  @ApiOperation({
    operationId: 'publishIntegration',
    summary: 'Publish an integration',
    description:
      'What `gitbook publish` sends: the manifest and the built script. The first publish of a ' +
      'name creates the integration, owned by `organization`; each next one makes a new ' +
      "version. The instance administrator's token publishes any; an organization's admins " +
      'publish its private integrations. Secrets are kept sealed and never answered. 409 ' +
      "when the name is another organization's integration.",
  })
  @ApiOkResponse({ type: IntegrationResponse })
  @ApiConflictResponse({ type: ErrorBody, description: 'The name belongs to another owner.' })
  @badRequest
  async publish(
    @CurrentActor() actor: Caller,
    @Param('integrationName') name: string,
    @Body() body: PublishIntegrationDto,
  ): Promise<IntegrationResponse> {
    if (name.length > 100 || !INTEGRATION_NAME_PATTERN.test(name)) {
      throw invalidInput('integrationName must be at most 100 letters, digits, "-", "_" or "."');
    }
    return this.presenter.present(await this.integrations.publish(actor, name, body));
  }

  @Delete(':integrationName')
  @Access.userOrAdmin()
  @nameParam
  @ApiOperation({
    operationId: 'unpublishIntegration',
    summary: 'Unpublish an integration',
    description:
      'Removes it with its installations. 205 when it was removed, 204 when there was none ' +
      '(or none the caller sees).',
  })
  @ApiResponse({ status: 205, description: 'Integration has been deleted' })
  @ApiNoContentResponse({ description: 'Integration did not exist' })
  async unpublish(
    @CurrentActor() actor: Caller,
    @Param('integrationName') name: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    response.status((await this.integrations.unpublish(actor, name)) ? 205 : 204);
  }

  @Put(':integrationName/dev')
  @HttpCode(204)
  @Access.userOrAdmin()
  @nameParam
  @ApiOperation({
    operationId: 'setIntegrationDevelopmentMode',
    summary: 'Send the events of an integration to a development tunnel',
    description:
      'What `gitbook dev` calls: its events go to `tunnelUrl` instead of its script, those of ' +
      'the owning organization only, or of every organization with `all`.',
  })
  @ApiNoContentResponse({ description: 'Updated development mode successfully' })
  @badRequest
  async setDevelopmentMode(
    @CurrentActor() actor: Caller,
    @Param('integrationName') name: string,
    @Body() body: IntegrationDevelopmentModeDto,
  ): Promise<void> {
    await this.integrations.setDevelopmentMode(actor, name, body);
  }

  @Delete(':integrationName/dev')
  @HttpCode(205)
  @Access.userOrAdmin()
  @nameParam
  @ApiOperation({
    operationId: 'disableIntegrationDevelopmentMode',
    summary: 'End the development mode of an integration',
    description: 'Its events go to its published script again.',
  })
  @ApiResponse({ status: 205, description: 'Disabled development mode successfully' })
  async disableDevelopmentMode(
    @CurrentActor() actor: Caller,
    @Param('integrationName') name: string,
  ): Promise<void> {
    await this.integrations.disableDevelopmentMode(actor, name);
  }
}
