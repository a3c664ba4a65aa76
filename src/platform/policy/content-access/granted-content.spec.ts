import { visibleContentCondition } from './granted-content';

describe('visibleContentCondition', () => {
  const guest = { organizationId: 'org1', userId: 'user1', role: null };

  it('adds no condition for a member with a role, who sees all the content', () => {
    expect(visibleContentCondition('space', 's.id', { ...guest, role: 'read' })).toBeNull();
    expect(visibleContentCondition('collection', 'c.id', { ...guest, role: 'admin' })).toBeNull();
  });

  it('limits a guest to the spaces its grants reach, with bound parameters', () => {
    const condition = visibleContentCondition('space', 'cr.space_id', guest)!;
    expect(condition.sql.startsWith('cr.space_id IN (')).toBe(true);
    expect(condition.sql).toContain('FROM content_grants g');
    expect(condition.sql).toContain('SELECT gs.id FROM spaces gs');
    expect(condition.params).toEqual({ visibleOrganizationId: 'org1', visibleUserId: 'user1' });
    expect(condition.sql).not.toContain('org1');
    expect(condition.sql).not.toContain('user1');
  });

  it('limits a guest to the collections its grants reach, down the tree', () => {
    const condition = visibleContentCondition('collection', 'c.id', guest)!;
    expect(condition.sql.startsWith('c.id IN (')).toBe(true);
    expect(condition.sql).toContain("g.resource_type = 'collection'");
    expect(condition.sql).not.toContain('spaces');
    expect(condition.params).toEqual({ visibleOrganizationId: 'org1', visibleUserId: 'user1' });
  });
});
