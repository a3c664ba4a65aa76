import { effectiveContentRole } from './effective-role';

const base: Parameters<typeof effectiveContentRole>[0] = {
  memberRole: null,
  organizationDefaultRole: null,
  defaultDecided: false,
  decidedDefault: null,
  grantRoles: [],
};

describe('effectiveContentRole', () => {
  it('is the member role when nothing else applies', () => {
    expect(effectiveContentRole({ ...base, memberRole: 'read', defaultDecided: true })).toBe(
      'read',
    );
  });

  it('raises a member to the decided default level', () => {
    expect(
      effectiveContentRole({
        ...base,
        memberRole: 'read',
        defaultDecided: true,
        decidedDefault: 'edit',
      }),
    ).toBe('edit');
  });

  it('uses the organization default role when every level up to the root inherits', () => {
    expect(
      effectiveContentRole({ ...base, memberRole: 'read', organizationDefaultRole: 'comment' }),
    ).toBe('comment');
    expect(
      effectiveContentRole({
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
      effectiveContentRole({ ...base, defaultDecided: true, decidedDefault: 'admin' }),
    ).toBeNull();
    expect(
      effectiveContentRole({ ...base, organizationDefaultRole: 'admin', grantRoles: ['read'] }),
    ).toBe('read');
  });

  it('takes the highest grant', () => {
    expect(
      effectiveContentRole({ ...base, memberRole: 'read', grantRoles: ['comment', 'admin'] }),
    ).toBe('admin');
  });
});
