import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, type Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { IntegrationResponse } from '../dto/integration.response';
import { IntegrationSearchQueryDto } from './dto/installation.dto';
import { SpaceIntegrationBlocksResponse } from './dto/installation.response';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsService } from './installations.service';

/** What is installed on a space: for whoever sees the space. */
@Controller('spaces/:spaceId')
export class SpaceIntegrationsController {
  constructor(
    private readonly installations: InstallationsService,
    private readonly presenter: InstallationsPresenter,
  ) {}

  @Get('integrations')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listSpaceIntegrations',
    summary: 'List the integrations installed on a space',
    description: 'For whoever sees the space. By name; `search` in their name or title.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async list(
    @CurrentUser() user: UserActor,
    @Granted() space: ResolvedAccess,
    @Query() query: IntegrationSearchQueryDto,
  ): Promise<Page<IntegrationResponse>> {
    const page = await this.installations.listContentIntegrations(user, 'space', space.id, query);
    return mapPage(page, (view) => this.presenter.integration(view));
  }

  @Get('integration-blocks')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listSpaceIntegrationsBlocks',
    summary: 'List the blocks of the integrations installed on a space',
    description:
      'For whoever sees the space: the blocks of each integration whose installation on it is ' +
      'active (its configuration complete), by name.',
  })
  @ApiOkResponse({ type: [SpaceIntegrationBlocksResponse] })
  async blocks(@Granted() space: ResolvedAccess): Promise<SpaceIntegrationBlocksResponse[]> {
    const integrations = await this.installations.spaceBlocks(space.id);
    return integrations.map((integration) => this.presenter.blocks(integration));
  }
}
