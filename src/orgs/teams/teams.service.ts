import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { entityFromRow } from '../../platform/database/entity-from-row';
import { forbidden, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { grantedSpacesCountSql } from '../../platform/policy/content-access/granted-content';
import {
  CreateTeamDto,
  ListMemberTeamsQueryDto,
  ListTeamsQueryDto,
  UpdateTeamDto,
} from './dto/team.dto';
import { TeamMember, TeamRole } from './entities/team-member.entity';
import { Team } from './entities/team.entity';
import { TeamPermissions, teamPermissions } from './team-permissions';
import type { TeamViewer } from './team-viewer';

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

const teamNotFound = () => notFound('Team');

/**
 * The number of live spaces the grants of the team `t` (a teams row) reach: granted to it on
 * the space or on a collection above it. A correlated subquery, one per team of the page.
 */
const TEAM_SPACES_COUNT_SQL = grantedSpacesCountSql('t.organization_id', 'g.team_id = t.id');

/** `%text%` for ILIKE, with the text's own wildcards (and the escape character) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Adds the case-insensitive `title` filter of team listings. */
export function whereTitleContains<T extends object>(
  query: SelectQueryBuilder<T>,
  column: string,
  title: string | undefined,
): void {
  if (title) {
    query.andWhere(`${column} ILIKE :titlePattern ESCAPE '\\'`, {
      titlePattern: containsPattern(title),
    });
  }
}

/** Teams of an organization. Team membership writes live in TeamMembersService. */
@Injectable()
export class TeamsService {
  constructor(
    @InjectRepository(Team) private readonly teams: Repository<Team>,
    @InjectRepository(TeamMember) private readonly teamMembers: Repository<TeamMember>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

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
    const rows: {
      id: string;
      members: number;
      spaces: number;
      viewer_role: TeamRole | null;
    }[] = await this.dataSource.query(
      `SELECT t.id,
              (SELECT count(*)::int FROM team_members c WHERE c.team_id = t.id) AS members,
              (SELECT v.role FROM team_members v WHERE v.team_id = t.id AND v.user_id = $2)
                AS viewer_role,
              ${TEAM_SPACES_COUNT_SQL}::int AS spaces
         FROM teams t
        WHERE t.id = ANY($1::varchar[])`,
      [teams.map((team) => team.id), viewerId],
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
    const query = this.teams
      .createQueryBuilder('t')
      .where('t.organization_id = :organizationId', { organizationId });
    whereTitleContains(query, 't.title', request.title);
    if (request.owner !== undefined)
      await this.whereManagedBy(query, organizationId, request.owner);
    const page = await paginate(query, request, {
      keys: [
        { sql: 't.created_at', of: (team) => team.createdAt },
        { sql: 't.id', of: (team) => team.id },
      ],
      direction: 'DESC',
    });
    return { ...page, items: await this.describe(page.items, viewer.userId) };
  }

  /**
   * Only the teams `ownerId` can manage: all of them for an organization admin, the ones it
   * owns otherwise, none for someone who is not an (enabled) member.
   */
  private async whereManagedBy(
    query: SelectQueryBuilder<Team>,
    organizationId: string,
    ownerId: string,
  ): Promise<void> {
    const rows: { role: string | null; disabled: boolean }[] = await this.dataSource.query(
      `SELECT role, disabled FROM organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, ownerId],
    );
    const owner = rows[0];
    if (!owner || owner.disabled) {
      query.andWhere('FALSE');
    } else if (owner.role !== 'admin') {
      query.andWhere(
        `EXISTS (SELECT 1 FROM team_members owned
                  WHERE owned.team_id = t.id AND owned.user_id = :ownerId AND owned.role = 'owner')`,
        { ownerId },
      );
    }
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
    const isMember = await this.dataSource.query(
      `SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    if (isMember.length === 0) throw notFound('Member');
    const query = this.teamMembers
      .createQueryBuilder('tm')
      .innerJoinAndSelect('tm.team', 't')
      .where('tm.organization_id = :organizationId AND tm.user_id = :userId', {
        organizationId,
        userId,
      });
    whereTitleContains(query, 't.title', request.title);
    const page = await paginate(query, request, {
      keys: [
        { sql: 'tm.added_at', of: (membership) => membership.addedAt },
        { sql: 'tm.team_id', of: (membership) => membership.teamId },
      ],
      direction: 'DESC',
    });
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
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT t.*, v.role AS viewer_role,
              (SELECT count(*)::int FROM team_members c WHERE c.team_id = t.id) AS member_count,
              ${TEAM_SPACES_COUNT_SQL}::int AS space_count
         FROM teams t
         LEFT JOIN team_members v ON v.team_id = t.id AND v.user_id = $3
        WHERE t.organization_id = $1 AND t.id = $2`,
      [organizationId, teamId, viewerId],
    );
    if (rows.length === 0) return null;
    return {
      team: entityFromRow(this.dataSource, Team, rows[0]),
      members: rows[0].member_count as number,
      spaces: rows[0].space_count as number,
      viewerRole: rows[0].viewer_role as TeamRole | null,
    };
  }

  /**
   * The team, if the viewer has `need` on it: 404 for no such team in the organization, 403
   * without the permission. For the team's members routes until they declare the team policy.
   */
  async authorize(
    organizationId: string,
    teamId: string,
    viewer: TeamViewer,
    need: keyof TeamPermissions,
  ): Promise<TeamView> {
    const view = await this.find(organizationId, teamId, viewer.userId);
    if (!view) throw teamNotFound();
    if (!teamPermissions(viewer.role, view.viewerRole)[need]) {
      throw forbidden(
        need === 'admin'
          ? "Only organization admins and the team's owners can manage this team."
          : 'Guests can see only the teams they are in.',
      );
    }
    return view;
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
    const rows: { user_id: string; email: string }[] = await manager.query(
      `SELECT m.user_id, u.email
         FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1
          AND (m.user_id = ANY($2::varchar[]) OR u.email = ANY($3::varchar[]))`,
      [organizationId, ids, emails],
    );
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
