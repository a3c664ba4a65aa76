import { effectiveCollectionRole } from './collection-access.resolver';

const base: Parameters<typeof effectiveCollectionRole>[0] = {
  memberRole: null,
  organizationDefaultRole: null,
  defaultDecided: false,
  decidedDefault: null,
  grantRoles: [],
};

describe('effectiveCollectionRole', () => {
  it('is the member role when nothing else applies', () => {
    expect(effectiveCollectionRole({ ...base, memberRole: 'read', defaultDecided: true })).toBe(
      'read',
    );
  });

  it('raises a member to the decided default level', () => {
    expect(
      effectiveCollectionRole({
        ...base,
        memberRole: 'read',
        defaultDecided: true,
        decidedDefault: 'edit',
      }),
    ).toBe('edit');
  });

  it('uses the organization default role when every level up to the root inherits', () => {
    expect(
      effectiveCollectionRole({ ...base, memberRole: 'read', organizationDefaultRole: 'comment' }),
    ).toBe('comment');
    expect(
      effectiveCollectionRole({
        ...base,
        memberRole: 'read',
        organizationDefaultRole: 'comment',
        defaultDecided: true,
        decidedDefault: null,
      }),
    ).toBe('read');
  });

  it('never gives a guest the default level, only its grants', () => {
    expect(
      effectiveCollectionRole({ ...base, defaultDecided: true, decidedDefault: 'admin' }),
    ).toBeNull();
    expect(
      effectiveCollectionRole({ ...base, organizationDefaultRole: 'admin', grantRoles: ['read'] }),
    ).toBe('read');
  });

  it('takes the highest grant', () => {
    expect(
      effectiveCollectionRole({ ...base, memberRole: 'read', grantRoles: ['comment', 'admin'] }),
    ).toBe('admin');
  });
});
