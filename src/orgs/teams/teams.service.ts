import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { entityFromRow } from '../../platform/database/entity-from-row';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { Page } from '../../platform/pagination/page';
import {
  CreateTeamDto,
  ListMemberTeamsQueryDto,
  ListTeamsQueryDto,
  UpdateTeamDto,
} from './dto/team.dto';
import { TeamMember, TeamRole } from './entities/team-member.entity';
import { Team } from './entities/team.entity';
import { MembersRepository } from '../members/members.repository';
import type { TeamViewer } from './team-viewer';
import { type TeamManager, TeamsRepository } from './teams.repository';

/** A team with what its wire shape needs beyond the row: its size and the viewer's place in it. */
export interface TeamView {
  team: Team;
  /** Number of team members. */
  members: number;
  /** Number of live spaces the team's grants reach (TEAM_SPACES_COUNT_SQL). */
  spaces: number;
  /** The viewer's role in the team, null when not in it. */
  viewerRole: TeamRole | null;
}

/** An item of a member's team listing: the team, and that member's role in it. */
export interface MemberTeamView {
  view: TeamView;
  role: TeamRole;
}

/** Teams of an organization. Team membership writes live in TeamMembersService. */
@Injectable()
export class TeamsService {
  constructor(
    @InjectRepository(Team) private readonly teams: Repository<Team>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: TeamsRepository,
    private readonly members: MembersRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Puts an organization member in the team as a `member`, in the caller's transaction; one
   * already in it keeps its role.
   */
  async addMemberIfAbsent(
    organizationId: string,
    teamId: string,
    userId: string,
    manager: EntityManager,
  ): Promise<void> {
    await this.repository.upsertMembers(
      organizationId,
      teamId,
      [userId],
      'member',
      false,
      this.clock.now(),
      manager,
    );
  }

  /** The team, read inside its organization: another organization's team is null. */
  findInOrganization(organizationId: string, teamId: string): Promise<Team | null> {
    return this.teams.findOneBy({ organizationId, id: teamId });
  }

  /**
   * Sizes of the teams, the spaces they reach and the viewer's role in each, in one query for
   * all of them (correlated subqueries per team; the primary key of team_members serves the
   * first two), in the order of `teams`.
   */
  async describe(teams: Team[], viewerId: string): Promise<TeamView[]> {
    if (teams.length === 0) return [];
    const rows = await this.repository.stats(
      teams.map((team) => team.id),
      viewerId,
    );
    const stats = new Map(rows.map((row) => [row.id, row]));
    return teams.map((team) => ({
      team,
      members: stats.get(team.id)?.members ?? 0,
      spaces: stats.get(team.id)?.spaces ?? 0,
      viewerRole: stats.get(team.id)?.viewer_role ?? null,
    }));
  }

  /** The organization's teams, newest first, filtered by title and by who can manage them. */
  async list(
    organizationId: string,
    viewer: TeamViewer,
    request: ListTeamsQueryDto,
  ): Promise<Page<TeamView>> {
    const page = await this.repository.pageInOrganization(
      organizationId,
      {
        title: request.title,
        managedBy:
          request.owner === undefined
            ? undefined
            : await this.managerOf(organizationId, request.owner),
      },
      request,
    );
    return { ...page, items: await this.describe(page.items, viewer.userId) };
  }

  /**
   * Which teams `ownerId` can manage: all of them for an organization admin, the ones it owns
   * otherwise, none for someone who is not an (enabled) member.
   */
  private async managerOf(organizationId: string, ownerId: string): Promise<TeamManager> {
    const owner = await this.members.find(organizationId, ownerId);
    if (!owner || owner.disabled) return { kind: 'none' };
    return owner.role === 'admin' ? { kind: 'all' } : { kind: 'owner', userId: ownerId };
  }

  /** Creates the team with the given organization members (role `member`), in one transaction. */
  create(organizationId: string, viewer: TeamViewer, input: CreateTeamDto): Promise<TeamView> {
    const userIds = [...new Set(input.members ?? [])];
    return this.dataSource.transaction(async (manager) => {
      await this.requireMembers(manager, organizationId, userIds, 'members', { byEmail: false });
      const now = this.clock.now();
      const team = manager.create(Team, {
        id: newId(),
        organizationId,
        title: input.title.trim(),
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(Team, team);
      if (userIds.length > 0) {
        await manager.insert(
          TeamMember,
          userIds.map((userId) => ({
            teamId: team.id,
            userId,
            organizationId,
            role: 'member' as const,
            addedAt: now,
          })),
        );
      }
      return {
        team,
        members: userIds.length,
        spaces: 0, // a new team has no grant yet
        viewerRole: userIds.includes(viewer.userId) ? ('member' as const) : null,
      };
    });
  }

  /** Renames the team `view` shows (who may is decided before: TeamAccessPolicy). */
  async rename(view: TeamView, input: UpdateTeamDto): Promise<TeamView> {
    const title = input.title.trim();
    const updatedAt = this.clock.now();
    const { organizationId, id } = view.team;
    await this.teams.update({ organizationId, id }, { title, updatedAt });
    Object.assign(view.team, { title, updatedAt });
    return view;
  }

  /** Deletes the team and its memberships (by cascade); nothing when there is no such team. */
  async remove(organizationId: string, teamId: string): Promise<void> {
    await this.teams.delete({ organizationId, id: teamId });
  }

  /** The teams `userId` is in, most recently joined first, with its role in each. */
  async listForMember(
    organizationId: string,
    userId: string,
    viewer: TeamViewer,
    request: ListMemberTeamsQueryDto,
  ): Promise<Page<MemberTeamView>> {
    if (!(await this.members.find(organizationId, userId))) throw notFound('Member');
    const page = await this.repository.pageMembershipsOfUser(
      organizationId,
      userId,
      request.title,
      request,
    );
    const views = await this.describe(
      page.items.map((membership) => membership.team!),
      viewer.userId,
    );
    return {
      ...page,
      items: page.items.map((membership, i) => ({ view: views[i], role: membership.role })),
    };
  }

  /**
   * The team with its size and the role of user `viewerId` in it, in one query; null when the
   * organization has no such team.
   */
  async find(organizationId: string, teamId: string, viewerId: string): Promise<TeamView | null> {
    const row = await this.repository.findWithStats(organizationId, teamId, viewerId);
    if (!row) return null;
    return {
      team: entityFromRow(this.dataSource, Team, row),
      members: row.member_count,
      spaces: row.space_count,
      viewerRole: row.viewer_role,
    };
  }

  /**
   * Resolves users named by id (or, with `byEmail`, by email) to the user ids of members of the
   * organization (disabled ones included); 400 naming `field` and the users that are not.
   */
  async requireMembers(
    manager: EntityManager,
    organizationId: string,
    users: string[],
    field: string,
    options: { byEmail: boolean },
  ): Promise<Map<string, string>> {
    const resolved = await this.findMembers(manager, organizationId, users, options);
    const unknown = users.filter((user) => !resolved.has(user));
    if (unknown.length > 0) {
      const listed = unknown.slice(0, 10).join(', ') + (unknown.length > 10 ? ', …' : '');
      throw invalidInput(`${field}: not members of this organization: ${listed}.`);
    }
    return resolved;
  }

  /** Like requireMembers, leaving out users that are not members. */
  async findMembers(
    manager: EntityManager,
    organizationId: string,
    users: string[],
    options: { byEmail: boolean },
  ): Promise<Map<string, string>> {
    if (users.length === 0) return new Map();
    // Ids never contain "@" (ids.ts), so a user named with one is an email.
    const isEmail = (user: string) => options.byEmail && user.includes('@');
    const ids = users.filter((user) => !isEmail(user));
    const emails = users.filter(isEmail).map((email) => email.toLowerCase());
    const rows = await this.members.findByIdsOrEmails(organizationId, ids, emails, manager);
    const byId = new Set(rows.map((row) => row.user_id));
    const byEmail = new Map(rows.map((row) => [row.email, row.user_id]));
    const resolved = new Map<string, string>();
    for (const user of users) {
      const userId = isEmail(user)
        ? byEmail.get(user.toLowerCase())
        : byId.has(user)
          ? user
          : undefined;
      if (userId) resolved.set(user, userId);
    }
    return resolved;
  }
}
