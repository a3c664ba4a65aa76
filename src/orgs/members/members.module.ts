import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../../users/users.module';
import { Member } from '../entities/member.entity';
import { MembersController } from './members.controller';
import { MemberEvents } from './member-events';
import { MembersPresenter } from './members.presenter';
import { MemberAccessPolicy } from './member-access';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { MembersOfDeletedUsers } from './members-of-deleted-users';

/** An organization's members: listing, roles (never without an admin), SSO, leaving, activity. */
@Module({
  imports: [TypeOrmModule.forFeature([Member]), UsersModule],
  controllers: [MembersController],
  providers: [
    MembersService,
    MembersPresenter,
    MembersRepository,
    MemberAccessPolicy,
    MemberEvents,
    MembersOfDeletedUsers,
  ],
  exports: [MembersService, MembersPresenter, MembersRepository, MemberEvents],
})
export class MembersModule {}
