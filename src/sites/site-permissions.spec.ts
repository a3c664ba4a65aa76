import { ROLES, type Role } from '../platform/policy/roles';
import { sitePermissions } from './site-permissions';

describe('sitePermissions', () => {
  const T = true;
  const F = false;
  // Written out rather than derived, so that a change to any cell shows up here.
  // prettier-ignore
  const table: [Role | null, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean][] = [
    // role     view access edit create admin installInt viewSchema editSchema
    ['admin',   T,   T,     T,   T,     T,    T,         T,         T],
    ['create',  T,   T,     T,   T,     F,    F,         T,         T],
    ['review',  T,   T,     T,   F,     F,    F,         T,         F],
    ['edit',    T,   T,     T,   F,     F,    F,         T,         F],
    ['comment', T,   T,     F,   F,     F,    F,         T,         F],
    ['read',    T,   T,     F,   F,     F,    F,         T,         F],
    // A reader of a published site who is not a member with a role: it only sees the site.
    [null,      T,   F,     F,   F,     F,    F,         F,         F],
  ];

  it('covers every role and no role', () => {
    expect(table.map(([role]) => role)).toEqual([...ROLES, null]);
  });

  it.each(table)(
    '%s → view %s, access %s, edit %s, create %s, admin %s, installIntegration %s, viewAdaptiveSchema %s, editAdaptiveSchema %s',
    (
      role,
      view,
      access,
      edit,
      create,
      admin,
      installIntegration,
      viewAdaptiveSchema,
      editAdaptiveSchema,
    ) => {
      expect(sitePermissions(role)).toEqual({
        view,
        access,
        edit,
        create,
        admin,
        installIntegration,
        viewAdaptiveSchema,
        editAdaptiveSchema,
      });
    },
  );
});
