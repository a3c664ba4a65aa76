import { ROLES, type Role } from '../platform/policy/roles';
import { type SpacePermissions, spacePermissions } from './space-permissions';

describe('spacePermissions', () => {
  const T = true;
  const F = false;
  // Written out rather than derived, so that a change to any cell shows up here.
  // prettier-ignore
  const table: [Role | null, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean][] = [
    // role     view access admin invLnk edit gitSync comment merge review installInt
    ['admin',   T,   T,     T,    T,     T,   T,      T,      T,    T,     T],
    ['create',  T,   T,     F,    F,     T,   T,      T,      T,    T,     F],
    ['review',  T,   T,     F,    F,     T,   T,      T,      T,    T,     F],
    ['edit',    T,   T,     F,    F,     T,   T,      T,      T,    F,     F],
    ['comment', T,   T,     F,    F,     F,   F,      T,      F,    F,     F],
    ['read',    T,   T,     F,    F,     F,   F,      F,      F,    F,     F],
    // The resolver never lets a caller without a role through; if one came, it could only look.
    [null,      T,   T,     F,    F,     F,   F,      F,      F,    F,     F],
  ];

  it('covers every role and no role', () => {
    expect(table.map(([role]) => role)).toEqual([...ROLES, null]);
  });

  it.each(table)(
    '%s → view %s, access %s, admin %s, viewInviteLinks %s, edit %s, triggerGitSync %s, comment %s, merge %s, review %s, installIntegration %s',
    (
      role,
      view,
      access,
      admin,
      viewInviteLinks,
      edit,
      triggerGitSync,
      comment,
      merge,
      review,
      installIntegration,
    ) => {
      expect(spacePermissions(role)).toEqual({
        view,
        access,
        admin,
        viewInviteLinks,
        edit,
        triggerGitSync,
        comment,
        merge,
        review,
        installIntegration,
      });
    },
  );

  it('never gives a lower role a permission that a higher one lacks', () => {
    const lowestFirst = [...ROLES].reverse().map((role) => spacePermissions(role));
    for (let i = 1; i < lowestFirst.length; i++) {
      const granted = (Object.keys(lowestFirst[i - 1]) as (keyof SpacePermissions)[]).filter(
        (key) => lowestFirst[i - 1][key],
      );
      for (const key of granted) expect({ [key]: lowestFirst[i][key] }).toEqual({ [key]: true });
    }
  });
});
