import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentActor, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { Actor, UserActor } from '../platform/auth/actor';
import type { UserAccess } from './user-access.policy';
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
