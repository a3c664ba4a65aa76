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
import { ContentGrant, type ContentResourceType } from '../entities/content-grant.entity';

/** The collection or space whose grants are read or written, in its organization. */
export interface ContentResource {
  resourceType: ContentResourceType;
  id: string;
  organizationId: string;
}

/** A grant to write: to one user or one team (the other null). */
export interface ContentGrantRow {
  id: string;
  organizationId: string;
  resourceType: ContentResourceType;
  resourceId: string;
  userId: string | null;
  teamId: string | null;
  role: Role;
  createdAt: Date;
}

/** A member and the rank (ROLE_RANKS) of its effective role on the content. */
export interface MemberRank {
  member: Member;
  rank: number;
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

  /** Deletes the grants on the collections `collectionIds`. */
  async deleteOnCollections(
    collectionIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM content_grants WHERE resource_type = 'collection' AND resource_id = ANY($1::varchar[])`,
      [collectionIds],
    );
  }

  /** Deletes the grants on the spaces `spaceIds`. */
  async deleteOnSpaces(
    spaceIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM content_grants WHERE resource_type = 'space' AND resource_id = ANY($1::varchar[])`,
      [spaceIds],
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
   * their effective role there (memberAccessCtes), optionally only those of rank `rank`,
   * oldest member first. One statement reads the page with the ranks, one more counts.
   */
  pageMembersWithAccess(
    resource: ContentResource,
    rank: number | undefined,
    request: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<MemberRank>> {
    // Reads organization_members and users, owned by orgs and users: the effective role of
    // every member is computed in one statement with the grants (memberAccessCtes).
    const query = manager.getRepository(Member).createQueryBuilder('m');
    for (const { sql, name, ...options } of memberAccessCtes(resource.resourceType)) {
      query.addCommonTableExpression(sql, name, options);
    }
    query
      .innerJoin(MEMBER_ACCESS, 'access', 'access.user_id = m.user_id')
      .innerJoinAndSelect('m.user', 'u')
      .addSelect('access.rank', 'access_rank')
      .where('m.organization_id = :organizationId', {
        organizationId: resource.organizationId,
        resourceId: resource.id,
      })
      .andWhere('access.rank IS NOT NULL');
    if (rank !== undefined) query.andWhere('access.rank = :rank', { rank });

    return paginate<Member, MemberRank>(query, request, {
      keys: [
        { sql: 'm.joined_at', of: (row) => row.member.joinedAt },
        { sql: 'm.user_id', of: (row) => row.member.userId },
      ],
      direction: 'ASC',
      fetch: async (rows) => {
        const { entities, raw } = await rows.getRawAndEntities<Record<string, unknown>>();
        const ranks = new Map(raw.map((row) => [row.m_user_id, row.access_rank as number]));
        return entities.map((member) => ({ member, rank: ranks.get(member.userId)! }));
      },
    });
  }
}
