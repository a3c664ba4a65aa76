import type { DomainError } from '../platform/errors/domain-error';
import { ROLES, type Role } from '../platform/policy/roles';
import { assertMayDelete, assertMayUpdate, commentPermissions } from './comment-permissions';

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

describe('assertMayUpdate and assertMayDelete', () => {
  const author = 'u1';
  const caller = (userId: string, role: Role | null) => ({ userId, role });
  const code = (check: () => void): string | null => {
    try {
      check();
      return null;
    } catch (error) {
      return (error as DomainError).code;
    }
  };
  const nothing = { body: false, resolved: false, reactions: false };

  it('leaves the body to its author, even against an admin', () => {
    expect(
      code(() =>
        assertMayUpdate(caller(author, 'read'), author, 'reply', { ...nothing, body: true }),
      ),
    ).toBeNull();
    expect(
      code(() =>
        assertMayUpdate(caller('u2', 'admin'), author, 'comment', { ...nothing, body: true }),
      ),
    ).toBe('NotCommentAuthor');
  });

  it('needs the comment role to resolve or react, author or not', () => {
    expect(
      code(() =>
        assertMayUpdate(caller(author, 'read'), author, 'comment', { ...nothing, resolved: true }),
      ),
    ).toBe('CommentRoleRequired');
    expect(
      code(() =>
        assertMayUpdate(caller(author, 'read'), author, 'reply', { ...nothing, reactions: true }),
      ),
    ).toBe('CommentRoleRequired');
    expect(
      code(() =>
        assertMayUpdate(caller('u2', 'comment'), author, 'comment', {
          ...nothing,
          resolved: true,
          reactions: true,
        }),
      ),
    ).toBeNull();
  });

  it('checks the body before the role, and names what is edited', () => {
    expect(() =>
      assertMayUpdate(caller('u2', null), author, 'reply', {
        body: true,
        resolved: true,
        reactions: true,
      }),
    ).toThrow('Only the author of a reply can edit it.');
    expect(() =>
      assertMayUpdate(caller(author, 'read'), author, 'reply', { ...nothing, reactions: true }),
    ).toThrow('Reacting to a reply needs the comment role');
  });

  it('lets its author or a space admin delete', () => {
    expect(code(() => assertMayDelete(caller(author, 'read'), author, 'comment'))).toBeNull();
    expect(code(() => assertMayDelete(caller('u2', 'admin'), author, 'comment'))).toBeNull();
    expect(code(() => assertMayDelete(caller('u2', 'edit'), author, 'reply'))).toBe(
      'CommentDeleteNotAllowed',
    );
  });
});
