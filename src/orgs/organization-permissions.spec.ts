import { Role } from '../platform/policy/roles';
import { organizationPermissions, OrganizationPermissions } from './organization-permissions';

// Rows: role (null = guest). Columns in the order of OrganizationPermissions.
const COLUMNS: (keyof OrganizationPermissions)[] = [
  'view',
  'access',
  'admin',
  'ownTeam',
  'createContent',
  'createOpenAPISpec',
  'ingestConversations',
  'viewBilling',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
  'installIntegration',
];
const TRUTH_TABLE: [Role | null, string][] = [
  ['admin', 'T T T T T T T T T T T T T'],
  ['create', 'T T F F T T F F T T T F F'],
  ['review', 'T T F F F F F F T T T F F'],
  ['edit', 'T T F F F F F F T T T F F'],
  ['comment', 'T T F F F F F F T T T F F'],
  ['read', 'T T F F F F F F T T T F F'],
  [null, 'T T F F F F F F F F F F F'],
];

describe('organizationPermissions', () => {
  it.each(TRUTH_TABLE)('role %s', (role, row) => {
    const expected = Object.fromEntries(
      row.split(' ').map((cell, i) => [COLUMNS[i], cell === 'T']),
    );
    expect(organizationPermissions(role)).toEqual(expected);
  });
});
