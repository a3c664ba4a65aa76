import { Injectable } from '@nestjs/common';
import { TeamsPresenter } from '../../orgs/teams/teams.presenter';
import type { TeamViewer } from '../../orgs/teams/team-viewer';
import { Page } from '../../platform/pagination/page';
import { UsersPresenter } from '../../users/users.presenter';
import {
  TeamContentPermissionResponse,
  UserContentPermissionResponse,
} from './dto/collection-permission.response';
import type { TeamGrant, UserGrant } from './collection-permissions.service';

/** Grants as GitBook's `{permission, user}` and `{permission, team}` items. */
@Injectable()
export class CollectionPermissionsPresenter {
  constructor(
    private readonly users: UsersPresenter,
    private readonly teams: TeamsPresenter,
  ) {}

  userPage(page: Page<UserGrant>): Page<UserContentPermissionResponse> {
    return {
      ...page,
      items: page.items.map(({ grant, user }) => ({
        permission: grant.role,
        user: this.users.user(user),
      })),
    };
  }

  async teamPage(
    page: Page<TeamGrant>,
    viewer: TeamViewer,
  ): Promise<Page<TeamContentPermissionResponse>> {
    const teams = await this.teams.presentTeams(
      page.items.map((item) => item.team),
      viewer,
    );
    return {
      ...page,
      items: page.items.map(({ grant }, i) => ({ permission: grant.role, team: teams[i] })),
    };
  }
}
