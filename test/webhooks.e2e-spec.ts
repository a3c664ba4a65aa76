import { EventOutbox, type EventInput } from '../src/platform/events/event-outbox';
import { WebhookJobs } from '../src/webhooks/deliveries/webhook-jobs';
import { createTestApp, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { verifyRequest, WebhookReceiver } from './helpers/webhook-receiver';

/**
 * Webhooks (Bindery's own operations): their routes, and the delivery of recorded events to a
 * real endpoint on 127.0.0.1, signed as Standard Webhooks says, retried, in order per resource.
 * Retries wait 0.3 s here (WEBHOOK_RETRY_SCHEDULE), attempts time out after 1 s.
 */
describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '0.3,0.3,0.3', WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.resume();
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  const base = (org: TestOrganization) => `/v1/orgs/${org.id}/webhooks`;

  /** A webhook of `org` pointing at the receiver; its ping has arrived when active. */
  async function webhook(
    org: TestOrganization,
    body: Record<string, unknown> = {},
  ): Promise<{ id: string; secret: string; body: Record<string, unknown> }> {
    const res = await org.owner.client
      .post(base(org), { url: `${receiver.url}/hook`, events: ['*'], ...body })
      .expect(201);
    const id = res.body.id as string;
    if (body.active !== false) {
      await receiver.waitFor(() => pingsOf(id).length > 0);
    }
    return { id, secret: res.body.secret as string, body: res.body as Record<string, unknown> };
  }

  const pingsOf = (webhookId: string) =>
    receiver.of('ping').filter((request) => request.json.installationId === webhookId);

  /** Records events in one transaction, as a service does with its change. */
  async function record(...inputs: EventInput[]) {
    const outbox = t.bindery.app.get(EventOutbox);
    return t.dataSource.transaction((manager) => outbox.record(manager, ...inputs));
  }

  function spaceEvent(
    org: TestOrganization,
    spaceId: string,
    type = 'space_updated',
    fields: Record<string, unknown> = {},
  ): EventInput {
    return {
      type,
      organizationId: org.id,
      resource: { type: 'space', id: spaceId },
      spaceId,
      actor: { kind: 'user', id: org.owner.id },
      fields: { spaceId, ...fields },
    };
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  describe('createWebhook', () => {
    it('answers the webhook with a new secret, once, and pings it, signed', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(base(org), { url: `${receiver.url}/hook`, events: ['space_updated'] })
        .expect(201);
      expect(res.body).toEqual({
        object: 'webhook',
        id: expect.any(String),
        organization: org.id,
        url: `${receiver.url}/hook`,
        events: ['space_updated'],
        spaces: [],
        sites: [],
        active: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        urls: { location: expect.stringContaining(`/v1/orgs/${org.id}/webhooks/${res.body.id}`) },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      const [ping] = await receiver.waitFor((requests) => requests.length === 1);
      expect(verifyRequest(res.body.secret as string, ping)).toEqual(ping.json);
      expect(ping.path).toBe('/hook');
      expect(ping.headers['content-type']).toBe('application/json');
      expect(ping.headers['user-agent']).toBe('Bindery-Webhooks/1');
      expect(ping.headers['webhook-id']).toMatch(/^evt_/);
      expect(Number(ping.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
      expect(ping.json).toEqual({
        eventId: ping.headers['webhook-id'],
        type: 'ping',
        occurredAt: expect.any(String),
        organizationId: org.id,
        actor: { kind: 'user', id: org.owner.id },
        webhookId: res.body.id,
        installationId: res.body.id,
      });
      const got = await org.owner.client.get(`${base(org)}/${res.body.id as string}`).expect(200);
      expect(got.body.secret).toBeUndefined();
      expect(JSON.stringify(got.body)).not.toContain('whsec_');
    });

    it('keeps a secret given, and pings nothing when created inactive', async () => {
      const org = await t.factories.organization();
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      const res = await org.owner.client
        .post(base(org), { url: receiver.url, events: ['*'], secret, active: false })
        .expect(201);
      expect(res.body).toMatchObject({ secret, active: false });
      await sleep(600);
      expect(receiver.requests).toHaveLength(0);
    });

    it.each([
      ['an unknown event type', { events: ['space_exploded'] }, /events/],
      ['no event type', { events: [] }, /events/],
      ['a URL that is not http(s)', { url: 'ftp://example.com/x' }, /url/],
      ['not a URL', { url: 'hooks' }, /url/],
      ['a malformed secret', { secret: 'whsec_short' }, /secret/],
      ['a secret of another kind', { secret: 'x'.repeat(40) }, /secret/],
      ['an unknown space', { spaces: ['noSuchSpace0000000000'] }, /spaces/],
      ['an unknown site', { sites: ['noSuchSite00000000000'] }, /sites/],
      ['active null', { active: null }, /active/],
      ['an unknown field', { colour: 'red' }, /colour/],
    ])('400 for %s', async (_, change, message) => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(base(org), { url: receiver.url, events: ['*'], ...change })
        .expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    });

    it('400 for a space or a site of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization({ owner: org.owner });
      const space = await t.factories.space(other);
      const site = await t.factories.site(other);
      for (const body of [{ spaces: [space.id] }, { sites: [site.id] }]) {
        const res = await org.owner.client
          .post(base(org), { url: receiver.url, events: ['*'], ...body })
          .expect(400);
        expect(res.body.error.message).toMatch(/not? .*in this organization/);
      }
    });
  });

  describe('access', () => {
    const routes = (webhookId: string, deliveryId: string) =>
      [
        ['post', '', { url: 'https://example.com/h', events: ['*'] }],
        ['get', ''],
        ['get', `/${webhookId}`],
        ['patch', `/${webhookId}`, { active: false }],
        ['delete', `/${webhookId}`],
        ['post', `/${webhookId}/rotate-secret`],
        ['get', `/${webhookId}/deliveries`],
        ['get', `/${webhookId}/deliveries/${deliveryId}`],
        ['post', `/${webhookId}/deliveries/${deliveryId}/redeliver`],
      ] as const;

    it('refuses members below admin (403) and other organizations (404)', async () => {
      const org = await t.factories.organization();
      const hook = await webhook(org);
      const list = await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200);
      const deliveryId = list.body.items[0].id as string;
      const editor = await t.factories.member(org, 'edit');
      const stranger = await t.factories.organization();
      for (const [method, path, body] of routes(hook.id, deliveryId)) {
        const url = `${base(org)}${path}`;
        const asEditor = await (body
          ? editor.client[method](url, body)
          : editor.client[method](url));
        expect([method, path, asEditor.status]).toEqual([method, path, 403]);
        const asStranger = await (body
          ? stranger.owner.client[method](url, body)
          : stranger.owner.client[method](url));
        expect([method, path, asStranger.status]).toEqual([method, path, 404]);
      }
      // Nothing of it changed.
      const got = await org.owner.client.get(`${base(org)}/${hook.id}`).expect(200);
      expect(got.body.active).toBe(true);
    });

    it('404 for an unknown webhook or delivery, and for one of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization({ owner: org.owner });
      const theirs = await webhook(other);
      const theirDeliveries = await other.owner.client
        .get(`${base(other)}/${theirs.id}/deliveries`)
        .expect(200);
      const theirDelivery = theirDeliveries.body.items[0].id as string;
      const mine = await webhook(org);
      for (const [method, path, body] of [
        ...routes('noSuchHook0000000000', 'noSuchDelivery000000').slice(2),
        ...routes(theirs.id, theirDelivery).slice(2),
        ...routes(mine.id, 'noSuchDelivery000000').slice(7),
        ...routes(mine.id, theirDelivery).slice(7),
      ]) {
        const url = `${base(org)}${path}`;
        const res = await (body
          ? org.owner.client[method](url, body)
          : org.owner.client[method](url));
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expect(res.body.error.code).toBe(404);
      }
    });
  });

  describe('listWebhooks, getWebhook, updateWebhook, deleteWebhook', () => {
    it('lists the organization’s webhooks a page at a time, oldest first', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        ids.push((await webhook(org, { active: false, url: `https://example.com/${i}` })).id);
      }
      await webhook(other, { active: false });
      const first = await org.owner.client.get(`${base(org)}?limit=2`).expect(200);
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
      const rest = await org.owner.client
        .get(`${base(org)}?limit=2&page=${first.body.next.page as string}`)
        .expect(200);
      expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([ids[2]]);
      expect(rest.body.next).toBeUndefined();
      await org.owner.client.get(`${base(org)}?limit=0`).expect(400);
    });

    it('changes the URL, events and limits; 400 for bad values', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org, { active: false });
      const res = await org.owner.client
        .patch(`${base(org)}/${hook.id}`, {
          url: 'https://example.com/new',
          events: ['comment_created', 'comment_created'],
          spaces: [space.id],
        })
        .expect(200);
      expect(res.body).toMatchObject({
        url: 'https://example.com/new',
        events: ['comment_created'],
        spaces: [space.id],
        sites: [],
        active: false,
      });
      expect(res.body.secret).toBeUndefined();
      for (const body of [
        { events: ['nope'] },
        { url: 'mailto:a@b.c' },
        { secret: 'x' },
        { active: null },
        { url: null },
      ]) {
        const bad = await org.owner.client.patch(`${base(org)}/${hook.id}`, body).expect(400);
        expect(bad.body.error.code).toBe(400);
      }
      const got = await org.owner.client.get(`${base(org)}/${hook.id}`).expect(200);
      expect(got.body.url).toBe('https://example.com/new');
    });

    it('deletes a webhook: it is gone, and nothing more is delivered to it', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      await org.owner.client.delete(`${base(org)}/${hook.id}`).expect(204);
      await org.owner.client.get(`${base(org)}/${hook.id}`).expect(404);
      await org.owner.client.delete(`${base(org)}/${hook.id}`).expect(404);
      await record(spaceEvent(org, space.id));
      await sleep(800);
      expect(receiver.requests.map((request) => request.json.type)).toEqual(['ping']);
    });
  });

  describe('delivery', () => {
    it('delivers an event recorded in a committed transaction once, signed, with its body', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      const [event] = await record(spaceEvent(org, space.id, 'space_updated', { title: 'New' }));
      const [request] = await receiver
        .waitFor(() => receiver.of('space_updated').length === 1)
        .then(() => receiver.of('space_updated'));
      expect(verifyRequest(hook.secret, request)).toEqual(request.json);
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(request.json).toEqual({ ...event.payload, installationId: hook.id });
      expect(request.json).toMatchObject({
        type: 'space_updated',
        organizationId: org.id,
        spaceId: space.id,
        title: 'New',
      });
      await sleep(500);
      expect(receiver.of('space_updated')).toHaveLength(1);
      const list = await org.owner.client
        .get(`${base(org)}/${hook.id}/deliveries?status=delivered`)
        .expect(200);
      expect(list.body.items[0]).toMatchObject({
        object: 'webhook-delivery',
        webhook: hook.id,
        event: event.id,
        eventType: 'space_updated',
        resource: `space:${space.id}`,
        status: 'delivered',
        attemptCount: 1,
      });
    });

    it('delivers nothing of a rolled-back transaction', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      await webhook(org);
      const outbox = t.bindery.app.get(EventOutbox);
      await expect(
        t.dataSource.transaction(async (manager) => {
          await outbox.record(manager, spaceEvent(org, space.id, 'space_deleted'));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await record(spaceEvent(org, space.id, 'space_updated'));
      await receiver.waitFor(() => receiver.of('space_updated').length === 1);
      await sleep(300);
      expect(receiver.of('space_deleted')).toHaveLength(0);
    });

    it('retries after a 500, and records every attempt', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      let failed = false;
      receiver.answer = (request) => {
        if (request.json.type === 'space_updated' && !failed) {
          failed = true;
          return { status: 500, body: 'try later' };
        }
        return { status: 200, body: 'thanks' };
      };
      const [event] = await record(spaceEvent(org, space.id));
      await receiver.waitFor(() => receiver.of('space_updated').length === 2);
      const [first, second] = receiver.of('space_updated');
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(second.at - first.at).toBeGreaterThanOrEqual(250);
      expect(verifyRequest(hook.secret, second)).toEqual(second.json);

      const list = await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200);
      const delivery = list.body.items.find((item: { event: string }) => item.event === event.id);
      await waitForStatus(org, hook.id, delivery.id as string, 'delivered');
      const detail = await org.owner.client
        .get(`${base(org)}/${hook.id}/deliveries/${delivery.id as string}`)
        .expect(200);
      expect(detail.body).toMatchObject({
        status: 'delivered',
        attemptCount: 2,
        payload: event.payload,
        attempts: [
          {
            number: 1,
            statusCode: 500,
            response: 'try later',
            error: 'The endpoint answered 500.',
          },
          { number: 2, statusCode: 200, response: 'thanks' },
        ],
      });
      expect(detail.body.attempts[1].error).toBeUndefined();
      const hookNow = await org.owner.client.get(`${base(org)}/${hook.id}`).expect(200);
      expect(hookNow.body.failing).toBeUndefined();
    });

    it('retries an attempt that timed out', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      receiver.answer = (request) =>
        request.json.type === 'space_updated' && receiver.of('space_updated').length === 1
          ? { status: 200, holdMs: 2500 }
          : { status: 200 };
      await record(spaceEvent(org, space.id));
      await receiver.waitFor(() => receiver.of('space_updated').length === 2);
      const list = await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200);
      const delivery = list.body.items.find(
        (item: { eventType: string }) => item.eventType === 'space_updated',
      );
      await waitForStatus(org, hook.id, delivery.id as string, 'delivered');
      const detail = await org.owner.client
        .get(`${base(org)}/${hook.id}/deliveries/${delivery.id as string}`)
        .expect(200);
      expect(detail.body.attempts[0]).toMatchObject({
        number: 1,
        error: expect.stringMatching(/did not respond within 1000 ms/),
      });
      expect(detail.body.attempts[0].statusCode).toBeUndefined();
      expect(detail.body.attempts[1]).toMatchObject({ number: 2, statusCode: 200 });
    });

    it('delivers the events of one resource in order: a later one waits for the earlier', async () => {
      const org = await t.factories.organization();
      const [one, two] = [await t.factories.space(org), await t.factories.space(org)];
      await webhook(org);
      let refusals = 2;
      receiver.answer = (request) =>
        request.json.step === 1 && refusals-- > 0 ? { status: 503 } : { status: 200 };
      await record(
        spaceEvent(org, one.id, 'space_updated', { step: 1 }),
        spaceEvent(org, one.id, 'space_updated', { step: 2 }),
        spaceEvent(org, two.id, 'space_updated', { step: 3 }),
      );
      await receiver.waitFor(() => receiver.of('space_updated').length === 5);
      const steps = receiver.of('space_updated').map((request) => request.json.step);
      // The other space's event does not wait; step 2 comes only after step 1 got its 200.
      expect(steps.filter((step) => step !== 3)).toEqual([1, 1, 1, 2]);
      expect(steps.indexOf(3)).toBeLessThan(3);
    });

    it('delivers many events recorded together once each, every resource in order', async () => {
      const org = await t.factories.organization();
      await webhook(org);
      // One resource with more events than a job's rounds (each round sends one of them), and
      // more resources than a round holds: the job goes on in rounds, then in a job of its own.
      const busy = Array.from({ length: 12 }, (_, i) =>
        spaceEvent(org, 'busy', 'space_updated', { step: i + 1 }),
      );
      const others = Array.from({ length: 30 }, (_, i) => spaceEvent(org, `other-${i}`));
      // Each of the busy resource's answers takes 40 ms: the next may be sent only after it.
      receiver.answer = (request) =>
        request.json.spaceId === 'busy' ? { status: 200, holdMs: 40 } : { status: 200 };
      await record(...busy.slice(0, 6), ...others, ...busy.slice(6));
      await receiver.waitFor(() => receiver.of('space_updated').length >= 42, 30_000);
      await sleep(500);
      const received = receiver.of('space_updated');
      expect(received).toHaveLength(42);
      expect(new Set(received.map((request) => request.json.eventId)).size).toBe(42);
      const inBusy = received.filter((request) => request.json.spaceId === 'busy');
      expect(inBusy.map((request) => request.json.step)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      for (const [i, request] of inBusy.slice(1).entries()) {
        expect(request.at - inBusy[i].at).toBeGreaterThanOrEqual(35);
      }
    });

    it('redelivers with the same webhook-id, as a new delivery', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      const [event] = await record(spaceEvent(org, space.id));
      await receiver.waitFor(() => receiver.of('space_updated').length === 1);
      const list = await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200);
      const original = list.body.items.find((item: { event: string }) => item.event === event.id);
      await waitForStatus(org, hook.id, original.id as string, 'delivered');
      const res = await org.owner.client
        .post(`${base(org)}/${hook.id}/deliveries/${original.id as string}/redeliver`)
        .expect(201);
      expect(res.body).toMatchObject({
        object: 'webhook-delivery',
        event: event.id,
        redeliveryOf: original.id,
        status: 'pending',
      });
      expect(res.body.id).not.toBe(original.id);
      await receiver.waitFor(() => receiver.of('space_updated').length === 2);
      const [first, again] = receiver.of('space_updated');
      expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(again.json).toEqual(first.json);
      expect(verifyRequest(hook.secret, again)).toEqual(again.json);
      const after = await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200);
      expect(after.body.items[0].id).toBe(res.body.id);
    });

    it('disables a webhook whose deliveries fail through every retry; enabling clears it', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      receiver.answer = () => ({ status: 502 });
      await record(spaceEvent(org, space.id));
      // One attempt and three retries.
      await receiver.waitFor(() => receiver.of('space_updated').length === 4);
      const disabled = await waitForWebhook(org, hook.id, (body) => body.active === false);
      expect(disabled.disabledReason).toMatch(/4 in a row, the last: HTTP 502/);
      expect(disabled.failing).toEqual({ consecutiveFailures: 4, since: expect.any(String) });
      const failed = await org.owner.client
        .get(`${base(org)}/${hook.id}/deliveries?status=failed`)
        .expect(200);
      expect(failed.body.items).toHaveLength(1);
      expect(failed.body.items[0]).toMatchObject({ status: 'failed', attemptCount: 4 });

      // Disabled: nothing is sent.
      await record(spaceEvent(org, space.id, 'space_restored'));
      await sleep(600);
      expect(receiver.of('space_restored')).toHaveLength(0);

      receiver.answer = () => ({ status: 200 });
      const enabled = await org.owner.client
        .patch(`${base(org)}/${hook.id}`, { active: true })
        .expect(200);
      expect(enabled.body.active).toBe(true);
      expect(enabled.body.disabledReason).toBeUndefined();
      expect(enabled.body.failing).toBeUndefined();
      await receiver.waitFor(() => pingsOf(hook.id).length === 2);
    });

    it('signs with the old and the new secret for 24 hours after a rotation', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      const rotated = await org.owner.client
        .post(`${base(org)}/${hook.id}/rotate-secret`)
        .expect(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(hook.secret);
      expect(
        Date.parse(rotated.body.previousSecretExpiresAt as string) - Date.now(),
      ).toBeGreaterThan(86_390_000);
      await record(spaceEvent(org, space.id));
      const [request] = await receiver
        .waitFor(() => receiver.of('space_updated').length === 1)
        .then(() => receiver.of('space_updated'));
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyRequest(hook.secret, request)).toEqual(request.json);
      expect(verifyRequest(rotated.body.secret as string, request)).toEqual(request.json);

      // A day later only the new secret signs.
      t.clock.set(new Date(Date.now() + 86_400_000 + 1000));
      await record(spaceEvent(org, space.id, 'space_restored'));
      const [later] = await receiver
        .waitFor(() => receiver.of('space_restored').length === 1)
        .then(() => receiver.of('space_restored'));
      expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
      const got = await org.owner.client.get(`${base(org)}/${hook.id}`).expect(200);
      expect(got.body.previousSecretExpiresAt).toBeUndefined();
      t.clock.resume();
    });

    it('delivers only the events a webhook subscribes to, of its spaces and sites', async () => {
      const org = await t.factories.organization();
      const [space, elsewhere] = [await t.factories.space(org), await t.factories.space(org)];
      const site = await t.factories.site(org);
      const comments = await webhook(org, { events: ['comment_created'] });
      const ofSpace = await webhook(org, { spaces: [space.id] });
      const ofSite = await webhook(org, { sites: [site.id] });
      const all = await webhook(org);
      const other = await t.factories.organization();
      const theirs = await webhook(other);
      await record(
        spaceEvent(org, space.id, 'space_updated'),
        spaceEvent(org, elsewhere.id, 'comment_created'),
        {
          type: 'site_published',
          organizationId: org.id,
          resource: { type: 'site', id: site.id },
          siteId: site.id,
          actor: { kind: 'system' },
          fields: { siteId: site.id },
        },
        {
          type: 'member_added',
          organizationId: org.id,
          resource: { type: 'member', id: org.owner.id },
          actor: { kind: 'system' },
          fields: { userId: org.owner.id },
        },
      );
      const received = (id: string) =>
        receiver.requests
          .filter((request) => request.json.installationId === id && request.json.type !== 'ping')
          .map((request) => request.json.type)
          .sort();
      await receiver.waitFor(() => received(all.id).length === 4);
      await sleep(500);
      expect(received(comments.id)).toEqual(['comment_created']);
      expect(received(ofSpace.id)).toEqual(['space_updated']);
      expect(received(ofSite.id)).toEqual(['site_published']);
      expect(received(theirs.id)).toEqual([]);
      // Pings go only to their own webhook.
      for (const { id } of [comments, ofSpace, ofSite, all]) expect(pingsOf(id)).toHaveLength(1);
    });
  });

  describe('retention', () => {
    it('removes events and finished deliveries older than EVENT_RETENTION_DAYS', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const hook = await webhook(org);
      await record(spaceEvent(org, space.id));
      await receiver.waitFor(() => receiver.of('space_updated').length === 1);
      const list = async () =>
        (await org.owner.client.get(`${base(org)}/${hook.id}/deliveries`).expect(200)).body
          .items as { status: string }[];
      await waitFor(async () => (await list()).every((item) => item.status === 'delivered'));
      const jobs = t.bindery.app.get(WebhookJobs);
      t.clock.set(new Date(Date.now() + 29 * 86_400_000));
      await jobs.purge();
      expect(await list()).toHaveLength(2);
      t.clock.set(new Date(Date.now() + 31 * 86_400_000));
      await jobs.purge();
      expect(await list()).toHaveLength(0);
      t.clock.resume();
    });
  });

  async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(50);
    }
  }

  async function waitForStatus(
    org: TestOrganization,
    webhookId: string,
    deliveryId: string,
    status: string,
  ): Promise<void> {
    await waitFor(async () => {
      const res = await org.owner.client
        .get(`${base(org)}/${webhookId}/deliveries/${deliveryId}`)
        .expect(200);
      return res.body.status === status;
    });
  }

  async function waitForWebhook(
    org: TestOrganization,
    webhookId: string,
    condition: (body: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    let body: Record<string, unknown> = {};
    await waitFor(async () => {
      body = (await org.owner.client.get(`${base(org)}/${webhookId}`).expect(200)).body;
      return condition(body);
    });
    return body;
  }

  it("answers every operation in the shape Bindery's API document declares", async () => {
    const org = await t.factories.organization();
    const hook = await webhook(org, { events: ['space_created'] });
    const check = (res: { status: number; body: unknown }, operationId: string) =>
      expectConforms(res, operationId, BINDERY_DOCUMENT);
    const one = `${base(org)}/${hook.id}`;
    check(
      await org.owner.client
        .post(base(org), { url: `${receiver.url}/b`, events: ['*'] })
        .expect(201),
      'createWebhook',
    );
    check(await org.owner.client.get(base(org)).expect(200), 'listWebhooks');
    check(await org.owner.client.get(one).expect(200), 'getWebhook');
    check(
      await org.owner.client.patch(one, { events: ['space_created', 'space_deleted'] }).expect(200),
      'updateWebhook',
    );
    check(await org.owner.client.post(`${one}/rotate-secret`).expect(200), 'rotateWebhookSecret');
    const deliveries = await org.owner.client.get(`${one}/deliveries`).expect(200);
    check(deliveries, 'listWebhookDeliveries');
    const delivery = `${one}/deliveries/${deliveries.body.items[0].id as string}`;
    check(await org.owner.client.get(delivery).expect(200), 'getWebhookDelivery');
    check(
      await org.owner.client.post(`${delivery}/redeliver`).expect(201),
      'redeliverWebhookDelivery',
    );
    check(await org.owner.client.delete(one).expect(204), 'deleteWebhook');
  });
});

/** Private addresses are refused when the instance does not allow them. */
describe('webhooks without private addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
  });
  afterAll(() => t.close());

  it.each(['http://127.0.0.1:9/hook', 'http://10.1.2.3/', 'http://[::1]/', 'http://localhost/'])(
    '400 for %s',
    async (url) => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/webhooks`, { url, events: ['*'] })
        .expect(400);
      expect(res.body.error.message).toMatch(/private address/);
    },
  );
});
