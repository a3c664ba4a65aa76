import { Injectable } from '@nestjs/common';
import { TeamsPresenter } from '../../orgs/teams/teams.presenter';
import { mapPage, Page } from '../../platform/pagination/page';
import { UsersPresenter } from '../../users/users.presenter';
import {
  TeamContentPermissionResponse,
  UserContentPermissionResponse,
} from './dto/content-grant.response';
import type { TeamPermissionPage, UserPermission } from './content-grants.service';

/** Roles on a collection or space as GitBook's `{permission, user}` and `{permission, team}`. */
@Injectable()
export class ContentGrantsPresenter {
  constructor(
    private readonly users: UsersPresenter,
    private readonly teams: TeamsPresenter,
  ) {}

  userPage(page: Page<UserPermission>): Page<UserContentPermissionResponse> {
    return mapPage(page, ({ role, user }) => ({ permission: role, user: this.users.user(user) }));
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
