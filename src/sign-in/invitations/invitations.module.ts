import { Module } from '@nestjs/common';
import { InvitesModule } from '../../invites/invites.module';
import { InvitationsController } from './invitations.controller';

/** The pages and the operation that accept an emailed invitation. */
@Module({
  imports: [InvitesModule],
  controllers: [InvitationsController],
})
export class InvitationsModule {}
