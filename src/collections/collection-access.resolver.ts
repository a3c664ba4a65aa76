import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { entityFromRow } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import type { ResolvedAccess, ResourceType } from '../platform/policy/access';
import { highestRole, isRole, type Role } from '../platform/policy/roles';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Collection } from './entities/collection.entity';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    collection: true;
  }
}

/**
 * Every requested collection with what decides the caller's role on it, in one statement: the
 * recursive CTE walks each collection's ancestors, from which come its effective default level
 * (the nearest level that is not `inherit`; `inherit` up to the root means the organization's
 * default role) and the grants to the caller or its teams on it or any ancestor.
 */
const RESOLVE_SQL = `
WITH RECURSIVE chain AS (
  SELECT c.id AS start_id, c.id, c.parent_id, c.default_level, 0 AS depth
    FROM collections c WHERE c.id = ANY($1::varchar[])
  UNION ALL
  SELECT chain.start_id, p.id, p.parent_id, p.default_level, chain.depth + 1
    FROM collections p JOIN chain ON p.id = chain.parent_id
)
SELECT c.*, m.role AS member_role, o.default_role AS organization_default_role,
       EXISTS (SELECT 1 FROM chain ch
                WHERE ch.start_id = c.id AND ch.default_level IS DISTINCT FROM 'inherit')
         AS default_decided,
       (SELECT ch.default_level FROM chain ch
         WHERE ch.start_id = c.id AND ch.default_level IS DISTINCT FROM 'inherit'
         ORDER BY ch.depth LIMIT 1) AS decided_default,
       ARRAY(SELECT g.role FROM content_grants g JOIN chain ch ON ch.id = g.resource_id
              WHERE ch.start_id = c.id AND g.resource_type = 'collection'
                AND (g.user_id = $2 OR g.team_id IN (
                      SELECT tm.team_id FROM team_members tm
                       WHERE tm.organization_id = c.organization_id AND tm.user_id = $2)))
         AS grant_roles
  FROM collections c
  JOIN organizations o ON o.id = c.organization_id
  JOIN organization_members m
    ON m.organization_id = c.organization_id AND m.user_id = $2 AND NOT m.disabled
 WHERE c.id = ANY($1::varchar[])`;

/** The effective role from the parts RESOLVE_SQL reads; null when the caller may not see it. */
export function effectiveContentRole(parts: {
  memberRole: Role | null;
  organizationDefaultRole: Role | null;
  defaultDecided: boolean;
  decidedDefault: string | null;
  grantRoles: Role[];
}): Role | null {
  const member = parts.memberRole !== null;
  const defaultLevel = parts.defaultDecided
    ? isRole(parts.decidedDefault)
      ? parts.decidedDefault
      : null
    : parts.organizationDefaultRole;
  return highestRole(
    parts.memberRole,
    member ? defaultLevel : null, // default levels apply to members, not to guests
    ...parts.grantRoles,
  );
}

/**
 * The caller's access to each row a resolver's statement returned (the resource's columns and
 * `member_role`, `organization_default_role`, `default_decided`, `decided_default`,
 * `grant_roles`), by id; a guest holding no role on a row does not see it.
 */
export function accessFromRows<T extends { id: string; organizationId: string }>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  resource: ResourceType,
  rows: Record<string, unknown>[],
): Map<string, ResolvedAccess<T> & { entity: T }> {
  const result = new Map<string, ResolvedAccess<T> & { entity: T }>();
  for (const row of rows) {
    const memberRole = row.member_role as Role | null;
    const role = effectiveContentRole({
      memberRole,
      organizationDefaultRole: row.organization_default_role as Role | null,
      defaultDecided: row.default_decided as boolean,
      decidedDefault: row.decided_default as string | null,
      grantRoles: (row.grant_roles as Role[] | null) ?? [],
    });
    if (memberRole === null && role === null) continue;
    const entity = entityFromRow(dataSource, target, row);
    result.set(entity.id, {
      resource,
      id: entity.id,
      organizationId: entity.organizationId,
      role,
      entity,
    });
  }
  return result;
}

/**
 * A user's access to a collection: organization members with a role see every collection of
 * the organization; guests only those granted to them (or a team of theirs), directly or on an
 * ancestor. Non-members, and guests without a grant, get null (404).
 */
@Injectable()
export class CollectionAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    this.policy.register('collection', this);
  }

  async resolve(userId: string, collectionId: string): Promise<ResolvedAccess<Collection> | null> {
    return (await this.resolveMany(userId, [collectionId])).get(collectionId) ?? null;
  }

  /** The caller's access to each of the collections it may see, by id, in one query. */
  async resolveMany(
    userId: string,
    collectionIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, ResolvedAccess<Collection>>> {
    if (collectionIds.length === 0) return new Map();
    const rows = await preparedQuery(manager, 'bindery_resolve_collections', RESOLVE_SQL, [
      collectionIds,
      userId,
    ]);
    return accessFromRows(this.dataSource, Collection, 'collection', rows);
  }
}
