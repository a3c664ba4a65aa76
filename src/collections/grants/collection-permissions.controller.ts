import { ContentGrantsController } from './content-grants.controller';

/** Who has been given a role on a collection, and who can reach it; all need admin on it. */
export class CollectionPermissionsController extends ContentGrantsController({
  resourceType: 'collection',
  operations: {
    invite: { operationId: 'inviteToCollection', summary: 'Invite to a collection' },
    listAggregate: {
      operationId: 'listPermissionsAggregateInCollection',
      summary: 'List all collections users permissions',
    },
    listUsers: {
      operationId: 'listUserPermissionsInCollection',
      summary: 'List collection user permissions',
    },
    updateUser: {
      operationId: 'updateUserPermissionInCollection',
      summary: 'Update a collection user permission',
    },
    removeUser: {
      operationId: 'removeUserFromCollection',
      summary: 'Remove a user from a collection',
    },
    listTeams: {
      operationId: 'listTeamPermissionsInCollection',
      summary: 'List a collection team permissions',
    },
    updateTeam: {
      operationId: 'updateTeamPermissionInCollection',
      summary: 'Update a collection team permission',
    },
    removeTeam: {
      operationId: 'removeTeamFromCollection',
      summary: 'Remove a team from a collection',
    },
  },
}) {}
