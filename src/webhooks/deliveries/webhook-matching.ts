/** What of a webhook decides which events it gets. */
export interface WebhookFilter {
  id: string;
  events: string[];
  spaceIds: string[];
  siteIds: string[];
  createdAt: Date;
}

/** What of an event decides which webhooks get it. */
export interface EventTarget {
  type: string;
  resourceKey: string;
  spaceId: string | null;
  siteId: string | null;
  createdAt: Date;
}

/**
 * Whether a webhook gets an event: only one recorded since the webhook was created (however
 * late it is dispatched). `ping` goes only to the webhook it is about. Otherwise the
 * event's type must be one of its `events` (or `*`), and a webhook limited to some spaces or
 * sites gets only the events about one of them (an event about neither a space nor a site
 * reaches only the webhooks without limits).
 */
export function webhookWants(webhook: WebhookFilter, event: EventTarget): boolean {
  if (event.createdAt < webhook.createdAt) return false;
  if (event.type === 'ping') return event.resourceKey === `webhook:${webhook.id}`;
  if (!webhook.events.includes('*') && !webhook.events.includes(event.type)) return false;
  if (webhook.spaceIds.length === 0 && webhook.siteIds.length === 0) return true;
  return (
    (event.spaceId !== null && webhook.spaceIds.includes(event.spaceId)) ||
    (event.siteId !== null && webhook.siteIds.includes(event.siteId))
  );
}
