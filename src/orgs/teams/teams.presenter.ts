import { Injectable } from '@nestjs/common';
import type { Role } from '../../platform/policy/roles';
import { MembersPresenter } from '../members/members.presenter';
import { MemberTeamResponse, TeamMemberResponse, TeamResponse } from './dto/team.response';
import { Team } from './entities/team.entity';
import { teamPermissions } from './team-permissions';
import type { TeamViewer } from './team-viewer';
import type { TeamMemberView } from './team-members.service';
import { MemberTeamView, TeamsService, TeamView } from './teams.service';

@Injectable()
export class TeamsPresenter {
  constructor(
    private readonly teams: TeamsService,
    private readonly members: MembersPresenter,
  ) {}

  /** The team as seen by a viewer whose organization role is `orgRole` (null = guest). */
  present(view: TeamView, orgRole: Role | null): TeamResponse {
    return {
      object: 'team',
      id: view.team.id,
      title: view.team.title,
      members: view.members,
      spaces: view.spaces,
      createdAt: view.team.createdAt.toISOString(),
      permissions: teamPermissions(orgRole, view.viewerRole),
    };
  }

  /**
   * Teams loaded elsewhere (a SAML provider's default team, say), presented for `viewer`:
   * member counts and the viewer's team roles come in one query for all of them.
   */
  async presentTeams(teams: Team[], viewer: TeamViewer): Promise<TeamResponse[]> {
    const views = await this.teams.describe(teams, viewer.userId);
    return views.map((view) => this.present(view, viewer.role));
  }

  memberTeam(item: MemberTeamView, orgRole: Role | null): MemberTeamResponse {
    return { team: this.present(item.view, orgRole), member: { role: item.role } };
  }

  /** GitBook's `OrganizationTeamMember`; whoever may list a team's members may see each. */
  teamMember({ membership, teams, spaces }: TeamMemberView): TeamMemberResponse {
    return {
      organization: this.members.present({ member: membership.member!, teams, spaces }),
      team: { role: membership.role },
      permissions: { view: true },
    };
  }
}
