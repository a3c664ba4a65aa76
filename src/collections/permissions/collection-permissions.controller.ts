import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { CollectionAccess } from '../collections.service';
import {
  InviteToCollectionDto,
  UpdateCollectionPermissionDto,
} from './dto/collection-permission.dto';
import {
  TeamContentPermissionResponse,
  UserContentPermissionResponse,
} from './dto/collection-permission.response';
import { CollectionPermissionsPresenter } from './collection-permissions.presenter';
import { CollectionPermissionsService } from './collection-permissions.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/** Who has been given a role on a collection; every operation needs admin on it. */
@Controller('collections/:collectionId/permissions')
export class CollectionPermissionsController {
  constructor(
    private readonly permissions: CollectionPermissionsService,
    private readonly presenter: CollectionPermissionsPresenter,
  ) {}

  @Post()
  @HttpCode(204)
  @Access('collection', 'admin')
  @ApiTags('collection-users')
  @ApiOperation({
    operationId: 'inviteToCollection',
    summary: 'Invite to a collection',
    description:
      'Gives `role` on the collection (and its sub-collections) to members of its organization, ' +
      'guests included, and to its teams; replaces a role they already had. `role: null` ' +
      'removes their grants.',
  })
  @ApiNoContentResponse({ description: 'The grants are set.' })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid input, or a user or team not of the organization.',
  })
  async invite(
    @Granted() access: CollectionAccess,
    @Body() body: InviteToCollectionDto,
  ): Promise<void> {
    await this.permissions.invite(access, body);
  }

  @Get('users')
  @Access('collection', 'admin')
  @ApiTags('collection-users')
  @ApiOperation({
    operationId: 'listUserPermissionsInCollection',
    summary: 'List collection user permissions',
    description: 'The users given a role on this collection itself, oldest grant first.',
  })
  @ApiOkResponse({ type: PageOf(UserContentPermissionResponse) })
  @badRequest
  async listUsers(
    @Granted() access: CollectionAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<UserContentPermissionResponse>> {
    return this.presenter.userPage(await this.permissions.listUsers(access, query));
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @Access('collection', 'admin')
  @ApiTags('collection-users')
  @ApiOperation({
    operationId: 'updateUserPermissionInCollection',
    summary: 'Update a collection user permission',
    description: 'Sets the user’s role (granting it if absent); `role: null` removes the grant.',
  })
  @ApiNoContentResponse({ description: 'User permission was updated.' })
  @badRequest
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No member with this id.' })
  async updateUser(
    @Granted() access: CollectionAccess,
    @Param('userId') userId: string,
    @Body() body: UpdateCollectionPermissionDto,
  ): Promise<void> {
    await this.permissions.setUser(access, userId, body.role);
  }

  @Delete('users/:userId')
  @HttpCode(204)
  @Access('collection', 'admin')
  @ApiTags('collection-users')
  @ApiOperation({
    operationId: 'removeUserFromCollection',
    summary: 'Remove a user from a collection',
    description: 'Also 204 when the user had no grant on it.',
  })
  @ApiNoContentResponse({ description: 'The user has no grant on the collection.' })
  async removeUser(
    @Granted() access: CollectionAccess,
    @Param('userId') userId: string,
  ): Promise<void> {
    await this.permissions.removeUser(access, userId);
  }

  @Get('teams')
  @Access('collection', 'admin')
  @ApiTags('collection-teams')
  @ApiOperation({
    operationId: 'listTeamPermissionsInCollection',
    summary: 'List a collection team permissions',
    description: 'The teams given a role on this collection itself, oldest grant first.',
  })
  @ApiOkResponse({ type: PageOf(TeamContentPermissionResponse) })
  @badRequest
  async listTeams(
    @CurrentUser() actor: UserActor,
    @Granted() access: CollectionAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<TeamContentPermissionResponse>> {
    const page = await this.permissions.listTeams(access, query);
    const role = await this.permissions.organizationRole(access, actor.userId);
    return this.presenter.teamPage(page, { userId: actor.userId, role });
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @Access('collection', 'admin')
  @ApiTags('collection-teams')
  @ApiOperation({
    operationId: 'updateTeamPermissionInCollection',
    summary: 'Update a collection team permission',
    description: 'Sets the team’s role (granting it if absent); `role: null` removes the grant.',
  })
  @ApiNoContentResponse({ description: 'Team permission was updated.' })
  @badRequest
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No team with this id.' })
  async updateTeam(
    @Granted() access: CollectionAccess,
    @Param('teamId') teamId: string,
    @Body() body: UpdateCollectionPermissionDto,
  ): Promise<void> {
    await this.permissions.setTeam(access, teamId, body.role);
  }

  @Delete('teams/:teamId')
  @HttpCode(204)
  @Access('collection', 'admin')
  @ApiTags('collection-teams')
  @ApiOperation({
    operationId: 'removeTeamFromCollection',
    summary: 'Remove a team from a collection',
    description: 'Also 204 when the team had no grant on it.',
  })
  @ApiNoContentResponse({ description: 'The team has no grant on the collection.' })
  async removeTeam(
    @Granted() access: CollectionAccess,
    @Param('teamId') teamId: string,
  ): Promise<void> {
    await this.permissions.removeTeam(access, teamId);
  }
}
