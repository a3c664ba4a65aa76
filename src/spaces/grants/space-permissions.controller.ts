import { ContentGrantsController } from '../../collections/grants/content-grants.controller';

/**
 * Who has been given a role on a space, and who can reach it; all need admin on it. The grants
 * live with the collections' (ContentGrantsService).
 */
export class SpacePermissionsController extends ContentGrantsController({
  resourceType: 'space',
  operations: {
    invite: { operationId: 'inviteToSpace', summary: 'Invite a user or a team to a space' },
    listAggregate: {
      operationId: 'listPermissionsAggregateInSpace',
      summary: 'List all space users permissions',
    },
    listUsers: {
      operationId: 'listUserPermissionsInSpace',
      summary: 'List space user permissions',
    },
    updateUser: {
      operationId: 'updateUserPermissionInSpace',
      summary: 'Update space user permissions',
    },
    removeUser: { operationId: 'removeUserFromSpace', summary: 'Remove a space user' },
    listTeams: {
      operationId: 'listTeamPermissionsInSpace',
      summary: 'List space team permissions',
    },
    updateTeam: {
      operationId: 'updateTeamPermissionInSpace',
      summary: 'Update a space team permission',
    },
    removeTeam: { operationId: 'removeTeamFromSpace', summary: 'Remove a space team' },
  },
}) {}
