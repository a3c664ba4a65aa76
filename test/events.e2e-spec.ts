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
});
