import { atLeast, Role } from '../platform/policy/roles';

export interface OrganizationPermissions {
  view: boolean;
  /** May open the organization in the application (GitBook 0.201.0 on). */
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** What a member with `role` (null = guest) may do in the organization. */
export function organizationPermissions(role: Role | null): OrganizationPermissions {
  const admin = atLeast(role, 'admin');
  const creator = atLeast(role, 'create');
  const member = atLeast(role, 'read');
  return {
    view: true,
    access: true,
    admin,
    ownTeam: admin,
    createContent: creator,
    createOpenAPISpec: creator,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}
