import type { DomainError } from '../platform/errors/domain-error';
import { ROLES, type Role } from '../platform/policy/roles';
import { commentPermissions, deleteDenial, updateAsked, updateDenial } from './comment-permissions';

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

describe('updateDenial and deleteDenial', () => {
  const author = 'u1';
  const caller = (userId: string, role: Role | null) => ({ userId, role });
  const code = (check: () => DomainError | null): string | null => check()?.code ?? null;
  const nothing = { body: false, resolved: false, reactions: false };

  it('leaves the body to its author, even against an admin', () => {
    expect(
      code(() => updateDenial(caller(author, 'read'), author, 'reply', { ...nothing, body: true })),
    ).toBeNull();
    expect(
      code(() =>
        updateDenial(caller('u2', 'admin'), author, 'comment', { ...nothing, body: true }),
      ),
    ).toBe('NotCommentAuthor');
  });

  it('needs the comment role to resolve or react, author or not', () => {
    expect(
      code(() =>
        updateDenial(caller(author, 'read'), author, 'comment', { ...nothing, resolved: true }),
      ),
    ).toBe('CommentRoleRequired');
    expect(
      code(() =>
        updateDenial(caller(author, 'read'), author, 'reply', { ...nothing, reactions: true }),
      ),
    ).toBe('CommentRoleRequired');
    expect(
      code(() =>
        updateDenial(caller('u2', 'comment'), author, 'comment', {
          ...nothing,
          resolved: true,
          reactions: true,
        }),
      ),
    ).toBeNull();
  });

  it('checks the body before the role, and names what is edited', () => {
    expect(
      updateDenial(caller('u2', null), author, 'reply', {
        body: true,
        resolved: true,
        reactions: true,
      })?.message,
    ).toBe('Only the author of a reply can edit it.');
    expect(
      updateDenial(caller(author, 'read'), author, 'reply', { ...nothing, reactions: true })
        ?.message,
    ).toMatch(/^Reacting to a reply needs the comment role/);
  });

  it('reads what an update asks from the body as sent', () => {
    expect(updateAsked({ body: 'x' })).toEqual({ body: true, resolved: false, reactions: false });
    expect(updateAsked({ resolved: false, removedReactions: [] })).toEqual({
      body: false,
      resolved: true,
      reactions: true,
    });
    expect(updateAsked('not an object')).toEqual(nothing);
    expect(updateAsked(null)).toEqual(nothing);
  });

  it('lets its author or a space admin delete', () => {
    expect(code(() => deleteDenial(caller(author, 'read'), author, 'comment'))).toBeNull();
    expect(code(() => deleteDenial(caller('u2', 'admin'), author, 'comment'))).toBeNull();
    expect(code(() => deleteDenial(caller('u2', 'edit'), author, 'reply'))).toBe(
      'CommentDeleteNotAllowed',
    );
  });
});
