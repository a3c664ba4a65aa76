import { OutboxEvent } from '../src/platform/events/outbox-event.entity';
import { createTestApp, TestApp } from './helpers/app';
import { expectMatchesSchema } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * The events each change records in the outbox, in the transaction of the change (webhooks
 * deliver them): their type, actor, the resource as an admin sees it, and GitBook's own fields
 * for the events GitBook has (`space_content_updated`, `space_visibility_updated`, …). A change
 * that fails records nothing.
 */
describe('events of changes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The organization's events, oldest first, from `after` on. */
  async function eventsOf(org: TestOrganization, after = '0'): Promise<OutboxEvent[]> {
    return t.dataSource
      .getRepository(OutboxEvent)
      .createQueryBuilder('e')
      .where('e.organization_id = :id AND e.sequence > :after', { id: org.id, after })
      .orderBy('e.sequence')
      .getMany();
  }
  const lastSequence = async (org: TestOrganization) =>
    (await eventsOf(org)).at(-1)?.sequence ?? '0';
  const types = (events: OutboxEvent[]) => events.map((event) => event.type);

  describe('spaces', () => {
    it('records created, updated, visibility updated, deleted and restored', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org, { title: 'Guide' });
      await org.owner.client
        .patch(`/v1/spaces/${space.id}`, { title: 'Handbook', visibility: 'public' })
        .expect(200);
      await org.owner.client.delete(`/v1/spaces/${space.id}`).expect(204);
      await org.owner.client.delete(`/v1/spaces/${space.id}`).expect(204);
      await org.owner.client.post(`/v1/spaces/${space.id}/restore`).expect(200);

      const events = await eventsOf(org);
      expect(types(events)).toEqual([
        'space_created',
        'space_updated',
        'space_visibility_updated',
        'space_deleted',
        'space_restored',
      ]);
      const [created, updated, visibility] = events;
      expect(created.payload).toEqual({
        eventId: created.id,
        type: 'space_created',
        occurredAt: expect.any(String),
        organizationId: org.id,
        actor: { kind: 'user', id: org.owner.id },
        spaceId: space.id,
        space: expect.objectContaining({ object: 'space', id: space.id, title: 'Guide' }),
      });
      expect(created.resourceKey).toBe(`space:${space.id}`);
      expect(created.spaceId).toBe(space.id);
      expectMatchesSchema(created.payload.space, 'Space');
      expect(updated.payload).toMatchObject({
        changed: ['title', 'visibility'],
        space: { title: 'Handbook', visibility: 'public' },
      });
      expect(visibility.payload).toMatchObject({
        type: 'space_visibility_updated',
        spaceId: space.id,
        previousVisibility: 'private',
        visibility: 'public',
      });
      expectMatchesSchema(
        { ...visibility.payload, installationId: 'x' },
        'SpaceVisibilityUpdatedEvent',
      );
      expect(events[3].payload.space).toMatchObject({ deletedAt: expect.any(String) });
    });

    it('records nothing for a change that fails or changes nothing', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const before = await lastSequence(org);
      await org.owner.client.patch(`/v1/spaces/${space.id}`, { visibility: 'nope' }).expect(400);
      await org.owner.client.patch(`/v1/spaces/${space.id}`, {}).expect(200);
      const reader = await t.factories.asMember(org, 'read');
      await reader.patch(`/v1/spaces/${space.id}`, { title: 'No' }).expect(403);
      expect(await eventsOf(org, before)).toEqual([]);
    });
  });

  describe('content', () => {
    it('records space_content_updated with the revision, its author and the pages changed', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const before = await lastSequence(org);
      await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Install', '# Install\n\nRun it.')],
        merge: true,
      });
      const content = await org.owner.client.get(`/v1/spaces/${space.id}/content`).expect(200);
      const events = (await eventsOf(org, before)).filter(
        (event) => event.type === 'space_content_updated',
      );
      expect(events).toHaveLength(1);
      const page = (content.body.pages as { id: string; title: string }[]).find(
        (candidate) => candidate.title === 'Install',
      );
      expect(events[0].payload).toMatchObject({
        spaceId: space.id,
        revisionId: content.body.id,
        actor: { kind: 'user', id: org.owner.id },
        updatedBy: [{ object: 'user', id: org.owner.id }],
        changes: {
          pages: [{ type: 'page_created', id: page?.id, title: 'Install', path: 'install' }],
          files: [],
        },
      });
      expectMatchesSchema(
        { ...events[0].payload, installationId: 'x' },
        'SpaceContentUpdatedEvent',
      );
    });
  });

  describe('change requests', () => {
    it('records opened, updated, review submitted, merged, and closed', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const before = await lastSequence(org);
      const cr = await t.factories.changeRequest(org, space.id, {
        subject: 'Fix',
        changes: [insertPage('Fix', 'Fixed.')],
      });
      const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
      await org.owner.client.patch(path, { subject: 'Fix typo' }).expect(200);
      const reviewer = await t.factories.member(org, 'review');
      await reviewer.client.post(`${path}/reviews`, { status: 'approved' }).expect(201);
      await org.owner.client.post(`${path}/merge`, {}).expect(200);
      const other = await t.factories.changeRequest(org, space.id, { subject: 'Later' });
      await org.owner.client
        .patch(`/v1/spaces/${space.id}/change-requests/${other.id}`, { status: 'archived' })
        .expect(200);

      const events = (await eventsOf(org, before)).filter((event) =>
        event.type.startsWith('change_request'),
      );
      expect(types(events)).toEqual([
        'change_request_opened',
        'change_request_updated',
        'change_request_review_submitted',
        'change_request_merged',
        'change_request_opened',
        'change_request_closed',
      ]);
      expect(events[0].payload).toMatchObject({
        actor: { kind: 'user', id: org.owner.id },
        spaceId: space.id,
        changeRequestId: cr.id,
        changeRequest: { object: 'change-request', id: cr.id, status: 'open', subject: 'Fix' },
      });
      expect(events[0].resourceKey).toBe(`changeRequest:${cr.id}`);
      expect(events[1].payload).toMatchObject({
        changed: ['subject'],
        changeRequest: { subject: 'Fix typo' },
      });
      expect(events[2].payload).toMatchObject({
        actor: { kind: 'user', id: reviewer.id },
        review: { status: 'approved', reviewer: reviewer.id },
      });
      const merged = await org.owner.client.get(path).expect(200);
      expect(events[3].payload).toMatchObject({
        revisionId: merged.body.revisionMerged,
        changeRequest: { status: 'merged' },
      });
      expect(events[5].payload).toMatchObject({
        changed: ['status'],
        changeRequest: { id: other.id, status: 'archived' },
      });
      // The merge moved the primary content: its event comes with the merge's.
      const content = (await eventsOf(org, before)).filter(
        (event) => event.type === 'space_content_updated',
      );
      expect(content.map((event) => event.payload.revisionId)).toEqual([
        merged.body.revisionMerged,
      ]);
    });
  });

  describe('comments', () => {
    it('records comments and replies created, updated and resolved, in one resource', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const before = await lastSequence(org);
      const comment = await t.factories.comment(org, space.id, { body: { markdown: 'Typo?' } });
      const path = `/v1/spaces/${space.id}/comments/${comment.id}`;
      const reply = await org.owner.client
        .post(`${path}/replies`, { body: { markdown: 'Where?' } })
        .expect(201);
      await org.owner.client
        .put(`${path}/replies/${reply.body.id as string}`, { body: { markdown: 'Where? Line 2' } })
        .expect(200);
      await org.owner.client.put(path, { body: { markdown: 'Typo.' } }).expect(200);
      // Reactions are no event; resolving is.
      await org.owner.client.put(path, { addedReactions: ['👍'] }).expect(200);
      await org.owner.client.put(path, { resolved: true }).expect(200);
      await org.owner.client.put(path, { resolved: true }).expect(200);

      const events = await eventsOf(org, before);
      expect(types(events)).toEqual([
        'comment_created',
        'comment_reply_created',
        'comment_reply_updated',
        'comment_updated',
        'comment_resolved',
      ]);
      expect(new Set(events.map((event) => event.resourceKey))).toEqual(
        new Set([`comment:${comment.id}`]),
      );
      expect(events[0].payload).toMatchObject({
        spaceId: space.id,
        commentId: comment.id,
        comment: { object: 'comment', id: comment.id, body: { markdown: 'Typo?' } },
      });
      expect(events[2].payload).toMatchObject({
        commentReplyId: reply.body.id,
        reply: { object: 'comment-reply', body: { markdown: 'Where? Line 2' } },
      });
      expect(events[4].payload).toMatchObject({ comment: { status: 'resolved' } });
    });

    it('names the change request of a comment on one', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const cr = await t.factories.changeRequest(org, space.id, { subject: 'Draft' });
      const before = await lastSequence(org);
      await t.factories.comment(org, space.id, {
        changeRequest: String(cr.number),
        body: { markdown: 'Looks good' },
      });
      const [event] = await eventsOf(org, before);
      expect(event.payload).toMatchObject({ type: 'comment_created', changeRequestId: cr.id });
    });
  });

  describe('sites, members, OpenAPI specifications, page feedback', () => {
    it('records site published and unpublished, once per change', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const before = await lastSequence(org);
      const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
      await org.owner.client.post(`${sitePath}/publish`).expect(200);
      await org.owner.client.post(`${sitePath}/publish`).expect(200);
      await org.owner.client.post(`${sitePath}/unpublish`).expect(200);
      const events = await eventsOf(org, before);
      expect(types(events)).toEqual(['site_published', 'site_unpublished']);
      expect(events[0].siteId).toBe(site.id);
      expect(events[0].payload).toMatchObject({
        siteId: site.id,
        actor: { kind: 'user', id: org.owner.id },
        site: { object: 'site', id: site.id, published: true },
      });
      expect(events[1].payload).toMatchObject({ site: { published: false } });
    });

    it('records members added, their role changed, and removed', async () => {
      const org = await t.factories.organization();
      const user = await t.factories.user();
      const before = await lastSequence(org);
      await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, { emails: [user.email], role: 'read' })
        .expect(200);
      await org.owner.client
        .patch(`/v1/orgs/${org.id}/members/${user.id}`, { role: 'edit' })
        .expect(200);
      await org.owner.client.delete(`/v1/orgs/${org.id}/members/${user.id}`).expect(204);
      const events = await eventsOf(org, before);
      expect(types(events)).toEqual(['member_added', 'member_role_updated', 'member_removed']);
      expect(events[0].payload).toMatchObject({
        userId: user.id,
        member: { object: 'member', role: 'read', user: { id: user.id } },
      });
      expect(events[1].payload).toMatchObject({ previousRole: 'read', role: 'edit' });
      expect(events[2].payload).toMatchObject({ member: { role: 'edit', user: { id: user.id } } });
    });

    it('records a new version of an OpenAPI specification once processed', async () => {
      const org = await t.factories.organization();
      const before = await lastSequence(org);
      const spec = await t.factories.openAPISpec(org, {
        text: JSON.stringify({
          openapi: '3.0.3',
          info: { title: 'Pets', version: '1' },
          paths: {},
        }),
      });
      const deadline = Date.now() + 20_000;
      let events: OutboxEvent[] = [];
      while (events.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        events = await eventsOf(org, before);
      }
      expect(types(events)).toEqual(['openapi_spec_version_created']);
      expect(events[0].payload).toMatchObject({
        actor: { kind: 'system' },
        specSlug: spec.slug,
        version: { object: 'openapi-spec-version' },
        spec: { object: 'openapi-spec', slug: spec.slug },
      });
    });

    it('records page feedback, without what Bindery does not keep', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const siteSpace = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guide' });
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`).expect(200);
      const before = await lastSequence(org);
      const location = {
        url: 'https://docs.example.com/page-a',
        displayContext: 'site',
        siteSection: null,
        siteSpace: siteSpace.id,
        siteShareKey: null,
        space: siteSpace.space.id,
        revision: null,
        page: 'page-a',
      };
      const session = {
        visitorId: 'v1',
        sessionId: 's1',
        ip: '203.0.113.9',
        userAgent: 'Browser',
        language: 'en',
        referrer: null,
        cookies: {},
        visitorAuthClaims: {},
      };
      await t.anonymous
        .post(`/v1/orgs/${org.id}/sites/${site.id}/insights/events`, {
          events: [
            { type: 'page_view', session, location },
            {
              type: 'page_post_feedback',
              session,
              location,
              feedback: { rating: 'good', comment: 'Private words' },
            },
          ],
        })
        .expect(204);
      const events = await eventsOf(org, before);
      expect(types(events)).toEqual(['page_feedback']);
      expect(events[0].payload).toMatchObject({
        siteId: site.id,
        siteSpaceId: siteSpace.id,
        pageId: 'page-a',
        feedback: { rating: 'good' },
      });
      expect(JSON.stringify(events[0].payload)).not.toContain('Private words');
    });
  });
});
