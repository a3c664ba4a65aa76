/**
 * What content grants reach, as SQL: the spaces and collections a guest (a member without an
 * organization role) may see are those granted to it or a team of its, directly or through a
 * collection above them. One definition for the access resolver's guest rule, the lists, the
 * searches and the members' and teams' space counts.
 */

/**
 * SQL condition on content_grants `g`: granted to user `user` or to one of its teams in
 * organization `organization` (both SQL expressions: bound parameters or outer columns).
 */
export function grantedToUserSql(organization: string, user: string): string {
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
export function grantedSpaceIdsSql(organization: string, grantee: string): string {
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
export function grantedCollectionIdsSql(organization: string, grantee: string): string {
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

/**
 * The ids of an organization's spaces that a guest (`:userId`) may see, for a condition
 * `s.id IN (...)` with named parameters `organizationId` and `userId`.
 */
export const GUEST_VISIBLE_SPACES_SQL = grantedSpaceIdsSql(
  ':organizationId',
  grantedToUserSql(':organizationId', ':userId'),
);

/** The ids of an organization's collections that a guest (`:userId`) may see (as above). */
export const GUEST_VISIBLE_COLLECTIONS_SQL = grantedCollectionIdsSql(
  ':organizationId',
  grantedToUserSql(':organizationId', ':userId'),
);

/**
 * The number of live spaces of organization `organization` that grants matching `grantee`
 * reach: a correlated subquery for counts on member and team rows.
 */
export function grantedSpacesCountSql(organization: string, grantee: string): string {
  return `(SELECT COUNT(*) FROM spaces cs
     WHERE cs.organization_id = ${organization} AND cs.deleted_at IS NULL
       AND cs.id IN (${grantedSpaceIdsSql(organization, grantee)}))`;
}
