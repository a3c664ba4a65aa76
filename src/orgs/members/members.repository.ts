import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { grantedSpacesCountSql } from '../../platform/policy/content-access/granted-content';
import type { Role } from '../../platform/policy/roles';
import { Member } from '../entities/member.entity';
import type { ListOrder, MemberRoleFilter, MemberSort } from './dto/list-members.query';
import type { AdminSeat } from './last-admin';
import { containsPattern } from './like-pattern';

/** A member with its user loaded and the counts its wire shape carries. */
export interface MemberRecord {
  member: Member;
  teams: number;
  spaces: number;
}

/** The filters and order of a member list; absent ones do not filter. */
export interface MemberListFilters {
  /** A role, or `guest` for the members without one. */
  role?: MemberRoleFilter;
  /** Text in the display name or the email (case-insensitive, no wildcards). */
  search?: string;
  /** `lastSeenAt` lists only members seen at least once. */
  sort?: MemberSort;
  order?: ListOrder;
}

/** A membership an invite or an email domain adds. */
export interface NewMemberRow {
  organizationId: string;
  userId: string;
  role: Role | null;
  sso: boolean;
  joinedAt: Date;
}

/**
 * The number of teams of the member `m` (an organization_members row), counted in the list
 * query itself (no query per member); served by the team_members index.
 */
export const MEMBER_TEAMS_COUNT_SQL = `(SELECT COUNT(*) FROM team_members tm
   WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id)`;
const TEAMS_COUNT_ALIAS = 'member_teams';

/**
 * The number of live spaces the member `m` (an organization_members row) can open: every live
 * space of the organization for a member with a role; for a guest, those granted to it or to a
 * team of its, directly or through a collection above them; none for a disabled membership,
 * which gives no access at all. The spaces `GET .../members/{userId}/spaces` lists.
 * `organization` is the SQL of the organization id every row shares (a bound parameter): the
 * organization-wide count does not depend on the row, so PostgreSQL runs it once per query.
 */
export function memberSpacesCountSql(organization: string): string {
  return `(CASE
  WHEN m.disabled THEN 0
  WHEN m.role IS NOT NULL THEN (SELECT COUNT(*) FROM spaces ls
     WHERE ls.organization_id = ${organization} AND ls.deleted_at IS NULL)
  ELSE ${grantedSpacesCountSql(
    organization,
    `g.user_id = m.user_id OR g.team_id IN (SELECT gtm.team_id FROM team_members gtm
       WHERE gtm.organization_id = ${organization} AND gtm.user_id = m.user_id)`,
  )}
END)`;
}
const SPACES_COUNT_ALIAS = 'member_spaces';

