import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { SpacesModule } from '../spaces/spaces.module';
import { User } from '../users/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { Member } from '../orgs/entities/member.entity';
import { Organization } from '../orgs/entities/organization.entity';
import { MembersModule } from '../orgs/members/members.module';
import { OrgsModule } from '../orgs/orgs.module';
import { ContentTransfersRegistration } from './content-transfers.registration';
import { EmailDomainsController } from './email-domains.controller';
import { EmailInviteLinks } from './email-invite-links';
import { EmailInvitesController } from './email-invites.controller';
import { EmailInvitesPresenter } from './email-invites.presenter';
import { EmailInvitesRepository } from './email-invites.repository';
import { EmailInvitesService } from './email-invites.service';
import { EmailInvite } from './entities/email-invite.entity';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { InvitesController } from './invites.controller';
import { InvitesRepository } from './invites.repository';
import { InvitesService } from './invites.service';
import { LinkInvitesController } from './link-invites.controller';
import { LinkInvitesPresenter } from './link-invites.presenter';
import { LinkInvitesService } from './link-invites.service';

/**
 * How users become members: admin invites (emailed invitations to addresses of no user yet),
 * invite links (to the organization, or to one of its
 * spaces or collections, which spaces and collections present), email domains.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([OrganizationInvite, EmailInvite, Organization, Member, User]),
    UsersModule,
    OrgsModule,
    MembersModule,
    SpacesModule,
    CollectionsModule,
  ],
  controllers: [
    InvitesController,
    LinkInvitesController,
    EmailInvitesController,
    EmailDomainsController,
  ],
  providers: [
    InvitesService,
    LinkInvitesService,
    LinkInvitesPresenter,
    InvitesRepository,
    ContentTransfersRegistration,
    EmailInvitesService,
    EmailInvitesRepository,
    EmailInviteLinks,
    EmailInvitesPresenter,
  ],
  exports: [EmailInvitesService],
})
export class InvitesModule {}
