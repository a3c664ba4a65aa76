import { roleRankSql } from './role-rank';

/** The kinds of content grants are given on. */
export type ContentResourceType = 'collection' | 'space';
/** What grants are given on: content, and sites (a role on the site, not on its spaces). */
export type GrantedResourceType = ContentResourceType | 'site';

export interface CommonTableExpression {
  name: string;
  sql: string;
  recursive?: boolean;
  materialized?: boolean;
}

/**
 * Name of the CTE with, per member, `user_id`, `rank` (ROLE_RANKS; NULL: no access),
 * `user_grant_rank` (its own highest grant; NULL: none) and `grant_team_id` (the team of its
 * highest team grant; NULL: none): what decided the rank.
 */
export const MEMBER_ACCESS = 'member_access';

/** The teams of the member `m`. */
const MEMBER_TEAMS = `SELECT tm.team_id FROM team_members tm
                          WHERE tm.organization_id = m.organization_id AND tm.user_id = m.user_id`;

const TABLES: Record<ContentResourceType, string> = {
  collection: 'collections',
  space: 'spaces',
};

/**
 * The levels of a site: the site alone, and no default level (a site has none of its own: a
 * member's role there is its organization role, raised by the grants on the site).
 */
function siteLevelCtes(): CommonTableExpression[] {
  return [
    {
      name: 'levels',
      sql: `
        SELECT CAST('site' AS varchar) AS resource_type, s.id FROM sites s
         WHERE s.id = :resourceId AND s.organization_id = :organizationId`,
    },
    { name: 'default_level', sql: `SELECT CAST(NULL AS varchar) AS role` },
  ];
}

/**
 * Every enabled member of `:organizationId` with the rank of its effective role on the
 * collection, space or site `:resourceId`, decided as the access resolvers decide it for one
 * caller (contentAccessSql in effective-role.ts, siteRole for a site): the highest of
 * the member's organization role, the default level for members with a role (the content's
 * own, else the nearest collection's above it that is not `inherit`, else the organization's
 * default role) and the grants to the member or a team of its on the content or on any
 * collection above it (a site: its organization role and the grants on the site). Guests hold
 * only their grants; a NULL rank means no access.
 */
export function memberAccessCtes(resourceType: GrantedResourceType): CommonTableExpression[] {
  const levels: CommonTableExpression[] =
    resourceType === 'site' ? siteLevelCtes() : contentLevelCtes(resourceType);
  return [
    ...levels,
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
                   WHERE g.user_id = m.user_id OR g.team_id IN (${MEMBER_TEAMS}))) AS rank,
               (SELECT MAX(${roleRankSql('g.role')}) FROM level_grants g
                 WHERE g.user_id = m.user_id) AS user_grant_rank,
               (SELECT g.team_id FROM level_grants g WHERE g.team_id IN (${MEMBER_TEAMS})
                 ORDER BY ${roleRankSql('g.role')} DESC, g.team_id LIMIT 1) AS grant_team_id
          FROM organization_members m
         WHERE m.organization_id = :organizationId AND NOT m.disabled`,
    },
  ];
}

/** The levels of a collection or space: itself, each collection above it, the default level. */
function contentLevelCtes(resourceType: ContentResourceType): CommonTableExpression[] {
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
  ];
}
