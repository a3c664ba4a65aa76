import { DataSource, EntityTarget } from 'typeorm';
import { entityFromRow } from '../../database/entity-from-row';
import type { ResolvedAccess, ResourceType } from '../access';
import { highestRole, isRole, type Role } from '../roles';
import type { ContentResourceType } from './member-access-sql';

const TABLES: Record<ContentResourceType, string> = { collection: 'collections', space: 'spaces' };

/**
 * Every requested collection or space (`$1`, ids) with what decides the caller's (`$2`) role
 * on it, in one statement. The recursive CTE walks from the content itself (depth 0) up
 * through each collection above it; from it come the effective default level (the nearest
 * level that is not `inherit`; `inherit` up to the root means the organization's default
 * role) and the grants to the caller or a team of its on the content or any collection above.
 * The rows are the content's columns with `member_role`, `organization_default_role`,
 * `default_decided`, `decided_default` and `grant_roles`, for accessFromRows. Only members
 * (enabled) get a row.
 */
export function contentAccessSql(resourceType: ContentResourceType): string {
  return `
WITH RECURSIVE chain AS (
  SELECT r.id AS start_id, CAST('${resourceType}' AS varchar) AS resource_type, r.id,
         r.parent_id, r.default_level, 0 AS depth
    FROM ${TABLES[resourceType]} r WHERE r.id = ANY($1::varchar[])
  UNION ALL
  SELECT chain.start_id, CAST('collection' AS varchar), p.id, p.parent_id, p.default_level,
         chain.depth + 1
    FROM collections p JOIN chain ON p.id = chain.parent_id
)
SELECT r.*, m.role AS member_role, o.default_role AS organization_default_role,
       EXISTS (SELECT 1 FROM chain ch
                WHERE ch.start_id = r.id AND ch.default_level IS DISTINCT FROM 'inherit')
         AS default_decided,
       (SELECT ch.default_level FROM chain ch
         WHERE ch.start_id = r.id AND ch.default_level IS DISTINCT FROM 'inherit'
         ORDER BY ch.depth LIMIT 1) AS decided_default,
       ARRAY(SELECT g.role FROM content_grants g
               JOIN chain ch ON ch.id = g.resource_id AND ch.resource_type = g.resource_type
              WHERE ch.start_id = r.id
                AND (g.user_id = $2 OR g.team_id IN (
                      SELECT tm.team_id FROM team_members tm
                       WHERE tm.organization_id = r.organization_id AND tm.user_id = $2)))
         AS grant_roles
  FROM ${TABLES[resourceType]} r
  JOIN organizations o ON o.id = r.organization_id
  JOIN organization_members m
    ON m.organization_id = r.organization_id AND m.user_id = $2 AND NOT m.disabled
 WHERE r.id = ANY($1::varchar[])`;
}

/** The effective role from the parts contentAccessSql reads; null when the caller may not see it. */
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
