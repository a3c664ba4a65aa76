import { ROLES, Role } from '../platform/policy/roles';
import { contentInviteIsRedundant, inviteIsRedundant } from './invite-redundancy';

// Rows: the caller's membership role ('none' = not a member, 'guest' = null role).
// Columns: the invite's role, in the order of INVITE_ROLES.
const INVITE_ROLES: (Role | null)[] = [...ROLES, null];
const TRUTH_TABLE: [string, string][] = [
  //          admin create review edit comment read guest
  ['admin', '  T     T      T      T    T       T    T'],
  ['create', ' F     T      T      T    T       T    T'],
  ['review', ' F     F      T      T    T       T    T'],
  ['edit', '   F     F      F      T    T       T    T'],
  ['comment', 'F     F      F      F    T       T    T'],
  ['read', '   F     F      F      F    F       T    T'],
  ['guest', '  F     F      F      F    F       F    T'],
  ['none', '   F     F      F      F    F       F    F'],
];

describe('inviteIsRedundant', () => {
  it.each(TRUTH_TABLE)('caller %s', (caller, row) => {
    const membership =
      caller === 'none'
        ? null
        : { role: caller === 'guest' ? null : (caller as Role), disabled: false };
    const cells = row.trim().split(/\s+/);
    INVITE_ROLES.forEach((inviteRole, i) => {
      expect([inviteRole, inviteIsRedundant(membership, inviteRole)]).toEqual([
        inviteRole,
        cells[i] === 'T',
      ]);
    });
  });

  it.each(INVITE_ROLES.map((role) => [role]))(
    'is never redundant for a disabled membership (invite role %s)',
    (inviteRole) => {
      expect(inviteIsRedundant({ role: 'admin', disabled: true }, inviteRole)).toBe(false);
    },
  );
});

describe('contentInviteIsRedundant', () => {
  const active = { role: null, disabled: false }; // a guest: its organization role does not count

  it.each(ROLES.flatMap((there) => ROLES.map((level) => [there, level] as const)))(
    'holding %s there, a %s invite is redundant exactly when that is at least the level',
    (there, level) => {
      expect(contentInviteIsRedundant(active, there, level)).toBe(
        ROLES.indexOf(there) <= ROLES.indexOf(level),
      );
    },
  );

  it.each(ROLES.map((level) => [level]))(
    'is not redundant without a role there, without a membership or for a disabled one (level %s)',
    (level) => {
      expect(contentInviteIsRedundant(active, null, level)).toBe(false);
      expect(contentInviteIsRedundant(null, 'admin', level)).toBe(false);
      expect(contentInviteIsRedundant({ role: 'admin', disabled: true }, 'admin', level)).toBe(
        false,
      );
    },
  );
});
