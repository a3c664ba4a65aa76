import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import {
  CreateTeamDto,
  ListMemberTeamsQueryDto,
  ListTeamsQueryDto,
  UpdateTeamDto,
} from './dto/team.dto';
import { MemberTeamResponse, TeamResponse } from './dto/team.response';
import type { TeamAccess } from './team-access';
import { TeamViewer, Viewer } from './team-viewer';
import { TeamsPresenter } from './teams.presenter';
import { TeamsService } from './teams.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@Controller('orgs/:organizationId')
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly presenter: TeamsPresenter,
  ) {}

  @Get('teams')
  @Access('organization', 'read')
  @ApiOperation({ operationId: 'listTeamsInOrganizationById', summary: 'List all teams' })
  @ApiOkResponse({ type: PageOf(TeamResponse) })
  @badRequest
  async list(
    @Viewer() viewer: TeamViewer,
    @Param('organizationId') organizationId: string,
    @Query() query: ListTeamsQueryDto,
  ): Promise<Page<TeamResponse>> {
    const page = await this.teams.list(organizationId, viewer, query);
    return { ...page, items: page.items.map((view) => this.presenter.present(view, viewer.role)) };
  }

  @Put('teams')
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createOrganizationTeam',
    summary: 'Create a team',
    description:
      'The listed organization members join it as `member`; the creator is not added unless listed.',
  })
  @ApiCreatedResponse({ type: TeamResponse })
  @badRequest
  async create(
    @Viewer() viewer: TeamViewer,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateTeamDto,
  ): Promise<TeamResponse> {
    return this.presenter.present(
      await this.teams.create(organizationId, viewer, body),
      viewer.role,
    );
  }

  @Get('teams/:teamId')
  @Access('team', 'view')
  @ApiOperation({
    operationId: 'getTeamInOrganizationById',
    summary: 'Get a team',
    description: 'Members from `read` up see every team; guests only the teams they are in.',
  })
  @ApiOkResponse({ type: TeamResponse })
  get(@Granted() team: TeamAccess): TeamResponse {
    return this.presenter.present(team.entity, team.role);
  }

  @Patch('teams/:teamId')
  @Access('team', 'admin')
  @ApiOperation({
    operationId: 'updateTeamInOrganizationById',
    summary: 'Update a team',
    description: "Organization admins and the team's owners.",
  })
  @ApiOkResponse({ type: TeamResponse })
  @badRequest
  async update(@Granted() team: TeamAccess, @Body() body: UpdateTeamDto): Promise<TeamResponse> {
    return this.presenter.present(await this.teams.rename(team.entity, body), team.role);
  }

  @Delete('teams/:teamId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'removeTeamFromOrganizationById',
    summary: 'Delete a team',
    description: 'Also answers 204 when there is no such team.',
  })
  @ApiNoContentResponse({ description: 'The team is gone.' })
  async remove(
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
  ): Promise<void> {
    await this.teams.remove(organizationId, teamId);
  }

  @Get('members/:userId/teams')
  @Access('member', 'listTeams', 'userId')
  @ApiOperation({
    operationId: 'listTeamsForOrganizationMember',
    summary: 'List all organization member teams',
    description:
      "The member's teams with its role in each, most recently joined first. Guests may list only their own.",
  })
  @ApiOkResponse({ type: PageOf(MemberTeamResponse) })
  @badRequest
  async listForMember(
    @Viewer() viewer: TeamViewer,
    @Param('organizationId') organizationId: string,
    @Param('userId') userId: string,
    @Query() query: ListMemberTeamsQueryDto,
  ): Promise<Page<MemberTeamResponse>> {
    const page = await this.teams.listForMember(organizationId, userId, viewer, query);
    return {
      ...page,
      items: page.items.map((item) => this.presenter.memberTeam(item, viewer.role)),
    };
  }
}
