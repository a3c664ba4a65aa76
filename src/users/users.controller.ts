import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ErrorBody } from '../platform/errors/error-body';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { CreateTokenDto, UpdateUserProfileDto } from './dto/admin-user.dto';
import { Access, CurrentActor, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { Actor, AdminActor, UserActor } from '../platform/auth/actor';
import type { UserAccess } from './user-access.policy';
import { ApiTokenResponse, CreatedTokenResponse, UserResponse } from './dto/user.response';
import { UsersPresenter } from './users.presenter';
import { AdminUsersService } from './admin-users.service';
import { UsersService } from './users.service';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly adminUsers: AdminUsersService,
    private readonly presenter: UsersPresenter,
  ) {}

  @Get('user')
  @Access.user({ limitedTokens: true })
  @ApiOperation({ operationId: 'getAuthenticatedUser', summary: 'Get the authenticated user' })
  @ApiOkResponse({ type: UserResponse })
  me(@CurrentUser() actor: UserActor): UserResponse {
    return this.presenter.user(actor.user);
  }

  @Post('user/tokens')
  @Access.user()
  @ApiOperation({
    operationId: 'createUserToken',
    summary: 'Create an API token for the authenticated user',
    description:
      "Bindery's own. The token (`bnd_…`) is in the answer only: keep it; its hash is all that is stored.",
  })
  @ApiCreatedResponse({ type: CreatedTokenResponse })
  async createToken(
    @CurrentUser() actor: UserActor,
    @Body() body: CreateTokenDto,
  ): Promise<CreatedTokenResponse> {
    return this.presenter.createdToken(await this.users.issueToken(actor.userId, body));
  }

  @Get('user/tokens')
  @Access.user()
  @ApiOperation({
    operationId: 'listUserTokens',
    summary: "List the authenticated user's API tokens",
    description: "Bindery's own. Newest first; never their secrets.",
  })
  @ApiOkResponse({ type: PageOf(ApiTokenResponse) })
  async listTokens(
    @CurrentUser() actor: UserActor,
    @Query() query: PageQueryDto,
  ): Promise<Page<ApiTokenResponse>> {
    return mapPage(await this.users.listTokens(actor.userId, query), (token) =>
      this.presenter.token(token),
    );
  }

  @Delete('user/tokens/:tokenId')
  @Access.user()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeUserToken',
    summary: "Revoke one of the authenticated user's API tokens",
    description: "Bindery's own. It stops working at the next request (this one's included).",
  })
  @ApiNoContentResponse()
  async revokeToken(
    @CurrentUser() actor: UserActor,
    @Param('tokenId') tokenId: string,
  ): Promise<void> {
    await this.users.revokeToken(actor.userId, tokenId);
  }

  @Get('users/:userId')
  @Access('user', 'view', { siteReaders: true })
  @ApiOperation({
    operationId: 'getUserById',
    summary: 'Get a user by its ID',
    description:
      'Only users who share an organization with the caller are visible. A site token reads ' +
      "the members of its site's organization (mentioned in its content), without their email.",
  })
  @ApiOkResponse({ type: UserResponse })
  getById(@CurrentActor() actor: Actor, @Granted() access: UserAccess): UserResponse {
    return actor.kind === 'siteReader'
      ? this.presenter.publicUser(access.entity)
      : this.presenter.user(access.entity);
  }

  @Patch('users/:userId')
  @Access.userOrAdmin()
  @ApiOperation({
    operationId: 'updateUserById',
    summary: 'Update a user by its ID',
    description:
      'A user changes its own profile: `displayName` (1 to 64 characters, trimmed) and ' +
      '`photoURL` (an http(s) URL), at least one. Another user is refused: 403 when the ' +
      'caller sees them (they share an organization), 404 otherwise. The instance ' +
      "administrator's token may change any user's profile (404 for a deleted user).",
  })
  @ApiOkResponse({ type: UserResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input, or nothing to change.' })
  @ApiForbiddenResponse({ type: ErrorBody, description: "Another user's profile." })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such user that the caller sees.' })
  async update(
    @CurrentActor() actor: UserActor | AdminActor,
    @Param('userId') userId: string,
    @Body() body: UpdateUserProfileDto,
  ): Promise<UserResponse> {
    const callerId = actor.kind === 'admin' ? null : actor.userId;
    return this.presenter.user(await this.adminUsers.updateProfile(callerId, userId, body));
  }
}
