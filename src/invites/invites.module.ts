import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { SpacesModule } from '../spaces/spaces.module';
import { User } from '../users/entities/user.entity';
import { Member } from '../orgs/entities/member.entity';
import { Organization } from '../orgs/entities/organization.entity';
import { MembersModule } from '../orgs/members/members.module';
import { OrgsModule } from '../orgs/orgs.module';
import { ContentTransfersRegistration } from './content-transfers.registration';
import { EmailDomainsController } from './email-domains.controller';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { InvitesController } from './invites.controller';
import { InvitesRepository } from './invites.repository';
import { InvitesService } from './invites.service';
import { LinkInvitesController } from './link-invites.controller';
import { LinkInvitesPresenter } from './link-invites.presenter';
import { LinkInvitesService } from './link-invites.service';

/**
 * How users become members: admin invites, invite links (to the organization, or to one of its
 * spaces or collections, which spaces and collections present), email domains.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([OrganizationInvite, Organization, Member, User]),
    OrgsModule,
    MembersModule,
    SpacesModule,
    CollectionsModule,
  ],
  controllers: [InvitesController, LinkInvitesController, EmailDomainsController],
  providers: [
    InvitesService,
    LinkInvitesService,
    LinkInvitesPresenter,
    InvitesRepository,
    ContentTransfersRegistration,
  ],
})
export class InvitesModule {}
