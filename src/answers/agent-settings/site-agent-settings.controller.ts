import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ, SITE_WRITE } from '../../sites/site-access';
import type { SiteAccess } from '../../sites/site-access.policy';
import {
  SiteAgentSettingsResponse,
  UpdateSiteAgentSettingsDto,
} from './dto/site-agent-settings.dto';
import { SiteAgentSettingsPresenter } from './site-agent-settings.presenter';
import { SiteAgentSettingsService } from './site-agent-settings.service';

const STORED =
  'Bindery stores the settings as given; no agent of its own scans topics, makes findings or ' +
  'edits with them.';

/** A site's agent settings: members who read the site read them, site writers change them. */
@Controller('orgs/:organizationId/sites/:siteId/agent-settings')
export class SiteAgentSettingsController {
  constructor(
    private readonly settings: SiteAgentSettingsService,
    private readonly presenter: SiteAgentSettingsPresenter,
  ) {}

  @Get()
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteAgentSettingsById',
    summary: 'Get the AI agent configuration for a site',
    description:
      'Never written: nothing scanned (`never`), no change requests from findings (`never`), ' +
      `empty instructions, and no \`updatedAt\`. ${STORED}`,
  })
  @ApiOkResponse({ type: SiteAgentSettingsResponse })
  async get(@Granted() access: SiteAccess): Promise<SiteAgentSettingsResponse> {
    return this.presenter.present(access.entity, await this.settings.get(access.entity.site.id));
  }

  @Put()
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteAgentSettingsById',
    summary: 'Update the AI agent configuration for a site',
    description: `Replaces the settings (every field is required). ${STORED}`,
  })
  @ApiOkResponse({ type: SiteAgentSettingsResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid settings.' })
  async update(
    @Granted() access: SiteAccess,
    @CurrentUser() actor: UserActor,
    @Body() body: UpdateSiteAgentSettingsDto,
  ): Promise<SiteAgentSettingsResponse> {
    const written = await this.settings.put(access.entity.site.id, actor.userId, body);
    return this.presenter.present(access.entity, written);
  }
}
