import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { TeamMember, TeamRole } from './entities/team-member.entity';

/** The `teams` and `team_members` tables (TeamsService's own statements are not here yet). */
@Injectable()
export class TeamsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
