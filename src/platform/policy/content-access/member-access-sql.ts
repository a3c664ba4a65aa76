import { roleRankSql } from './role-rank';

/** The kinds of content grants are given on. */
export type ContentResourceType = 'collection' | 'space';

export interface CommonTableExpression {
  name: string;
  sql: string;
  recursive?: boolean;
  materialized?: boolean;
}

/** Name of the CTE with `user_id` and `rank` (ROLE_RANKS; NULL: no access) per member. */
export const MEMBER_ACCESS = 'member_access';

const TABLES: Record<ContentResourceType, string> = {
  collection: 'collections',
  space: 'spaces',
};

/**
 * Every enabled member of `:organizationId` with the rank of its effective role on the
 * collection or space `:resourceId`, decided as the access resolvers decide it for one caller
 * (contentAccessSql in effective-role.ts): the highest of
 * the member's organization role, the default level for members with a role (the content's
 * own, else the nearest collection's above it that is not `inherit`, else the organization's
 * default role) and the grants to the member or a team of its on the content or on any
 * collection above it. Guests hold only their grants; a NULL rank means no access.
 */
export function memberAccessCtes(resourceType: ContentResourceType): CommonTableExpression[] {
  return [
    {
      // The content itself (depth 0), then each collection above it.
      name: 'levels',
      recursive: true,
      sql: `
        SELECT CAST('${resourceType}' AS varchar) AS resource_type, r.id, r.parent_id,
               r.default_level, 0 AS depth
          FROM ${TABLES[resourceType]} r
         WHERE r.id = :resourceId AND r.organization_id = :organizationId
        UNION ALL
        SELECT CAST('collection' AS varchar), p.id, p.parent_id, p.default_level, l.depth + 1
          FROM collections p JOIN levels l ON p.id = l.parent_id`,
    },
    {
      name: 'default_level',
      sql: `
        SELECT CASE WHEN decided.depth IS NULL THEN o.default_role
                    ELSE decided.default_level END AS role
          FROM organizations o
          LEFT JOIN LATERAL (
            SELECT l.default_level, l.depth FROM levels l
             WHERE l.default_level IS DISTINCT FROM 'inherit'
             ORDER BY l.depth LIMIT 1) decided ON true
         WHERE o.id = :organizationId`,
    },
    {
      // A handful of rows, read once per member: computed once.
      name: 'level_grants',
      materialized: true,
      sql: `
        SELECT g.user_id, g.team_id, g.role FROM content_grants g
          JOIN levels l ON l.resource_type = g.resource_type AND l.id = g.resource_id`,
    },
    {
      name: MEMBER_ACCESS,
      sql: `
        SELECT m.user_id, GREATEST(
                 ${roleRankSql('m.role')},
                 CASE WHEN m.role IS NOT NULL
                      THEN (SELECT ${roleRankSql('d.role')} FROM default_level d) END,
                 (SELECT MAX(${roleRankSql('g.role')}) FROM level_grants g
                   WHERE g.user_id = m.user_id OR g.team_id IN (
                         SELECT tm.team_id FROM team_members tm
                          WHERE tm.organization_id = m.organization_id
                            AND tm.user_id = m.user_id))) AS rank
          FROM organization_members m
         WHERE m.organization_id = :organizationId AND NOT m.disabled`,
    },
  ];
}
