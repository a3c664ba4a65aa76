import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { LinkInviteResponse } from './dto/link-invite.dto';
import { OrganizationInvite } from './entities/organization-invite.entity';
import { CallerMembership, inviteIsRedundant } from './invite-redundancy';

@Injectable()
export class LinkInvitesPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** The invite as seen by a caller with `membership` of its organization (null: none). */
  present(invite: OrganizationInvite, membership: CallerMembership | null): LinkInviteResponse {
    return {
      object: 'invite',
      id: invite.id,
      role: invite.role,
      redundant: inviteIsRedundant(membership, invite.role),
      urls: {
        location: this.urls.api('orgs', invite.organizationId, 'link-invites', invite.id),
        app: this.urls.app('invite', invite.organizationId, invite.id),
      },
    };
  }
}
