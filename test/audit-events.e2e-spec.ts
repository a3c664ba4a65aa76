import { randomUUID } from 'node:crypto';
import { PURGE_AUDIT_EVENTS_QUEUE } from '../src/audit/audit-retention';
import { AuditEvent } from '../src/audit/entities/audit-event.entity';
import { JobsService } from '../src/platform/jobs/jobs.service';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

interface EventBody {
  object: 'audit-event';
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  source: string;
  target: { type: string; id: string; label?: string };
  urls: { location: string };
}

const USER_AGENT = 'audit-test/1.0';

/**
 * The audit log (listOrganizationAuditEvents, getOrganizationAuditEvent and
 * listOrganizationAuditEventActions, from GitBook's newer API): every successful write made
 * with a token is recorded by one interceptor, read by organization admins, filtered, paged
 * newest first, and forgotten after AUDIT_RETENTION_DAYS.
 */
describe('Audit events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // Each test at a time of its own that moves only when it says so.
  beforeEach(() => t.clock.set(new Date(Date.now() + 1000)));

  const events = (org: TestOrganization) => `/v1/orgs/${org.id}/audit-events`;

  async function list(org: TestOrganization, query = '', client?: Client) {
    const res = await (client ?? org.owner.client).get(`${events(org)}${query}`).expect(200);
    expectConforms(res, 'listOrganizationAuditEvents', GITBOOK_0201);
    return res.body as { items: EventBody[]; count: number; next?: { page: string } };
  }

  async function tokenIdOf(client: Client): Promise<string> {
    const tokens = await client.get('/v1/user/tokens').expect(200);
    return tokens.body.items[0].id as string;
  }

  describe('recording', () => {
    it('records a create and a rename: who, with which token, what, from where', async () => {
      const org = await t.factories.organization();
      const owner = org.owner;
      const created = await owner.client
        .post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })
        .set('User-Agent', USER_AGENT)
        .expect(201);
      const spaceId = created.body.id as string;
      const createdAt = t.clock.now().toISOString();
      t.clock.advance(1000);
      const renamed = await owner.client
        .patch(`/v1/spaces/${spaceId}`, { title: 'Guide' })
        .set('User-Agent', USER_AGENT)
        .set('X-Forwarded-For', '203.0.113.7')
        .set('X-Request-Id', `rename-${spaceId}`)
        .expect(200);
      expect(renamed.headers['x-request-id']).toBe(`rename-${spaceId}`);

      const page = await list(org, `?target=${spaceId}`);
      const actor = { type: 'user', id: owner.id, label: owner.displayName };
      expect(page.count).toBe(2);
      expect(page.items).toEqual([
        {
          object: 'audit-event',
          id: expect.any(String),
          occurredAt: t.clock.now().toISOString(),
          action: 'space.updated',
          actor,
          source: 'api',
          target: { type: 'space', id: spaceId, label: 'Guide' },
          urls: { location: expect.any(String) },
        },
        {
          object: 'audit-event',
          id: expect.any(String),
          occurredAt: createdAt,
          action: 'space.created',
          actor,
          source: 'api',
          target: { type: 'space', id: spaceId, label: 'Handbook' },
          urls: { location: expect.any(String) },
        },
      ]);
      const [rename, create] = page.items;
      expect(rename.urls.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/audit-events/${rename.id}`,
      );

      const details = await owner.client.get(rename.urls.location.slice(TEST_PUBLIC_URL.length));
      expect(details.status).toBe(200);
      expectConforms(details, 'getOrganizationAuditEvent', GITBOOK_0201);
      const tokenId = await tokenIdOf(owner.client);
      expect(details.body).toEqual({
        ...rename,
        executionId: `rename-${spaceId}`,
        schemaVersion: 1,
        payload: {
          operationId: 'updateSpaceById',
          method: 'PATCH',
          tokenId,
          requestId: `rename-${spaceId}`,
          ipAddress: '203.0.113.7',
          userAgent: USER_AGENT,
          changes: { title: 'Guide' },
        },
      });

      const first = await owner.client.get(`${events(org)}/${create.id}`).expect(200);
      expect(first.body.payload).toMatchObject({
        operationId: 'createSpace',
        method: 'POST',
        tokenId,
        requestId: created.headers['x-request-id'],
        ipAddress: expect.stringMatching(/127\.0\.0\.1|::1/),
        userAgent: USER_AGENT,
        changes: { title: 'Handbook' },
      });
      expect(first.body.executionId).toBe(created.headers['x-request-id']);
    });

    it('never stores a secret of the body', async () => {
      const org = await t.factories.organization();
      await org.owner.client
        .post(`/v1/orgs/${org.id}/conversations`, {
          id: 'with-secrets',
          parts: [{ type: 'message', role: 'user', body: 'bnd_notARealTokenButLooksLikeOne' }],
          metadata: { attributes: { plan: 'pro', password: 'hunter2', apiToken: 'abc123' } },
        })
        .expect(204);
      const [event] = (await list(org, '?action=organization.conversations.ingested')).items;
      expect(event.target).toEqual({ type: 'organization', id: org.id, label: org.title });
      const details = await org.owner.client.get(`${events(org)}/${event.id}`).expect(200);
      expectConforms(details, 'getOrganizationAuditEvent', GITBOOK_0201);
      expect(details.body.payload.changes).toEqual({
        id: 'with-secrets',
        parts: [{ type: 'message', role: 'user', body: '[redacted]' }],
        metadata: { attributes: { plan: 'pro', password: '[redacted]', apiToken: '[redacted]' } },
      });
      const stored = JSON.stringify(
        await t.dataSource.getRepository(AuditEvent).findOneBy({ id: event.id }),
      );
      expect(stored).not.toMatch(/hunter2|abc123|bnd_/);
    });

    it('records nothing for a failed write, a read or a presence ping', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org, { title: 'Kept' });
      const reader = await t.factories.asMember(org, 'read');
      const before = (await list(org)).count;

      await org.owner.client.patch(`/v1/spaces/${space.id}`, { title: 42 }).expect(400);
      await reader.patch(`/v1/spaces/${space.id}`, { title: 'Mine' }).expect(403);
      await org.owner.client.patch('/v1/spaces/absentSpace000000000', { title: 'X' }).expect(404);
      await org.owner.client.get(`/v1/spaces/${space.id}`).expect(200);
      // A member's presence ping writes only when it was last seen.
      await reader.post(`/v1/orgs/${org.id}/ping`).expect(200);
      // A delete of what is not there answers 204 and changes nothing.
      await org.owner.client.delete('/v1/spaces/absentSpace000000000').expect(204);

      expect((await list(org)).count).toBe(before);
    });

    it('names the target of a nested resource, and of a deleted one', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org, { title: 'Docs' });
      t.clock.advance(1000);
      const redirects = `/v1/orgs/${org.id}/sites/${site.id}/redirects`;
      const redirect = await org.owner.client
        .post(redirects, {
          source: '/old',
          destination: { kind: 'external', url: 'https://example.com/new' },
        })
        .expect(201);
      t.clock.advance(1000);
      await org.owner.client.delete(`${redirects}/${redirect.body.id}`).expect(205);
      t.clock.advance(1000);
      const space = await t.factories.space(org, { title: 'Doomed' });
      t.clock.advance(1000);
      await org.owner.client.delete(`/v1/spaces/${space.id}`).expect(204);

      const page = await list(org, '?limit=4');
      expect(page.items.map(({ action, target }) => ({ action, target }))).toEqual([
        { action: 'space.deleted', target: { type: 'space', id: space.id, label: 'Doomed' } },
        { action: 'space.created', target: { type: 'space', id: space.id, label: 'Doomed' } },
        {
          action: 'site.redirect.deleted',
          target: { type: 'site-redirect', id: redirect.body.id },
        },
        {
          action: 'site.redirect.created',
          target: { type: 'site-redirect', id: redirect.body.id },
        },
      ]);
    });

    it('files an organization’s creation under it, and the administrator’s writes under none', async () => {
      const user = await t.factories.user();
      const created = await user.client.post('/v1/orgs', { title: 'Fresh' }).expect(201);
      const org = { id: created.body.id as string, title: 'Fresh', owner: user };
      const page = await list(org);
      expect(page.items).toEqual([
        expect.objectContaining({
          action: 'organization.created',
          actor: { type: 'user', id: user.id, label: user.displayName },
          target: { type: 'organization', id: org.id, label: 'Fresh' },
        }),
      ]);

      // The factory's user was made with the administrator token: an instance-level event.
      const adminEvents = await t.dataSource
        .getRepository(AuditEvent)
        .findBy({ operationId: 'adminCreateUser', targetId: user.id });
      expect(adminEvents).toEqual([
        expect.objectContaining({
          organizationId: null,
          action: 'user.created',
          actorType: 'support',
          actorId: 'admin',
          tokenId: null,
          targetType: 'user',
          changes: { email: user.email, displayName: user.displayName },
        }),
      ]);
    });
  });

  describe('listOrganizationAuditEvents', () => {
    it('filters by action, actor, target and time, and pages newest first', async () => {
      const org = await t.factories.organization();
      const admin = await t.factories.member(org, 'admin');
      const start = t.clock.now();
      const titles = ['One', 'Two', 'Three'];
      const spaces: string[] = [];
      for (const title of titles) {
        t.clock.advance(1000);
        spaces.push((await t.factories.space(org, { title })).id);
      }
      t.clock.advance(1000);
      await t.factories.space(org, { title: 'Theirs', by: admin.client });
      const at = (seconds: number) => new Date(start.getTime() + seconds * 1000).toISOString();

      const mine = await list(org, `?action=space.created&actor=${org.owner.id}`);
      expect(mine.items.map((event) => event.target.label)).toEqual(['Three', 'Two', 'One']);
      expect(mine.count).toBe(3);

      const theirs = await list(org, `?actor=${admin.id}`);
      expect(theirs.items.map((event) => event.target.label)).toEqual(['Theirs']);

      const one = await list(org, `?target=${spaces[1]}`);
      expect(one.items.map((event) => event.target.label)).toEqual(['Two']);

      const window = await list(org, `?from=${at(2)}&to=${at(3)}`);
      expect(window.items.map((event) => event.target.label)).toEqual(['Three', 'Two']);

      const first = await list(org, `?action=space.created&limit=2`);
      expect(first.count).toBe(4);
      expect(first.items.map((event) => event.target.label)).toEqual(['Theirs', 'Three']);
      const rest = await list(org, `?action=space.created&limit=2&page=${first.next?.page}`);
      expect(rest.items.map((event) => event.target.label)).toEqual(['Two', 'One']);
      expect(rest.next).toBeUndefined();

      expect((await list(org, '?action=space.deleted')).items).toEqual([]);
    });

    it.each([
      ['a bad from', '?from=yesterday', 'from'],
      ['a bad to', '?to=2026-13-01T00:00:00Z', 'to'],
      ['a limit over 100', '?limit=101', 'limit'],
      ['a limit of 0', '?limit=0', 'limit'],
      ['from after to', '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
      ['a page from nowhere', '?page=nonsense', 'page'],
    ])('answers 400 for %s', async (_, query, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(`${events(org)}${query}`).expect(400);
      expectConforms(res, 'listOrganizationAuditEvents', GITBOOK_0201);
      expect(res.body).toEqual({
        error: { code: 400, message: expect.stringContaining(field) },
      });
    });
  });

  describe('getOrganizationAuditEvent', () => {
    it('answers 404 for an unknown id, a malformed one, and another organization’s event', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const [theirs] = (await list(other)).items;
      for (const id of [randomUUID(), 'not-an-id', theirs.id]) {
        const res = await org.owner.client.get(`${events(org)}/${id}`).expect(404);
        expectConforms(res, 'getOrganizationAuditEvent', GITBOOK_0201);
        expect(res.body).toEqual({ error: { code: 404, message: 'Audit event not found.' } });
      }
    });
  });

  it('says on the organization that its audit logs can be read', async () => {
    const org = await t.factories.organization();
    const res = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
    expectConforms(res, 'getOrganizationById');
    expect(res.body.auditLogs).toBe(true);
  });

  describe('listOrganizationAuditEventActions', () => {
    it('lists every action with its label', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(`/v1/orgs/${org.id}/audit-event-actions`).expect(200);
      expectConforms(res, 'listOrganizationAuditEventActions', GITBOOK_0201);
      expect(res.body.items).toEqual(
        expect.arrayContaining([
          { object: 'audit-event-action', id: 'space.created', label: 'Created space' },
          {
            object: 'audit-event-action',
            id: 'organization.settings.updated',
            label: 'Updated organization settings',
          },
          {
            object: 'audit-event-action',
            id: 'site.redirect.created',
            label: 'Created site redirect',
          },
        ]),
      );
    });
  });

  describe('access (the three operations)', () => {
    const paths = async (org: TestOrganization) => {
      const [event] = (await list(org)).items;
      return [
        ['listOrganizationAuditEvents', events(org)],
        ['getOrganizationAuditEvent', `${events(org)}/${event.id}`],
        ['listOrganizationAuditEventActions', `/v1/orgs/${org.id}/audit-event-actions`],
      ] as const;
    };

    it('answers 403 to a member below admin', async () => {
      const org = await t.factories.organization();
      const creator = await t.factories.asMember(org, 'create');
      for (const [operationId, path] of await paths(org)) {
        const res = await creator.get(path).expect(403);
        expectConforms(res, operationId, GITBOOK_0201);
        expect(res.body).toEqual({ error: { code: 403, message: expect.any(String) } });
      }
    });

    it('answers 404 to the admin of another organization', async () => {
      const org = await t.factories.organization();
      const stranger = (await t.factories.organization()).owner.client;
      for (const [operationId, path] of await paths(org)) {
        const res = await stranger.get(path).expect(404);
        expectConforms(res, operationId, GITBOOK_0201);
        expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      }
    });

    it('admits another admin of the organization', async () => {
      const org = await t.factories.organization();
      const admin = await t.factories.asMember(org, 'admin');
      for (const [operationId, path] of await paths(org)) {
        const res = await admin.get(path).expect(200);
        expectConforms(res, operationId, GITBOOK_0201);
      }
    });
  });

  // Last: it deletes every event older than its retention, whatever test made it.
  describe('retention', () => {
    /** Sends a job on `queue` and waits for it to complete. */
    async function runJob(queue: string): Promise<void> {
      const jobs = t.bindery.app.get(JobsService);
      const id = await jobs.send(queue, {}, { retryLimit: 0 });
      const deadline = Date.now() + 20_000;
      for (;;) {
        const state = await jobs.state(queue, id);
        if (state === 'completed') return;
        if (state === 'failed') throw new Error(`the ${queue} job failed`);
        if (Date.now() > deadline) throw new Error(`the ${queue} job is still ${state}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('the daily job deletes the events older than AUDIT_RETENTION_DAYS (365), keeps the others', async () => {
      const org = await t.factories.organization();
      t.clock.set(new Date(Date.now() + 2 * 365 * 86_400_000));
      const old = await t.factories.space(org, { title: 'Old' });
      t.clock.advance(300 * 86_400_000);
      const recent = await t.factories.space(org, { title: 'Recent' });
      t.clock.advance(66 * 86_400_000);

      await runJob(PURGE_AUDIT_EVENTS_QUEUE);
      const left = await list(org, '?action=space.created');
      expect(left.items.map((event) => event.target.id)).toEqual([recent.id]);
      expect(await t.dataSource.getRepository(AuditEvent).countBy({ targetId: old.id })).toBe(0);
      // The organization's creation, at the real time, went too.
      expect((await list(org)).count).toBe(1);
    });
  });
});
