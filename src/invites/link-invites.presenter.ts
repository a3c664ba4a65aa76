import { Injectable } from '@nestjs/common';
import { CollectionsPresenter } from '../collections/collections.presenter';
import { UrlBuilder } from '../platform/urls/url-builder';
import { SpacesPresenter } from '../spaces/spaces.presenter';
import { LinkInviteResponse } from './dto/link-invite.dto';
import { CallerMembership, contentInviteIsRedundant, inviteIsRedundant } from './invite-redundancy';
import type { InviteView } from './link-invites.service';

@Injectable()
export class LinkInvitesPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly spaces: SpacesPresenter,
    private readonly collections: CollectionsPresenter,
  ) {}

  /**
   * The invite as seen by a caller with `membership` of its organization (null: none), in
   * GitBook's variant for its target: `InviteLinkToOrganization` (`role`), `InviteLinkToSpace`
   * or `InviteLinkToCollection` (`level` and the target, with the caller's permissions on it).
   * `inList`: GitBook's listing declares every item an `InviteLinkToOrganization`, so a space
   * or collection invite there also carries `role` (null: a non-member joins as a guest).
   */
  present(
    { invite, roleOnTarget }: InviteView,
    membership: CallerMembership | null,
    options: { inList?: boolean } = {},
  ): LinkInviteResponse {
    const urls = {
      location: this.urls.api('orgs', invite.organizationId, 'link-invites', invite.id),
      app: this.urls.app('invite', invite.organizationId, invite.id),
    };
    if (invite.level === null) {
      return {
        object: 'invite',
        id: invite.id,
        role: invite.role,
        redundant: inviteIsRedundant(membership, invite.role),
        urls,
      };
    }
    // No role there: the caller holds the link without access to the content, so the
    // content's permissions (which assume a caller who can open it) are all false.
    const target = invite.space
      ? { space: this.spaces.present(invite.space, roleOnTarget) }
      : { collection: this.collections.present(invite.collection!, roleOnTarget) };
    const content = target.space ?? target.collection!;
    if (roleOnTarget === null) content.permissions = nothingAllowed(content.permissions);
    return {
      object: 'invite',
      id: invite.id,
      ...(options.inList ? { role: invite.role } : {}),
      level: invite.level,
      ...target,
      redundant: contentInviteIsRedundant(membership, roleOnTarget, invite.level),
      urls,
    };
  }
}

/** The same permissions, each false. */
function nothingAllowed<T extends object>(permissions: T): T {
  return Object.fromEntries(Object.keys(permissions).map((key) => [key, false])) as T;
}