/**
 * The `organization_members` table. Member lists count each member's teams and spaces in the
 * same query (MEMBER_TEAMS_COUNT_SQL, memberSpacesCountSql: team_members, spaces and grants).
 */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's members (disabled ones included) matching `filters`. */
  pageInOrganization(
    organizationId: string,
    filters: MemberListFilters,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<MemberRecord>> {
    const query = this.records(manager, organizationId);
    if (filters.role === 'guest') query.andWhere('m.role IS NULL');
    else if (filters.role) query.andWhere('m.role = :role', { role: filters.role });
    if (filters.search) {
      query.andWhere(
        `(u.display_name ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`,
        { pattern: containsPattern(filters.search) },
      );
    }
    const byLastSeen = filters.sort === 'lastSeenAt';
    if (byLastSeen) query.andWhere('m.last_seen_at IS NOT NULL');
    return paginate(query, request, {
      keys: [
        byLastSeen
          ? { sql: 'm.last_seen_at', of: (row: MemberRecord) => row.member.lastSeenAt }
          : { sql: 'm.joined_at', of: (row: MemberRecord) => row.member.joinedAt },
        { sql: 'm.user_id', of: (row: MemberRecord) => row.member.userId },
      ],
      direction: filters.order === 'asc' ? 'ASC' : 'DESC',
      fetch: (rows) => withCounts(rows),
    });
  }

  /** The member with its user and counts; null when the user is not a member. */
  async findRecord(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MemberRecord | null> {
    const query = this.records(manager, organizationId).andWhere('m.user_id = :userId', {
      userId,
    });
    const [record] = await withCounts(query);
    return record ?? null;
  }

  /** The teams and spaces counts of each of `userIds` that is a member, by user id. */
  async countsOf(
    organizationId: string,
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, { teams: number; spaces: number }>> {
    const rows: { user_id: string; teams: number; spaces: number }[] = await manager.query(
      `SELECT m.user_id, ${MEMBER_TEAMS_COUNT_SQL}::int AS teams,
              ${memberSpacesCountSql('$1')}::int AS spaces
         FROM organization_members m
        WHERE m.organization_id = $1 AND m.user_id = ANY($2::varchar[])`,
      [organizationId, userIds],
    );
    return new Map(rows.map((row) => [row.user_id, { teams: row.teams, spaces: row.spaces }]));
  }

  /** The membership row alone; null when the user is not a member. */
  find(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Member | null> {
    return manager.findOneBy(Member, { organizationId, userId });
  }

  /** The membership, its row locked FOR UPDATE until the transaction ends; null when absent. */
  lock(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Member | null> {
    return manager.findOne(Member, {
      where: { organizationId, userId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /**
   * The organization's members among users named by id (`ids`) or email (`emails`, lower
   * case), disabled ones included, with their email (users', joined to match on it).
   */
  findByIdsOrEmails(
    organizationId: string,
    ids: string[],
    emails: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ user_id: string; email: string }[]> {
    return manager.query(
      `SELECT m.user_id, u.email
         FROM organization_members m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1
          AND (m.user_id = ANY($2::varchar[]) OR u.email = ANY($3::varchar[]))`,
      [organizationId, ids, emails],
    );
  }

  /**
   * The user's role in the organization: the role, null for a guest, undefined when the user
   * is not an enabled member.
   */
  async roleOf(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Role | null | undefined> {
    const rows: { role: Role | null }[] = await manager.query(
      `SELECT role FROM organization_members
        WHERE organization_id = $1 AND user_id = $2 AND NOT disabled`,
      [organizationId, userId],
    );
    return rows.length === 0 ? undefined : rows[0].role;
  }

  /**
   * Locks the organization's row FOR NO KEY UPDATE until the transaction ends: the lock that
   * serializes its role changes and removals (inserts that only reference the row go on).
   */
  async lockOrganization(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [
      organizationId,
    ]);
  }

  /** The organization's admin members, disabled ones included. */
  async admins(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AdminSeat[]> {
    const rows: { user_id: string; disabled: boolean }[] = await manager.query(
      `SELECT user_id, disabled FROM organization_members
        WHERE organization_id = $1 AND role = 'admin'`,
      [organizationId],
    );
    return rows.map((row) => ({ userId: row.user_id, disabled: row.disabled }));
  }

  /** Sets the fields `changes` of the membership (none when the user is not a member). */
  async update(
    organizationId: string,
    userId: string,
    changes: Partial<Pick<Member, 'role' | 'sso' | 'lastSeenAt'>>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(Member, { organizationId, userId }, changes);
  }

  /** The organizations `userId` is a member of, by id. */
  async organizationIdsOf(
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const members = await manager.find(Member, {
      where: { userId },
      select: { organizationId: true },
      order: { organizationId: 'ASC' },
    });
    return members.map((member) => member.organizationId);
  }

  /** Deletes the membership (its team memberships go by cascade). */
  async delete(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.delete(Member, { organizationId, userId });
  }

  /**
   * Adds the memberships that do not exist yet (a concurrent join may have added one); the
   * user ids of those added (none for none given).
   */
  async addMembers(
    members: NewMemberRow[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (members.length === 0) return [];
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(Member)
      .values(members.map((member) => ({ ...member, disabled: false, lastSeenAt: null })))
      .orIgnore()
      .returning('user_id')
      .execute();
    return (result.raw as { user_id: string }[]).map((row) => row.user_id);
  }

  /** The organization's members with their users and their teams and spaces counts. */
  private records(manager: EntityManager, organizationId: string): SelectQueryBuilder<Member> {
    // Joins users, owned by users: a member's wire shape carries its user, read with it.
    return manager
      .createQueryBuilder(Member, 'm')
      .innerJoinAndSelect('m.user', 'u')
      .addSelect(MEMBER_TEAMS_COUNT_SQL, TEAMS_COUNT_ALIAS)
      .addSelect(memberSpacesCountSql(':organizationId'), SPACES_COUNT_ALIAS)
      .where('m.organization_id = :organizationId', { organizationId });
  }
}

/** Runs a query of `records` and pairs each member with its counts. */
async function withCounts(query: SelectQueryBuilder<Member>): Promise<MemberRecord[]> {
  const { entities, raw } = await query.getRawAndEntities<Record<string, unknown>>();
  const counts = new Map(
    raw.map((row) => [
      row.m_user_id,
      { teams: Number(row[TEAMS_COUNT_ALIAS]), spaces: Number(row[SPACES_COUNT_ALIAS]) },
    ]),
  );
  return entities.map((member) => ({
    member,
    teams: counts.get(member.userId)?.teams ?? 0,
    spaces: counts.get(member.userId)?.spaces ?? 0,
  }));
}
