import { Module } from '@nestjs/common';
import { InvitesModule } from '../../invites/invites.module';
import { SamlModule } from '../../orgs/saml/saml.module';
import { InvitationsController } from './invitations.controller';

/** The pages and the operation that accept an emailed invitation. */
@Module({
  imports: [InvitesModule, SamlModule],
  controllers: [InvitationsController],
})
export class InvitationsModule {}
