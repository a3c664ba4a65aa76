import type { Role } from '../platform/policy/roles';
import { collectionPermissions } from './collection-permissions';

describe('collectionPermissions', () => {
  const table: [Role | null, boolean, boolean, boolean, boolean][] = [
    // role      view  admin  viewInviteLinks create
    ['admin', true, true, true, true],
    ['create', true, false, false, true],
    ['review', true, false, false, false],
    ['edit', true, false, false, false],
    ['comment', true, false, false, false],
    ['read', true, false, false, false],
    [null, true, false, false, false],
  ];

  it.each(table)(
    '%s → view %s, admin %s, viewInviteLinks %s, create %s',
    (role, view, admin, viewInviteLinks, create) => {
      expect(collectionPermissions(role)).toEqual({ view, admin, viewInviteLinks, create });
    },
  );
});
