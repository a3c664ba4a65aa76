import { Injectable } from '@nestjs/common';
import { EmailInviteResponse } from './dto/invite-users.dto';
import { EmailInvitesService } from './email-invites.service';
import type { EmailInvite } from './entities/email-invite.entity';

@Injectable()
export class EmailInvitesPresenter {
  constructor(private readonly invites: EmailInvitesService) {}

  /** Whether invitations go out by email. */
  get emailing(): boolean {
    return this.invites.emailing;
  }

  /** The invite; with its link only while email is off. */
  present(invite: EmailInvite): EmailInviteResponse {
    const url = this.invites.linkOf(invite);
    return {
      object: 'email-invite',
      id: invite.id,
      email: invite.email,
      role: invite.role,
      sso: invite.sso,
      invitedBy: invite.invitedBy,
      createdAt: invite.createdAt.toISOString(),
      expiresAt: invite.expiresAt.toISOString(),
      ...(url ? { url } : {}),
    };
  }
}
