import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access } from '../platform/auth/access.decorator';
import { ErrorBody } from '../platform/errors/error-body';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { CreateTokenDto, CreateUserDto, UpdateUserDto } from './dto/admin-user.dto';
import {
  AdminUserResponse,
  ApiTokenResponse,
  CreatedTokenResponse,
  CreatedUserResponse,
} from './dto/user.response';
import { AdminUsersService } from './admin-users.service';
import { UsersPresenter } from './users.presenter';
import { UsersService } from './users.service';

const userNotFound = ApiNotFoundResponse({
  type: ErrorBody,
  description: 'No such user, or deleted.',
});

/** The instance administrator's API (not GitBook's): users and their API tokens. */
@Controller('admin/users')
@Access.admin()
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly adminUsers: AdminUsersService,
    private readonly presenter: UsersPresenter,
  ) {}

  @Post()
  @ApiOperation({ operationId: 'adminCreateUser', summary: 'Create a user and a first API token' })
  @ApiCreatedResponse({ type: CreatedUserResponse })
  async create(@Body() body: CreateUserDto): Promise<CreatedUserResponse> {
    const { user, token } = await this.users.create(body);
    return { user: this.presenter.adminUser(user), token };
  }

  @Get()
  @ApiOperation({
    operationId: 'adminListUsers',
    summary: 'List users',
    description: 'Newest first; deleted users are not listed.',
  })
  @ApiOkResponse({ type: PageOf(AdminUserResponse) })
  async list(@Query() query: PageQueryDto): Promise<Page<AdminUserResponse>> {
    return mapPage(await this.adminUsers.list(query), (user) => this.presenter.adminUser(user));
  }

  @Patch(':userId')
  @ApiOperation({
    operationId: 'adminUpdateUser',
    summary: 'Rename a user, change its email, or disable or enable it',
    description:
      'Bindery only: at least one of `displayName`, `email` (stored lower-cased; 409 when ' +
      'another user has it) and `disabled` (a disabled user cannot authenticate: its tokens ' +
      'stop at once in this process, within TOKEN_CACHE_MS in the others). 404 for a deleted user.',
  })
  @ApiBody({
    type: UpdateUserDto,
    examples: {
      rename: { summary: 'Rename', value: { displayName: 'Ada King' } },
      email: { summary: 'Change the email address', value: { email: 'ada@example.org' } },
      disable: { summary: 'Disable', value: { disabled: true } },
    },
  })
  @ApiOkResponse({ type: AdminUserResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input, or nothing to change.' })
  @userNotFound
  @ApiConflictResponse({ type: ErrorBody, description: 'Another user has this email address.' })
  async update(
    @Param('userId') userId: string,
    @Body() body: UpdateUserDto,
  ): Promise<AdminUserResponse> {
    return this.presenter.adminUser(await this.adminUsers.update(userId, body));
  }

  @Delete(':userId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'adminDeleteUser',
    summary: 'Delete a user',
    description:
      'Bindery only: its API tokens and organization memberships (with its teams and grants) ' +
      'are deleted and its requests refused at once (within TOKEN_CACHE_MS in other ' +
      'processes); its email address is anonymized, so it may be given to another user. What ' +
      'it wrote (revisions, change requests, comments) keeps it as author, under its name. 409 ' +
      'when it is the last admin of an organization; 404 when already deleted.',
  })
  @ApiNoContentResponse({ description: 'The user is deleted.' })
  @userNotFound
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'The user is the last enabled admin of an organization.',
  })
  async remove(@Param('userId') userId: string): Promise<void> {
    await this.adminUsers.delete(userId);
  }

  @Post(':userId/tokens')
  @ApiOperation({ operationId: 'adminCreateUserToken', summary: 'Create an API token for a user' })
  @ApiCreatedResponse({ type: CreatedTokenResponse })
  async createToken(
    @Param('userId') userId: string,
    @Body() body: CreateTokenDto,
  ): Promise<CreatedTokenResponse> {
    return this.presenter.createdToken(await this.adminUsers.issueToken(userId, body));
  }

  @Get(':userId/tokens')
  @ApiOperation({
    operationId: 'adminListUserTokens',
    summary: "List a user's API tokens",
    description: 'Newest first; never their secrets.',
  })
  @ApiOkResponse({ type: PageOf(ApiTokenResponse) })
  async listTokens(
    @Param('userId') userId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ApiTokenResponse>> {
    return mapPage(await this.adminUsers.listTokens(userId, query), (token) =>
      this.presenter.token(token),
    );
  }

  @Delete(':userId/tokens/:tokenId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'adminRevokeUserToken',
    summary: "Revoke a user's API token",
    description: 'It stops working at the next request.',
  })
  @ApiNoContentResponse()
  async revokeToken(
    @Param('userId') userId: string,
    @Param('tokenId') tokenId: string,
  ): Promise<void> {
    await this.users.revokeToken(userId, tokenId);
  }
}
