import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Authenticator } from '../platform/auth/authenticator';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { ApiToken } from './entities/api-token.entity';
import { User } from './entities/user.entity';
import { TokenScopes } from './token-scopes';
import { TokensService } from './tokens.service';
import { UsersController } from './users.controller';
import { UsersPresenter } from './users.presenter';
import { UsersRepository } from './users.repository';
import { UserAccessPolicy } from './user-access.policy';
import { UsersService } from './users.service';
import { UserDeletionHooks } from './user-deletion';

/** Users, their API tokens, and the admin API that manages them. */
@Module({
  imports: [TypeOrmModule.forFeature([User, ApiToken])],
  controllers: [UsersController, AdminUsersController],
  providers: [
    UsersService,
    AdminUsersService,
    AdminUsersRepository,
    UsersPresenter,
    TokensService,
    TokenScopes,
    UsersRepository,
    UserAccessPolicy,
    UserDeletionHooks,
    { provide: Authenticator, useExisting: TokensService },
  ],
  exports: [UsersService, UsersPresenter, TokensService, Authenticator, UserDeletionHooks],
})
export class UsersModule {}
