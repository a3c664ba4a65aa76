/**
 * What content grants reach, as SQL: the spaces and collections a guest (a member without an
 * organization role) may see are those granted to it or a team of its, directly or through a
 * collection above them. One definition for the lists and searches (whereVisibleTo,
 * visibleContentCondition: one condition with bound parameters) and the members' and teams'
 * space counts (grantedSpacesCountSql, correlated with their rows).
 */

import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Role } from '../roles';
import type { ContentResourceType } from './member-access-sql';

/**
 * SQL condition on content_grants `g`: granted to user `user` or to one of its teams in
 * organization `organization` (both SQL expressions: bound parameters or outer columns).
 */
function grantedToUserSql(organization: string, user: string): string {
  return `g.user_id = ${user} OR g.team_id IN (
             SELECT tm.team_id FROM team_members tm
              WHERE tm.organization_id = ${organization} AND tm.user_id = ${user})`;
}

/**
 * A subquery of the ids of the spaces that grants of organization `organization` matching
 * `grantee` (a condition on content_grants `g`) reach: granted themselves, or in a collection
 * at or below a granted one (the recursion walks down from the few granted collections). For
 * `… id IN (<this>)`; trashed spaces are the caller's to leave out.
 */
function grantedSpaceIdsSql(organization: string, grantee: string): string {
  return `
  WITH RECURSIVE granted AS (
    SELECT g.resource_type, g.resource_id FROM content_grants g
     WHERE g.organization_id = ${organization} AND (${grantee})
  ), collections_below AS (
    SELECT resource_id AS id FROM granted WHERE resource_type = 'collection'
    UNION
    SELECT k.id FROM collections k JOIN collections_below b ON k.parent_id = b.id
  )
  SELECT resource_id FROM granted WHERE resource_type = 'space'
  UNION
  SELECT gs.id FROM spaces gs JOIN collections_below b ON gs.parent_id = b.id`;
}

/** A subquery of the ids of the collections that matching grants reach (see above). */
function grantedCollectionIdsSql(organization: string, grantee: string): string {
  return `
  WITH RECURSIVE visible AS (
    SELECT g.resource_id AS id FROM content_grants g
     WHERE g.organization_id = ${organization} AND g.resource_type = 'collection'
       AND (${grantee})
    UNION
    SELECT k.id FROM collections k JOIN visible v ON k.parent_id = v.id
  )
  SELECT id FROM visible`;
}

/** Who looks at an organization's content: a member with its organization role (null: a guest). */
export interface ContentViewer {
  organizationId: string;
  userId: string;
  role: Role | null;
}

/** A condition with its named parameters (`:name`), as TypeORM binds and numbers them. */
export interface SqlCondition {
  sql: string;
  params: Record<string, string>;
}

/** The named parameters of visibility conditions, apart from a query's own. */
const VISIBLE_ORGANIZATION = 'visibleOrganizationId';
const VISIBLE_USER = 'visibleUserId';

/**
 * The condition that the collection or space whose id is `idColumn` (SQL, e.g. `s.id`) is one
 * the viewer may see among its organization's content: null (no condition) for a member with
 * a role, who sees all of it; for a guest, one that its grants or its teams' reach, directly or
 * through a collection above. Parameters are named (`visibleOrganizationId`, `visibleUserId`),
 * so TypeORM numbers them in whatever query takes the condition.
 */
export function visibleContentCondition(
  resourceType: ContentResourceType,
  idColumn: string,
  viewer: ContentViewer,
): SqlCondition | null {
  if (viewer.role !== null) return null;
  const organization = `:${VISIBLE_ORGANIZATION}`;
  const grantee = grantedToUserSql(organization, `:${VISIBLE_USER}`);
  const ids =
    resourceType === 'space'
      ? grantedSpaceIdsSql(organization, grantee)
      : grantedCollectionIdsSql(organization, grantee);
  return {
    sql: `${idColumn} IN (${ids})`,
    params: { [VISIBLE_ORGANIZATION]: viewer.organizationId, [VISIBLE_USER]: viewer.userId },
  };
}

/**
 * Limits `query` to the collections or spaces (their id: `idColumn`) the viewer may see
 * (visibleContentCondition); the query as it is for a member with a role.
 */
export function whereVisibleTo<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  resourceType: ContentResourceType,
  idColumn: string,
  viewer: ContentViewer,
): SelectQueryBuilder<T> {
  const condition = visibleContentCondition(resourceType, idColumn, viewer);
  return condition ? query.andWhere(condition.sql, condition.params) : query;
}

/**
 * The number of live spaces of organization `organization` that grants matching `grantee`
 * reach: a correlated subquery for counts on member and team rows.
 */
export function grantedSpacesCountSql(organization: string, grantee: string): string {
  return `(SELECT COUNT(*) FROM spaces cs
     WHERE cs.organization_id = ${organization} AND cs.deleted_at IS NULL
       AND cs.id IN (${grantedSpaceIdsSql(organization, grantee)}))`;
}

/**
 * The roles granted on the site `site` to the user `user` or to a team of its in organization
 * `organization` (SQL expressions: bound parameters or outer columns), as an array expression:
 * what raises a member's role on one site above its organization role.
 */
export function siteGrantRolesSql(site: string, organization: string, user: string): string {
  return `ARRAY(SELECT g.role FROM content_grants g
     WHERE g.resource_type = 'site' AND g.resource_id = ${site}
       AND g.organization_id = ${organization}
       AND (${grantedToUserSql(organization, user)}))`;
}
