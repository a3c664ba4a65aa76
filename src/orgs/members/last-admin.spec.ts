import { removesLastAdmin } from './last-admin';

const admin = (userId: string, disabled = false) => ({ userId, disabled });

describe('removesLastAdmin', () => {
  it('refuses demoting or removing the only admin', () => {
    const admins = [admin('a')];
    const member = { userId: 'a', role: 'admin' as const, disabled: false };
    expect(removesLastAdmin(admins, { ...member, next: 'create' })).toBe(true);
    expect(removesLastAdmin(admins, { ...member, next: null })).toBe(true);
    expect(removesLastAdmin(admins, member)).toBe(true);
  });

  it('allows it when another enabled admin remains', () => {
    const admins = [admin('a'), admin('b')];
    const member = { userId: 'a', role: 'admin' as const, disabled: false };
    expect(removesLastAdmin(admins, { ...member, next: 'read' })).toBe(false);
    expect(removesLastAdmin(admins, member)).toBe(false);
  });

  it('does not count a disabled admin as the one that remains', () => {
    const admins = [admin('a'), admin('b', true)];
    const member = { userId: 'a', role: 'admin' as const, disabled: false };
    expect(removesLastAdmin(admins, { ...member, next: 'read' })).toBe(true);
    expect(removesLastAdmin(admins, member)).toBe(true);
  });

  it('lets a disabled admin go: it was not administering anything', () => {
    const admins = [admin('a'), admin('b', true)];
    expect(removesLastAdmin(admins, { userId: 'b', role: 'admin', disabled: true })).toBe(false);
  });

  it('keeps an admin an admin without objection', () => {
    expect(
      removesLastAdmin([admin('a')], {
        userId: 'a',
        role: 'admin',
        disabled: false,
        next: 'admin',
      }),
    ).toBe(false);
  });

  it.each([['create'], ['read'], [null]] as const)(
    'ignores changes to a %s member, even with no admin left',
    (role) => {
      expect(removesLastAdmin([], { userId: 'x', role, disabled: false, next: 'admin' })).toBe(
        false,
      );
      expect(removesLastAdmin([], { userId: 'x', role, disabled: false })).toBe(false);
    },
  );
});
