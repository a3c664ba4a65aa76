import { webhookWants, type EventTarget, type WebhookFilter } from './webhook-matching';

const hook = (over: Partial<WebhookFilter> = {}): WebhookFilter => ({
  id: 'h1',
  events: ['*'],
  spaceIds: [],
  siteIds: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  ...over,
});
const event = (over: Partial<EventTarget> = {}): EventTarget => ({
  type: 'space_updated',
  resourceKey: 'space:s1',
  spaceId: 's1',
  siteId: null,
  createdAt: new Date('2026-01-01T00:00:01Z'),
  ...over,
});

describe('webhookWants', () => {
  it('delivers every event to `*`, and only the listed types otherwise', () => {
    expect(webhookWants(hook(), event())).toBe(true);
    expect(webhookWants(hook({ events: ['space_updated'] }), event())).toBe(true);
    expect(webhookWants(hook({ events: ['comment_created'] }), event())).toBe(false);
  });

  it('delivers only the events recorded since the webhook was created', () => {
    expect(webhookWants(hook(), event({ createdAt: new Date('2025-12-31T23:59:59Z') }))).toBe(
      false,
    );
    expect(webhookWants(hook(), event({ createdAt: new Date('2026-01-01T00:00:00Z') }))).toBe(true);
  });

  it('sends a ping only to the webhook it names, whatever its events', () => {
    const ping = event({ type: 'ping', resourceKey: 'webhook:h1', spaceId: null });
    expect(webhookWants(hook({ events: ['comment_created'] }), ping)).toBe(true);
    expect(webhookWants(hook({ id: 'h2' }), ping)).toBe(false);
  });

  it.each([
    [{ spaceIds: ['s1'] }, { spaceId: 's1' }, true],
    [{ spaceIds: ['s2'] }, { spaceId: 's1' }, false],
    [{ siteIds: ['t1'] }, { spaceId: 's1', siteId: 't1' }, true],
    [{ siteIds: ['t1'] }, { spaceId: 's1', siteId: null }, false],
    [{ spaceIds: ['s1'] }, { spaceId: null, siteId: 't1' }, false],
    [{ spaceIds: ['s1'], siteIds: ['t1'] }, { spaceId: null, siteId: 't1' }, true],
    [{ spaceIds: ['s1'] }, { spaceId: null, siteId: null }, false],
    [{}, { spaceId: null, siteId: null }, true],
  ] as const)('limits %p: event %p → %p', (limits, target, expected) => {
    expect(webhookWants(hook({ ...limits } as Partial<WebhookFilter>), event(target))).toBe(
      expected,
    );
  });
});
