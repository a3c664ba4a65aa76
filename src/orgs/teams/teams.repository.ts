import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { grantedSpacesCountSql } from '../../platform/policy/content-access/granted-content';
import { containsPattern } from '../members/like-pattern';
import { TeamMember, TeamRole } from './entities/team-member.entity';
import { Team } from './entities/team.entity';

/** Who a team listing keeps the teams of: any, none, or those a user owns. */
export type TeamManager = { kind: 'all' } | { kind: 'none' } | { kind: 'owner'; userId: string };

/** Sizes of a team and the viewer's role in it. */
export interface TeamStatsRow {
  id: string;
  members: number;
  spaces: number;
  viewer_role: TeamRole | null;
}

/** A team's columns with its size and the viewer's role in it. */
export type TeamWithStatsRow = Record<string, unknown> & {
  member_count: number;
  space_count: number;
  viewer_role: TeamRole | null;
};

/**
 * The number of live spaces the grants of the team `t` (a teams row) reach: granted to it on
 * the space or on a collection above it. A correlated subquery, one per team of the page.
 */
const TEAM_SPACES_COUNT_SQL = grantedSpacesCountSql('t.organization_id', 'g.team_id = t.id');

/** The case-insensitive `title` filter of team listings. */
function whereTitleContains<T extends object>(
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

/** The `teams` and `team_members` tables. */
@Injectable()
export class TeamsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Sizes of the teams, the spaces they reach and the viewer's role in each, in one query for
   * all of them (correlated subqueries per team; the primary key of team_members serves the
   * first two).
   */
  stats(
    teamIds: string[],
    viewerId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TeamStatsRow[]> {
    return manager.query(
      `SELECT t.id,
              (SELECT count(*)::int FROM team_members c WHERE c.team_id = t.id) AS members,
              (SELECT v.role FROM team_members v WHERE v.team_id = t.id AND v.user_id = $2)
                AS viewer_role,
              ${TEAM_SPACES_COUNT_SQL}::int AS spaces
         FROM teams t
        WHERE t.id = ANY($1::varchar[])`,
      [teamIds, viewerId],
    );
  }

  /** The organization's team `teamId` with its size and the role of `viewerId` in it; null when absent. */
  async findWithStats(
    organizationId: string,
    teamId: string,
    viewerId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TeamWithStatsRow | null> {
    const rows: TeamWithStatsRow[] = await manager.query(
      `SELECT t.*, v.role AS viewer_role,
              (SELECT count(*)::int FROM team_members c WHERE c.team_id = t.id) AS member_count,
              ${TEAM_SPACES_COUNT_SQL}::int AS space_count
         FROM teams t
         LEFT JOIN team_members v ON v.team_id = t.id AND v.user_id = $3
        WHERE t.organization_id = $1 AND t.id = $2`,
      [organizationId, teamId, viewerId],
    );
    return rows[0] ?? null;
  }

  /** A page of the organization's teams, newest first, by title and by who manages them. */
  pageInOrganization(
    organizationId: string,
    filters: { title?: string; managedBy?: TeamManager },
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Team>> {
    const query = manager
      .getRepository(Team)
      .createQueryBuilder('t')
      .where('t.organization_id = :organizationId', { organizationId });
    whereTitleContains(query, 't.title', filters.title);
    const managedBy = filters.managedBy;
    if (managedBy?.kind === 'none') {
      query.andWhere('FALSE');
    } else if (managedBy?.kind === 'owner') {
      query.andWhere(
        `EXISTS (SELECT 1 FROM team_members owned
                  WHERE owned.team_id = t.id AND owned.user_id = :ownerId AND owned.role = 'owner')`,
        { ownerId: managedBy.userId },
      );
    }
    return paginate(query, request, {
      keys: [
        { sql: 't.created_at', of: (team) => team.createdAt },
        { sql: 't.id', of: (team) => team.id },
      ],
      direction: 'DESC',
    });
  }

  /** A page of `userId`'s team memberships (with their team), most recently joined first. */
  pageMembershipsOfUser(
    organizationId: string,
    userId: string,
    title: string | undefined,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<TeamMember>> {
    const query = manager
      .getRepository(TeamMember)
      .createQueryBuilder('tm')
      .innerJoinAndSelect('tm.team', 't')
      .where('tm.organization_id = :organizationId AND tm.user_id = :userId', {
        organizationId,
        userId,
      });
    whereTitleContains(query, 't.title', title);
    return paginate(query, request, {
      keys: [
        { sql: 'tm.added_at', of: (membership) => membership.addedAt },
        { sql: 'tm.team_id', of: (membership) => membership.teamId },
      ],
      direction: 'DESC',
    });
  }

  /** A page of the team's memberships with their member and user, most recently added first. */
  pageMembers(
    teamId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<TeamMember>> {
    // Joins organization_members and users (orgs' and users'): a team member's wire shape
    // carries its membership and user, read with it.
    const query = manager
      .getRepository(TeamMember)
      .createQueryBuilder('tm')
      .innerJoinAndSelect('tm.member', 'm')
      .innerJoinAndSelect('m.user', 'u')
      .where('tm.team_id = :teamId', { teamId });
    return paginate(query, request, {
      keys: [
        { sql: 'tm.added_at', of: (membership) => membership.addedAt },
        { sql: 'tm.user_id', of: (membership) => membership.userId },
      ],
      direction: 'DESC',
    });
  }

  /** Removes the user from the team; nothing when it is not in it. */
  async removeMember(
    teamId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(TeamMember).delete({ teamId, userId });
  }

  /** Removes the users `userIds` from the team (those not in it are ignored). */
  async removeMembers(
    teamId: string,
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM team_members WHERE team_id = $1 AND user_id = ANY($2::varchar[])`,
      [teamId, userIds],
    );
  }

  /** Inserts memberships with `role`; existing ones get `role` when `overwrite`, else stay. */
  async upsertMembers(
    organizationId: string,
    teamId: string,
    userIds: string[],
    role: TeamRole,
    overwrite: boolean,
    addedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO team_members (team_id, user_id, organization_id, role, added_at)
       SELECT $1, user_id, $2, $3, $4 FROM unnest($5::varchar[]) AS added(user_id)
       ON CONFLICT (team_id, user_id) DO ${overwrite ? 'UPDATE SET role = EXCLUDED.role' : 'NOTHING'}`,
      [teamId, organizationId, role, addedAt, userIds],
    );
  }
}
