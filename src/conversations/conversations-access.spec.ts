import { organizationPermissions } from '../orgs/organization-permissions';
import { atLeast, type Role } from '../platform/policy/roles';
import { apiTokenSource, CONVERSATIONS_INGEST, CONVERSATIONS_READ } from './conversations-access';

const ROLES: (Role | null)[] = ['admin', 'create', 'edit', 'review', 'comment', 'read', null];

describe('conversation access', () => {
  it.each(ROLES)('ingesting follows the ingestConversations permission (%s)', (role) => {
    expect(atLeast(role, CONVERSATIONS_INGEST)).toBe(
      organizationPermissions(role).ingestConversations,
    );
  });

  it('lets every member with a role read, and no guest', () => {
    expect(ROLES.map((role) => atLeast(role, CONVERSATIONS_READ))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('names API-token ingestion as a GitBook integration source', () => {
    expect(apiTokenSource('abc_DEF-123')).toMatch(/^integration:[^:]+:[^:]+$/);
  });
});
