import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { AddTeamMemberDto } from './dto/team.dto';
import { TeamMemberResponse } from './dto/team.response';
import { UpdateTeamMembersDto } from './dto/update-team-members.dto';
import { TeamMembersService } from './team-members.service';
import { TeamsPresenter } from './teams.presenter';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * A team's members. The organization guard only checks membership (`view`); the service asks
 * for the team's `view` permission to list and `admin` (organization admin or team owner) to
 * change.
 */
@Controller('orgs/:organizationId/teams/:teamId/members')
export class TeamMembersController {
  constructor(
    private readonly members: TeamMembersService,
    private readonly presenter: TeamsPresenter,
  ) {}

  @Get()
  @Access('team', 'view')
  @ApiOperation({
    operationId: 'listTeamMembersInOrganizationById',
    summary: 'List all team members',
    description: 'Most recently added first.',
  })
  @ApiOkResponse({ type: PageOf(TeamMemberResponse) })
  @badRequest
  async list(
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<TeamMemberResponse>> {
    const page = await this.members.list(organizationId, teamId, query);
    return mapPage(page, (item) => this.presenter.teamMember(item));
  }

  @Put()
  @HttpCode(204)
  @Access('team', 'admin')
  @ApiOperation({
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Updates members of a team',
    description:
      'Adds, sets the role of and removes members (user ids or emails) in one transaction. A user both added and removed is removed.',
  })
  @ApiNoContentResponse({ description: 'Members have been updated.' })
  @badRequest
  async update(
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateTeamMembersDto,
  ): Promise<void> {
    await this.members.update(organizationId, teamId, body);
  }

  @Put(':userId')
  @HttpCode(204)
  @Access('team', 'admin')
  @ApiOperation({
    operationId: 'addMemberToOrganizationTeamById',
    summary: 'Add a team member',
    description: 'Adds an organization member to the team, or changes its role in it.',
  })
  @ApiNoContentResponse({ description: 'Member has been added to the team.' })
  @badRequest
  async add(
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Body() body: AddTeamMemberDto,
  ): Promise<void> {
    await this.members.add(organizationId, teamId, userId, body);
  }

  @Delete(':userId')
  @HttpCode(204)
  @Access('team', 'admin')
  @ApiOperation({
    operationId: 'deleteMemberFromOrganizationTeamById',
    summary: 'Delete a team member',
    description: 'Also answers 204 when the user is not in the team.',
  })
  @ApiNoContentResponse({ description: 'The user is not in the team.' })
  async remove(
    @Param('organizationId') organizationId: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
  ): Promise<void> {
    await this.members.remove(organizationId, teamId, userId);
  }
}
