import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { MembersRepository } from '../members/members.repository';
import { AddTeamMemberDto } from './dto/team.dto';
import { UpdateTeamMembersDto } from './dto/update-team-members.dto';
import { TeamMember, TeamRole } from './entities/team-member.entity';
import { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

/** A team membership with its organization membership and user loaded. */
export interface TeamMemberView {
  membership: TeamMember;
  /** Number of the organization's teams the member is in. */
  teams: number;
  /** Number of live spaces the member can open (memberSpacesCountSql). */
  spaces: number;
}

/** Who is in a team, and with which role. Managed by organization admins and team owners. */
@Injectable()
export class TeamMembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly teamsRepository: TeamsRepository,
    private readonly members: MembersRepository,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
  ) {}

  /** The team's members, most recently added first. */
  async list(
    organizationId: string,
    teamId: string,
    request: PageRequest,
  ): Promise<Page<TeamMemberView>> {
    const page = await this.teamsRepository.pageMembers(teamId, request);
    const counts = await this.memberCounts(
      organizationId,
      page.items.map((membership) => membership.userId),
    );
    return {
      ...page,
      items: page.items.map((membership) => ({
        membership,
        teams: counts.get(membership.userId)?.teams ?? 0,
        spaces: counts.get(membership.userId)?.spaces ?? 0,
      })),
    };
  }

  /**
   * The teams and spaces counts of each member, in one query for the page (the same correlated
   * subqueries as the member listing's).
   */
  private async memberCounts(
    organizationId: string,
    userIds: string[],
  ): Promise<Map<string, { teams: number; spaces: number }>> {
    if (userIds.length === 0) return new Map();
    return this.members.countsOf(organizationId, userIds);
  }

  /**
   * Adds an organization member to the team (role `member` unless given), or sets the role of
   * one already in it (kept when none is given).
   */
  async add(
    organizationId: string,
    teamId: string,
    userId: string,
    input: AddTeamMemberDto,
  ): Promise<void> {
    await this.teams.requireMembers(this.dataSource.manager, organizationId, [userId], 'userId', {
      byEmail: false,
    });
    const role = input.role ?? 'member';
    const overwrite = input.role !== undefined;
    await this.upsert(this.dataSource.manager, organizationId, teamId, [userId], role, overwrite);
  }

  /** Removes the user from the team; nothing when it is not in it. */
  async remove(organizationId: string, teamId: string, userId: string): Promise<void> {
    await this.teamsRepository.removeMember(teamId, userId);
  }

  /**
   * GitBook's bulk update, in one transaction: `remove` wins over `add` and `memberships`, and
   * `memberships` (explicit roles) over `add`. Users to add or set must be organization
   * members (400 otherwise); users to remove that are not in the team are ignored.
   */
  async update(organizationId: string, teamId: string, input: UpdateTeamMembersDto): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const byEmail = { byEmail: true };
      const added = await this.teams.requireMembers(
        manager,
        organizationId,
        [...new Set(input.add ?? [])],
        'add',
        byEmail,
      );
      const memberships = Object.entries(input.memberships ?? {});
      const set = await this.teams.requireMembers(
        manager,
        organizationId,
        memberships.map(([user]) => user),
        'memberships',
        byEmail,
      );
      const removed = new Set(
        (
          await this.teams.findMembers(manager, organizationId, input.remove ?? [], byEmail)
        ).values(),
      );

      const roles = new Map<string, TeamRole>();
      for (const [user, { role }] of memberships) {
        const userId = set.get(user)!;
        if (!removed.has(userId)) roles.set(userId, role);
      }
      const plainAdds = [...new Set(added.values())].filter(
        (userId) => !removed.has(userId) && !roles.has(userId),
      );

      if (removed.size > 0) {
        await this.teamsRepository.removeMembers(teamId, [...removed], manager);
      }
      await this.upsert(manager, organizationId, teamId, plainAdds, 'member', false);
      for (const role of ['owner', 'member'] as const) {
        const userIds = [...roles].filter(([, r]) => r === role).map(([userId]) => userId);
        await this.upsert(manager, organizationId, teamId, userIds, role, true);
      }
    });
  }

  /** Inserts memberships with `role`; existing ones get `role` when `overwrite`, else stay. */
  private async upsert(
    manager: EntityManager,
    organizationId: string,
    teamId: string,
    userIds: string[],
    role: TeamRole,
    overwrite: boolean,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.teamsRepository.upsertMembers(
      organizationId,
      teamId,
      userIds,
      role,
      overwrite,
      this.clock.now(),
      manager,
    );
  }
}
