import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { CreateTokenDto } from './dto/admin-user.dto';
import { Access, CurrentActor, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { Actor, UserActor } from '../platform/auth/actor';
import type { UserAccess } from './user-access.policy';
import { ApiTokenResponse, CreatedTokenResponse, UserResponse } from './dto/user.response';
import { UsersPresenter } from './users.presenter';
import { UsersService } from './users.service';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
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
}
