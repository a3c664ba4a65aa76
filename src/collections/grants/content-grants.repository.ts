import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Member } from '../../orgs/entities/member.entity';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import {
  MEMBER_ACCESS,
  memberAccessCtes,
} from '../../platform/policy/content-access/member-access-sql';
import { ROLES, type Role } from '../../platform/policy/roles';
import { containsPattern } from '../../orgs/members/like-pattern';
import { ContentGrant, type GrantedResourceType } from '../entities/content-grant.entity';

/** The collection, space or site whose grants are read or written, in its organization. */
export interface ContentResource {
  resourceType: GrantedResourceType;
  id: string;
  organizationId: string;
}

/** A grant to write: to one user or one team (the other null). */
export interface ContentGrantRow {
  id: string;
  organizationId: string;
  resourceType: GrantedResourceType;
  resourceId: string;
  userId: string | null;
  teamId: string | null;
  role: Role;
  createdAt: Date;
}

/**
 * A member and the rank (ROLE_RANKS) of its effective role on the content, with what decided
 * it: the rank of its own highest grant there and the team of its highest team grant (null:
 * none).
 */
export interface MemberRank {
  member: Member;
  rank: number;
  userGrantRank: number | null;
  grantTeamId: string | null;
}

/** Which members a list of those reaching the content keeps, and in which order. */
export interface MemberAccessFilters {
  /** Only those whose effective role has this rank. */
  rank?: number;
  /** Only members without an organization role (guests), reaching it through grants. */
  guests?: boolean;
  /** Text in the display name or the email (case-insensitive, no wildcards). */
  search?: string;
  /** Only the members of this team. */
  teamId?: string;
  /** `lastSeenAt` lists only members seen at least once. Default `joinedAt`. */
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
  /** Default ascending. */
  order?: 'asc' | 'desc';
}

