import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  actionLabel,
  AUDITED_OPERATIONS,
  auditActions,
  derivedOperation,
  UNAUDITED_OPERATIONS,
} from './audit-actions';

/** The write operations of the committed API document that need a token. */
function tokenWrites(): string[] {
  const document = JSON.parse(
    readFileSync(join(__dirname, '../../openapi/bindery.openapi.json'), 'utf8'),
  ) as {
    paths: Record<string, Record<string, { operationId: string; 'x-bindery-access': string }>>;
  };
  return Object.values(document.paths).flatMap((methods) =>
    Object.entries(methods)
      .filter(
        ([method, operation]) =>
          ['post', 'put', 'patch', 'delete'].includes(method) &&
          operation['x-bindery-access'] !== 'public',
      )
      .map(([, operation]) => operation.operationId),
  );
}

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

  it('names every write that needs a token, or says why it is not audited', () => {
    const writes = tokenWrites();
    expect(writes.length).toBeGreaterThan(100);
    expect(
      writes.filter((id) => !AUDITED_OPERATIONS.has(id) && !UNAUDITED_OPERATIONS.has(id)),
    ).toEqual([]);
    expect([...AUDITED_OPERATIONS.keys()].filter((id) => !writes.includes(id))).toEqual([]);
  });

  it('derives a name for an operation without an entry', () => {
    expect(derivedOperation('createWidgetThing')).toEqual({
      action: 'widget-thing.created',
      target: 'widget-thing',
    });
    expect(derivedOperation('updateWidgetById').action).toBe('widget.updated');
  });
});
