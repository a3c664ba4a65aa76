import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access } from '../platform/auth/access.decorator';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { CreateTokenDto, CreateUserDto, UpdateUserDto } from './dto/admin-user.dto';
import {
  AdminUserResponse,
  ApiTokenResponse,
  CreatedTokenResponse,
  CreatedUserResponse,
} from './dto/user.response';
import { UsersPresenter } from './users.presenter';
import { UsersService } from './users.service';

/** The instance administrator's API (not GitBook's): users and their API tokens. */
@ApiTags('admin')
@Controller('admin/users')
@Access.admin()
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
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
  @ApiOperation({ operationId: 'adminListUsers', summary: 'List users' })
  @ApiOkResponse({ type: PageOf(AdminUserResponse) })
  async list(@Query() query: PageQueryDto): Promise<Page<AdminUserResponse>> {
    return mapPage(await this.users.list(query), (user) => this.presenter.adminUser(user));
  }

  @Patch(':userId')
  @ApiOperation({ operationId: 'adminUpdateUser', summary: 'Disable or enable a user' })
  @ApiOkResponse({ type: AdminUserResponse })
  async update(
    @Param('userId') userId: string,
    @Body() body: UpdateUserDto,
  ): Promise<AdminUserResponse> {
    return this.presenter.adminUser(await this.users.setDisabled(userId, body.disabled));
  }

  @Post(':userId/tokens')
  @ApiOperation({ operationId: 'adminCreateUserToken', summary: 'Create an API token for a user' })
  @ApiCreatedResponse({ type: CreatedTokenResponse })
  async createToken(
    @Param('userId') userId: string,
    @Body() body: CreateTokenDto,
  ): Promise<CreatedTokenResponse> {
    return this.presenter.createdToken(await this.users.issueToken(userId, body));
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
    return mapPage(await this.users.listTokens(userId, query), (token) =>
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