/** The `content_grants` table. */
@Injectable()
export class ContentGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Writes the grant, or sets the role of the grantee's grant on the content if it has one. */
  async upsert(
    grant: ContentGrantRow,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const column = grant.userId !== null ? 'user_id' : 'team_id';
    await manager.query(
      `INSERT INTO content_grants
         (id, organization_id, resource_type, resource_id, user_id, team_id, role, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (resource_type, resource_id, ${column}) WHERE ${column} IS NOT NULL
       DO UPDATE SET role = EXCLUDED.role`,
      [
        grant.id,
        grant.organizationId,
        grant.resourceType,
        grant.resourceId,
        grant.userId,
        grant.teamId,
        grant.role,
        grant.createdAt,
      ],
    );
  }

  /**
   * Writes the user's grant, or raises the role of its grant on the content to `grant.role`;
   * a higher role stays. One statement, so concurrent writes cannot lower each other's.
   */
  async upsertAtLeast(
    grant: ContentGrantRow & { userId: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    // Ranks: the position in the list from lowest to highest.
    const ascending = [...ROLES].reverse();
    await manager.query(
      `INSERT INTO content_grants
         (id, organization_id, resource_type, resource_id, user_id, team_id, role, created_at)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)
       ON CONFLICT (resource_type, resource_id, user_id) WHERE user_id IS NOT NULL
       DO UPDATE SET role = EXCLUDED.role
        WHERE array_position($8::varchar[], EXCLUDED.role)
            > coalesce(array_position($8::varchar[], content_grants.role), 0)`,
      [
        grant.id,
        grant.organizationId,
        grant.resourceType,
        grant.resourceId,
        grant.userId,
        grant.role,
        grant.createdAt,
        ascending,
      ],
    );
  }

  /** Deletes the grants on the collections, spaces or sites (`resourceType`) `ids`. */
  async deleteOn(
    resourceType: GrantedResourceType,
    ids: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM content_grants WHERE resource_type = $1 AND resource_id = ANY($2::varchar[])`,
      [resourceType, ids],
    );
  }

  /** Deletes the grants on the collections `collectionIds` and the spaces `spaceIds`. */
  async deleteOnContent(
    collectionIds: string[],
    spaceIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM content_grants
        WHERE (resource_type = 'collection' AND resource_id = ANY($1::varchar[]))
           OR (resource_type = 'space' AND resource_id = ANY($2::varchar[]))`,
      [collectionIds, spaceIds],
    );
  }

  /** A page of the grants on the content to users (`user_id`) or teams, oldest first. */
  pageOnContent(
    resource: ContentResource,
    column: 'user_id' | 'team_id',
    request: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ContentGrant>> {
    const query = manager
      .getRepository(ContentGrant)
      .createQueryBuilder('g')
      .where('g.resource_type = :resourceType AND g.resource_id = :resourceId', {
        resourceType: resource.resourceType,
        resourceId: resource.id,
      })
      .andWhere('g.organization_id = :organizationId', { organizationId: resource.organizationId })
      .andWhere(`g.${column} IS NOT NULL`);
    return paginate(query, request, {
      keys: [
        { sql: 'g.created_at', of: (grant) => grant.createdAt },
        { sql: 'g.id', of: (grant) => grant.id },
      ],
      direction: 'ASC',
    });
  }

  /**
   * A page of the members who can reach the content (with their users), with the rank of
   * their effective role there (memberAccessCtes) and what decided it, kept and ordered by
   * `filters` (oldest member first by default). One statement reads the page with the ranks,
   * one more counts.
   */
  pageMembersWithAccess(
    resource: ContentResource,
    filters: MemberAccessFilters,
    request: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<MemberRank>> {
    // Reads organization_members, users and team_members, owned by orgs, users and teams: the
    // effective role of every member is computed in one statement with the grants
    // (memberAccessCtes).
    const query = manager.getRepository(Member).createQueryBuilder('m');
    for (const { sql, name, ...options } of memberAccessCtes(resource.resourceType)) {
      query.addCommonTableExpression(sql, name, options);
    }
    query
      .innerJoin(MEMBER_ACCESS, 'access', 'access.user_id = m.user_id')
      .innerJoinAndSelect('m.user', 'u')
      .addSelect('access.rank', 'access_rank')
      .addSelect('access.user_grant_rank', 'access_user_grant_rank')
      .addSelect('access.grant_team_id', 'access_grant_team_id')
      .where('m.organization_id = :organizationId', {
        organizationId: resource.organizationId,
        resourceId: resource.id,
      })
      .andWhere('access.rank IS NOT NULL');
    if (filters.rank !== undefined) query.andWhere('access.rank = :rank', { rank: filters.rank });
    if (filters.guests) query.andWhere('m.role IS NULL');
    if (filters.search) {
      query.andWhere(
        `(u.display_name ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`,
        { pattern: containsPattern(filters.search) },
      );
    }
    if (filters.teamId !== undefined) {
      query.andWhere(
        `EXISTS (SELECT 1 FROM team_members ft WHERE ft.organization_id = m.organization_id
                    AND ft.user_id = m.user_id AND ft.team_id = :teamId)`,
        { teamId: filters.teamId },
      );
    }
    if (filters.sort === 'lastSeenAt') query.andWhere('m.last_seen_at IS NOT NULL');

    return paginate<Member, MemberRank>(query, request, {
      keys: [
        filters.sort === 'lastSeenAt'
          ? { sql: 'm.last_seen_at', of: (row) => row.member.lastSeenAt }
          : filters.sort === 'name'
            ? { sql: 'u.display_name', of: (row) => row.member.user!.displayName }
            : { sql: 'm.joined_at', of: (row) => row.member.joinedAt },
        { sql: 'm.user_id', of: (row) => row.member.userId },
      ],
      direction: filters.order === 'desc' ? 'DESC' : 'ASC',
      fetch: async (rows) => {
        const { entities, raw } = await rows.getRawAndEntities<Record<string, unknown>>();
        const byUser = new Map(raw.map((row) => [row.m_user_id, row]));
        return entities.map((member) => {
          const row = byUser.get(member.userId)!;
          const userGrantRank = row.access_user_grant_rank;
          return {
            member,
            rank: Number(row.access_rank),
            userGrantRank: userGrantRank === null ? null : Number(userGrantRank),
            grantTeamId: (row.access_grant_team_id as string | null) ?? null,
          };
        });
      },
    });
  }
}
