import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import type { ResolvedAccess } from '../../platform/policy/access';
import { Organization } from '../entities/organization.entity';
import { AgentInstructionsPresenter } from './agent-instructions.presenter';
import { AgentInstructionsService } from './agent-instructions.service';
import {
  AgentInstructionsResponse,
  UpdateAgentInstructionsDto,
} from './dto/agent-instructions.dto';

@Controller('orgs/:organizationId/agent-instructions')
export class AgentInstructionsController {
  constructor(
    private readonly instructions: AgentInstructionsService,
    private readonly presenter: AgentInstructionsPresenter,
  ) {}

  @Get()
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'getOrganizationAgentInstructions',
    summary: 'Get Docs agent instructions for an organization',
    description: 'Never written: an empty document.',
  })
  @ApiOkResponse({ type: AgentInstructionsResponse })
  async get(@Granted() access: ResolvedAccess<Organization>): Promise<AgentInstructionsResponse> {
    return this.presenter.present(await this.instructions.get(access.entity as Organization));
  }

  @Put()
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateOrganizationAgentInstructions',
    summary: 'Update Docs agent instructions for an organization',
  })
  @ApiOkResponse({ type: AgentInstructionsResponse })
  async update(
    @Granted() access: ResolvedAccess<Organization>,
    @CurrentUser() actor: UserActor,
    @Body() body: UpdateAgentInstructionsDto,
  ): Promise<AgentInstructionsResponse> {
    const written = await this.instructions.put(
      access.organizationId,
      actor.userId,
      body.instructions,
    );
    return this.presenter.present(written);
  }
}
