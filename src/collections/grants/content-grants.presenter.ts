import { Injectable } from '@nestjs/common';
import { TeamsPresenter } from '../../orgs/teams/teams.presenter';
import { mapPage, Page } from '../../platform/pagination/page';
import { UsersPresenter } from '../../users/users.presenter';
import {
  TeamContentPermissionResponse,
  UserContentPermissionResponse,
  UserSitePermissionResponse,
} from './dto/content-grant.response';
import type {
  ContentResource,
  MemberPermission,
  TeamPermissionPage,
  UserPermission,
} from './content-grants.service';

/** Roles on a collection, space or site as GitBook's `{permission, user}` and `{permission, team}`. */
@Injectable()
export class ContentGrantsPresenter {
  constructor(
    private readonly users: UsersPresenter,
    private readonly teams: TeamsPresenter,
  ) {}

  userPage(page: Page<UserPermission>): Page<UserContentPermissionResponse> {
    return mapPage(page, ({ role, user }) => ({ permission: role, user: this.users.user(user) }));
  }

  /**
   * The aggregate: GitBook's `UserContentPermission` on a collection or space; on a site its
   * `UserSitePermission`, with what decided the role (`origin`) and the membership's state.
   */
  memberPage(
    resource: ContentResource,
    page: Page<MemberPermission>,
  ): Page<UserContentPermissionResponse | UserSitePermissionResponse> {
    if (resource.resourceType !== 'site') return this.userPage(page);
    return mapPage(page, ({ role, user, member, origin }) => ({
      permission: role,
      user: this.users.user(user),
      origin:
        origin.kind === 'organization'
          ? { type: 'organization' as const, organization: resource.organizationId }
          : {
              type: 'site' as const,
              site: resource.id,
              reason: origin.kind === 'user' ? ('member' as const) : ('team' as const),
              ...(origin.kind === 'team' ? { team: origin.teamId } : {}),
            },
      disabled: member.disabled,
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    }));
  }

  async teamPage({
    viewer,
    ...page
  }: TeamPermissionPage): Promise<Page<TeamContentPermissionResponse>> {
    const teams = await this.teams.presentTeams(
      page.items.map((item) => item.team),
      viewer,
    );
    return {
      ...page,
      items: page.items.map(({ role }, i) => ({ permission: role, team: teams[i] })),
    };
  }
}
