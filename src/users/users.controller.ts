import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentUser } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { UserResponse } from './dto/user.response';
import { UsersPresenter } from './users.presenter';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly presenter: UsersPresenter,
  ) {}

  @Get('user')
  @Access.user()
  @ApiOperation({ operationId: 'getAuthenticatedUser', summary: 'Get the authenticated user' })
  @ApiOkResponse({ type: UserResponse })
  me(@CurrentUser() actor: UserActor): UserResponse {
    return this.presenter.user(actor.user);
  }

  @Get('users/:userId')
  @Access.user()
  @ApiOperation({
    operationId: 'getUserById',
    summary: 'Get a user by its ID',
    description: 'Only users who share an organization with the caller are visible.',
  })
  @ApiOkResponse({ type: UserResponse })
  async getById(
    @CurrentUser() actor: UserActor,
    @Param('userId') userId: string,
  ): Promise<UserResponse> {
    return this.presenter.user(await this.users.getVisibleTo(actor.userId, userId));
  }
}
