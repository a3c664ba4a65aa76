import { organizationPermissions } from '../orgs/organization-permissions';
import { ROLES, type Role } from '../platform/policy/roles';
import { openAPISpecPermissions } from './openapi-access';

describe('openAPISpecPermissions', () => {
  it.each<[Role | null, { view: boolean; edit: boolean }]>([
    ['admin', { view: true, edit: true }],
    ['create', { view: true, edit: true }],
    ['review', { view: true, edit: false }],
    ['edit', { view: true, edit: false }],
    ['comment', { view: true, edit: false }],
    ['read', { view: true, edit: false }],
    [null, { view: false, edit: false }],
  ])('%s → %p', (role, expected) => {
    expect(openAPISpecPermissions(role)).toEqual(expected);
  });

  it.each([...ROLES, null])(
    'edit follows the organization permission createOpenAPISpec (%s)',
    (role) => {
      expect(openAPISpecPermissions(role).edit).toBe(
        organizationPermissions(role).createOpenAPISpec,
      );
    },
  );
});
