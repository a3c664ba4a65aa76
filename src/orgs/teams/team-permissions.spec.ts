import { Role } from '../../platform/policy/roles';
import type { TeamRole } from './entities/team-member.entity';
import { teamPermissions } from './team-permissions';

// Rows: organization role (null = guest); cells: view admin, for a caller outside the team,
// a team member and a team owner.
const TRUTH_TABLE: [Role | null, { none: string; member: string; owner: string }][] = [
  ['admin', { none: 'T T', member: 'T T', owner: 'T T' }],
  ['create', { none: 'T F', member: 'T F', owner: 'T T' }],
  ['review', { none: 'T F', member: 'T F', owner: 'T T' }],
  ['edit', { none: 'T F', member: 'T F', owner: 'T T' }],
  ['comment', { none: 'T F', member: 'T F', owner: 'T T' }],
  ['read', { none: 'T F', member: 'T F', owner: 'T T' }],
  [null, { none: 'F F', member: 'T F', owner: 'T T' }],
];

const cases = TRUTH_TABLE.flatMap(([orgRole, cells]) =>
  (
    [
      [null, cells.none],
      ['member', cells.member],
      ['owner', cells.owner],
    ] as [TeamRole | null, string][]
  ).map(([teamRole, cell]) => [orgRole, teamRole, cell] as const),
);

describe('teamPermissions', () => {
  it('covers every organization role (and guest) with every team role (and none)', () => {
    expect(cases).toHaveLength(21);
  });

  it.each(cases)('organization role %p, team role %p: %s', (orgRole, teamRole, cell) => {
    const [view, admin] = cell.split(' ').map((value) => value === 'T');
    expect(teamPermissions(orgRole, teamRole)).toEqual({ view, admin });
  });
});
