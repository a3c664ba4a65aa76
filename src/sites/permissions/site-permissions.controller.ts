import { ContentGrantsController } from '../../collections/grants/content-grants.controller';
import { ListSitePermissionsAggregateQueryDto } from '../../collections/grants/dto/content-grant.dto';
import { UserSitePermissionResponse } from '../../collections/grants/dto/content-grant.response';

/**
 * Who has been given a role on a site, and who can reach it; all need admin on the site. The
 * grants live with the collections' and spaces' (ContentGrantsService); SiteAccessPolicy counts
 * them in the caller's role on the site.
 */
export class SitePermissionsController extends ContentGrantsController({
  resourceType: 'site',
  path: 'orgs/:organizationId/sites/:siteId',
  aggregate: { query: ListSitePermissionsAggregateQueryDto, item: UserSitePermissionResponse },
  operations: {
    invite: { operationId: 'inviteToSite', summary: 'Invite a user or a team to a site' },
    listAggregate: {
      operationId: 'listPermissionsAggregateInSite',
      summary: 'List all sites users permissions',
    },
    listUsers: { operationId: 'listUserPermissionsInSite', summary: 'List site user permissions' },
    updateUser: {
      operationId: 'updateUserPermissionInSite',
      summary: 'Update site user permissions',
    },
    removeUser: { operationId: 'removeUserFromSite', summary: 'Remove a site user' },
    listTeams: {
      operationId: 'listTeamPermissionsInSite',
      summary: "List an org team's permission in a site",
    },
    updateTeam: {
      operationId: 'updateTeamPermissionInSite',
      summary: "Update an org team's permission in a site",
    },
    removeTeam: { operationId: 'removeTeamFromSite', summary: 'Remove an org team from a site' },
  },
}) {}
