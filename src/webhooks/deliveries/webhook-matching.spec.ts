import { webhookWants, type EventTarget, type WebhookFilter } from './webhook-matching';

const hook = (over: Partial<WebhookFilter> = {}): WebhookFilter => ({
  id: 'h1',
  events: ['*'],
  spaceIds: [],
  siteIds: [],
  ...over,
});
const event = (over: Partial<EventTarget> = {}): EventTarget => ({
  type: 'space_updated',
  resourceKey: 'space:s1',
  spaceId: 's1',
  siteId: null,
  ...over,
});

describe('webhookWants', () => {
  it('delivers every event to `*`, and only the listed types otherwise', () => {
    expect(webhookWants(hook(), event())).toBe(true);
    expect(webhookWants(hook({ events: ['space_updated'] }), event())).toBe(true);
    expect(webhookWants(hook({ events: ['comment_created'] }), event())).toBe(false);
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
