import { notFound } from '../platform/errors/domain-error';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { accessFromRows } from '../collections/collection-access.resolver';
import { preparedQuery } from '../platform/database/prepared-query';
import type { ResolvedAccess } from '../platform/policy/access';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Space } from './entities/space.entity';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A space that is not in the trash. */
    space: true;
    /** A space, in the trash or not: reading it and restoring it. */
    spaceIncludingDeleted: true;
  }
}

/** A space and the caller's effective role on it. */
export type SpaceAccess = ResolvedAccess<Space> & { entity: Space };

/**
 * Every requested space with what decides the caller's role on it, in one statement. The
 * default level is the space's own unless it is `inherit`, then the nearest collection's above
 * it that is not, then the organization's default role. Grants count on the space and on every
 * collection above it, to the caller or to a team of the caller's.
 */
const RESOLVE_SQL = `
WITH RECURSIVE chain AS (
  SELECT s.id AS start_id, c.id, c.parent_id, c.default_level, 1 AS depth
    FROM spaces s JOIN collections c ON c.id = s.parent_id
   WHERE s.id = ANY($1::varchar[])
  UNION ALL
  SELECT chain.start_id, p.id, p.parent_id, p.default_level, chain.depth + 1
    FROM collections p JOIN chain ON p.id = chain.parent_id
)
SELECT s.*, m.role AS member_role, o.default_role AS organization_default_role,
       (s.default_level IS DISTINCT FROM 'inherit' OR EXISTS (
          SELECT 1 FROM chain ch
           WHERE ch.start_id = s.id AND ch.default_level IS DISTINCT FROM 'inherit'))
         AS default_decided,
       CASE WHEN s.default_level IS DISTINCT FROM 'inherit' THEN s.default_level
            ELSE (SELECT ch.default_level FROM chain ch
                   WHERE ch.start_id = s.id AND ch.default_level IS DISTINCT FROM 'inherit'
                   ORDER BY ch.depth LIMIT 1) END AS decided_default,
       ARRAY(SELECT g.role FROM content_grants g
              WHERE ((g.resource_type = 'space' AND g.resource_id = s.id)
                  OR (g.resource_type = 'collection' AND g.resource_id IN (
                        SELECT ch.id FROM chain ch WHERE ch.start_id = s.id)))
                AND (g.user_id = $2 OR g.team_id IN (
                      SELECT tm.team_id FROM team_members tm
                       WHERE tm.organization_id = s.organization_id AND tm.user_id = $2)))
         AS grant_roles
  FROM spaces s
  JOIN organizations o ON o.id = s.organization_id
  JOIN organization_members m
    ON m.organization_id = s.organization_id AND m.user_id = $2 AND NOT m.disabled
 WHERE s.id = ANY($1::varchar[])`;

/**
 * The ids of an organization's live spaces that a guest (`:userId`, no organization role) may
 * see: those granted to it or a team of its, directly or through a collection above them. For
 * a SQL condition `s.id IN (...)` with parameters `organizationId` and `userId`.
 */
export const GUEST_VISIBLE_SPACES_SQL = `
  WITH RECURSIVE granted AS (
    SELECT g.resource_type, g.resource_id FROM content_grants g
     WHERE g.organization_id = :organizationId
       AND (g.user_id = :userId OR g.team_id IN (
             SELECT tm.team_id FROM team_members tm
              WHERE tm.organization_id = :organizationId AND tm.user_id = :userId))
  ), collections_below AS (
    SELECT resource_id AS id FROM granted WHERE resource_type = 'collection'
    UNION
    SELECT k.id FROM collections k JOIN collections_below b ON k.parent_id = b.id
  )
  SELECT resource_id FROM granted WHERE resource_type = 'space'
  UNION
  SELECT gs.id FROM spaces gs JOIN collections_below b ON gs.parent_id = b.id`;

/**
 * A user's access to a space: organization members with a role see every space of the
 * organization, with the highest of their role, the default level and their grants; guests
 * only the spaces granted to them (or a team), directly or on a collection above. Non-members
 * get null (404). Registered twice: `space` leaves out the trash, `spaceIncludingDeleted` not.
 */
@Injectable()
export class SpaceAccessResolver implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    const live: AccessResolver = {
      resolve: async (userId, spaceId) => {
        const access = await this.resolve(userId, spaceId);
        return access && access.entity.deletedAt === null ? access : null;
      },
    };
    this.policy.register('space', live);
    this.policy.register(
      'spaceIncludingDeleted',
      { resolve: (userId, spaceId) => this.resolve(userId, spaceId) },
      'space',
    );
  }

  async resolve(userId: string, spaceId: string): Promise<SpaceAccess | null> {
    return (await this.resolveMany(userId, [spaceId])).get(spaceId) ?? null;
  }

  /** The caller's access to each of the spaces it may see (trash included), by id, in one query. */
  async resolveMany(
    userId: string,
    spaceIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, SpaceAccess>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await preparedQuery(manager, 'bindery_resolve_spaces', RESOLVE_SQL, [
      spaceIds,
      userId,
    ]);
    return accessFromRows(this.dataSource, Space, 'space', rows);
  }

  /** The caller's access to a space just written, read on the writer's transaction; 404 if none. */
  async reload(manager: EntityManager, userId: string, spaceId: string): Promise<SpaceAccess> {
    const access = (await this.resolveMany(userId, [spaceId], manager)).get(spaceId);
    if (!access) throw notFound('Space');
    return access;
  }
}
