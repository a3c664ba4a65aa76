import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { UserActor } from '../../platform/auth/actor';
import { Clock } from '../../platform/clock/clock';
import { DomainError, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { Member } from '../entities/member.entity';
import { ListMembersQueryDto } from './dto/list-members.query';
import { UpdateMemberDto } from './dto/update-member.dto';
import { AdminSeat, removesLastAdmin } from './last-admin';
import { containsPattern } from './like-pattern';
import { grantedSpacesCountSql } from '../../platform/policy/content-access/granted-content';
import { signVisitorClaims, VISITOR_CLAIMS_PURPOSE } from './visitor-claims';

/** A member with its user loaded and the counts its wire shape carries. */
export interface MemberRecord {
  member: Member;
  teams: number;
  spaces: number;
}

const memberNotFound = () => notFound('Member');

const lastAdmin = (what: 'demoted' | 'removed') =>
  new DomainError(
    'bad_request',
    'LastAdmin',
    `The member is the last admin of the organization and cannot be ${what}: make another member admin first.`,
  );

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

@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly secret: InstanceSecret,
  ) {}

  /** The organization's members (disabled ones included), by join date or last activity. */
  list(organizationId: string, request: ListMembersQueryDto): Promise<Page<MemberRecord>> {
    const query = this.membersQuery(this.dataSource.manager, organizationId);
    if (request.role === 'guest') query.andWhere('m.role IS NULL');
    else if (request.role) query.andWhere('m.role = :role', { role: request.role });
    if (request.search) {
      query.andWhere(
        `(u.display_name ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`,
        { pattern: containsPattern(request.search) },
      );
    }
    const byLastSeen = request.sort === 'lastSeenAt';
    if (byLastSeen) query.andWhere('m.last_seen_at IS NOT NULL');
    return paginate(query, request, {
      keys: [
        byLastSeen
          ? { sql: 'm.last_seen_at', of: (row: MemberRecord) => row.member.lastSeenAt }
          : { sql: 'm.joined_at', of: (row: MemberRecord) => row.member.joinedAt },
        { sql: 'm.user_id', of: (row: MemberRecord) => row.member.userId },
      ],
      direction: request.order === 'asc' ? 'ASC' : 'DESC',
      fetch: (rows) => this.records(rows),
    });
  }

  get(organizationId: string, userId: string): Promise<MemberRecord> {
    return this.getWith(this.dataSource.manager, organizationId, userId);
  }

  /**
   * Changes the member's role (null: guest). The organization stays locked from the check of
   * its admins to the commit, so two concurrent demotions cannot remove both last admins.
   */
  update(organizationId: string, userId: string, input: UpdateMemberDto): Promise<MemberRecord> {
    return this.dataSource.transaction(async (tx) => {
      if (input.role !== undefined) {
        const admins = await this.lockAdmins(tx, organizationId);
        const member = await this.findMember(tx, organizationId, userId);
        if (!member) throw memberNotFound();
        if (removesLastAdmin(admins, { ...member, next: input.role })) throw lastAdmin('demoted');
        await tx.update(Member, { organizationId, userId }, { role: input.role });
      }
      return this.getWith(tx, organizationId, userId);
    });
  }

  /**
   * Removes the member, and with it its team memberships (the foreign key cascades); who may
   * is decided before (MemberAccessPolicy). Nothing to remove is not an error.
   */
  async remove(organizationId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const admins = await this.lockAdmins(tx, organizationId);
      const member = await this.findMember(tx, organizationId, userId);
      if (!member) return;
      if (removesLastAdmin(admins, member)) throw lastAdmin('removed');
      await tx.delete(Member, { organizationId, userId });
    });
  }

  async setSso(organizationId: string, userId: string): Promise<MemberRecord> {
    await this.dataSource.manager.update(Member, { organizationId, userId }, { sso: true });
    return this.get(organizationId, userId);
  }

  /** Records the caller's activity now and returns its visitor claims. */
  async ping(access: ResolvedAccess, actor: UserActor): Promise<string> {
    const now = this.clock.now();
    await this.dataSource.manager.update(
      Member,
      { organizationId: access.organizationId, userId: actor.userId },
      { lastSeenAt: now },
    );
    return signVisitorClaims(
      {
        userId: actor.userId,
        organizationId: access.organizationId,
        role: access.role,
        email: actor.user.email,
      },
      this.secret.signingKey(VISITOR_CLAIMS_PURPOSE),
      now,
    );
  }

  private membersQuery(manager: EntityManager, organizationId: string): SelectQueryBuilder<Member> {
    return manager
      .createQueryBuilder(Member, 'm')
      .innerJoinAndSelect('m.user', 'u')
      .addSelect(MEMBER_TEAMS_COUNT_SQL, TEAMS_COUNT_ALIAS)
      .addSelect(memberSpacesCountSql(':organizationId'), SPACES_COUNT_ALIAS)
      .where('m.organization_id = :organizationId', { organizationId });
  }

  private async records(query: SelectQueryBuilder<Member>): Promise<MemberRecord[]> {
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

  private async getWith(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<MemberRecord> {
    const query = this.membersQuery(manager, organizationId).andWhere('m.user_id = :userId', {
      userId,
    });
    const [record] = await this.records(query);
    if (!record) throw memberNotFound();
    return record;
  }

  private findMember(
    manager: EntityManager,
    organizationId: string,
    userId: string,
  ): Promise<Member | null> {
    return manager.findOneBy(Member, { organizationId, userId });
  }

  /**
   * Takes the organization's membership lock (its row, FOR NO KEY UPDATE: inserts that only
   * reference it go on) until the transaction ends, then reads its admins. Role changes and
   * removals of one organization thus run one after the other, each seeing the admins the
   * previous one left. Locking the admin rows themselves deadlocked: a transaction locks the
   * admins it saw, then the member it changes, which a newer transaction may have seen as an
   * admin and locked first.
   */
  private async lockAdmins(tx: EntityManager, organizationId: string): Promise<AdminSeat[]> {
    await tx.query('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [organizationId]);
    const rows: { user_id: string; disabled: boolean }[] = await tx.query(
      `SELECT user_id, disabled FROM organization_members
        WHERE organization_id = $1 AND role = 'admin'`,
      [organizationId],
    );
    return rows.map((row) => ({ userId: row.user_id, disabled: row.disabled }));
  }
}
