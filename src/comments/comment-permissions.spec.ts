import { ROLES, type Role } from '../platform/policy/roles';
import { commentPermissions } from './comment-permissions';

describe('commentPermissions', () => {
  const table: [Role | null, boolean, { edit: boolean; delete: boolean; reply: boolean }][] = [];
  for (const role of [...ROLES, null]) {
    for (const isAuthor of [true, false]) {
      table.push([
        role,
        isAuthor,
        {
          edit: isAuthor,
          delete: isAuthor || role === 'admin',
          reply: role !== null && role !== 'read',
        },
      ]);
    }
  }

  it.each(table)('role %s, author %s', (role, isAuthor, expected) => {
    expect(commentPermissions(role, isAuthor)).toEqual({ view: true, ...expected });
  });
});
