import { actionLabel, auditActions, derivedOperation } from './audit-actions';

describe('audit actions', () => {
  it('labels an action verb first, as GitBook does', () => {
    expect(actionLabel('site.redirect.created')).toBe('Created site redirect');
    expect(actionLabel('organization.team.member-added')).toBe('Added organization team member');
    expect(actionLabel('space.updated')).toBe('Updated space');
  });

  it('lists each action once, sorted', () => {
    const ids = auditActions().map((action) => action.id);
    expect(ids).toEqual([...new Set(ids)].sort());
    expect(ids).toContain('space.created');
  });

  it('derives a name for an operation without an entry', () => {
    expect(derivedOperation('createWidgetThing')).toEqual({
      action: 'widget-thing.created',
      target: 'widget-thing',
    });
    expect(derivedOperation('updateWidgetById').action).toBe('widget.updated');
  });
});
