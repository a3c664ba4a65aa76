import { ContentGrant } from '../src/collections/entities/content-grant.entity';
import { newId } from '../src/platform/ids/ids';
import { JobsService } from '../src/platform/jobs/jobs.service';
import type { Role } from '../src/platform/policy/roles';
import { PURGE_SPACES_QUEUE } from '../src/spaces/space-trash';
import { createTestApp, TestApp } from './helpers/app';
import type { SpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { TestOrganization } from './helpers/factories';

const DAY_MS = 24 * 60 * 60 * 1000;
const spacesPath = (org: TestOrganization) => `/v1/orgs/${org.id}/spaces`;
const spacePath = (id: string) => `/v1/spaces/${id}`;
const collectionPath = (id: string) => `/v1/collections/${id}`;
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('the life of a space', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function grant(
    organizationId: string,
    resource: { type: 'space' | 'collection'; id: string },
    userId: string,
    role: Role,
  ): Promise<void> {
    await t.dataSource.getRepository(ContentGrant).insert({
      id: newId(),
      organizationId,
      resourceType: resource.type,
      resourceId: resource.id,
      userId,
      teamId: null,
      role,
      createdAt: new Date(),
    });
  }

  /** The children of `parentId` (the root when null), ordered as the content tree orders them. */
  async function order(organizationId: string, parentId: string | null): Promise<string[]> {
    const rows: { id: string }[] = await t.dataSource.query(
      `SELECT 'collection' AS kind, id, position FROM collections
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
       UNION ALL
       SELECT 'space', id, position FROM spaces
        WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2 AND deleted_at IS NULL
       ORDER BY position, kind, id`,
      [organizationId, parentId],
    );
    return rows.map((row) => row.id);
  }

  async function listed(client: Client, path: string): Promise<string[]> {
    const res = await client.get(`${path}?limit=1000`).expect(200);
    return ids(res.body as { items: { id: string }[] });
  }

  async function grantsOn(spaceId: string): Promise<unknown[]> {
    return t.dataSource.query(
      `SELECT id FROM content_grants WHERE resource_type = 'space' AND resource_id = $1`,
      [spaceId],
    );
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  describe('DELETE /v1/spaces/{spaceId} (deleteSpaceById)', () => {
    it('moves it to the trash: readable with deletedAt, gone from the lists, closed to changes', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const col = await t.factories.later.collection(org);
      const doomed = await t.factories.later.space(org, { parent: col.id });
      const kept = await t.factories.later.space(org, { parent: col.id });
      const client = org.owner.client;

      t.clock.set('2031-03-04T05:06:07.000Z');
      const res = await client.delete(spacePath(doomed.id)).expect(204);
      expectConforms(res, 'deleteSpaceById');

      const read = await client.get(spacePath(doomed.id)).expect(200);
      expectConforms(read, 'getSpaceById');
      expect(read.body.deletedAt).toBe('2031-03-04T05:06:07.000Z');
      expect(await listed(client, spacesPath(org))).toEqual([kept.id]);
      expect(await listed(client, `${collectionPath(col.id)}/spaces`)).toEqual([kept.id]);
      expect(await order(org.id, col.id)).toEqual([kept.id]);

      expectError(await client.patch(spacePath(doomed.id), { title: 'No' }), 404, 'Space');
      expectError(
        await client.post(`${spacePath(doomed.id)}/move`, { parent: null }),
        404,
        'Space',
      );
      expectError(await client.post(`${spacePath(doomed.id)}/duplicate`), 404, 'Space');
      expectError(
        await client.post(`${spacePath(doomed.id)}/transfer`, { organization: target.id }),
        404,
        'Space',
      );
      // Still in its place, merely trashed.
      const [row] = await t.dataSource.query(
        `SELECT organization_id, parent_id FROM spaces WHERE id = $1`,
        [doomed.id],
      );
      expect(row).toEqual({ organization_id: org.id, parent_id: col.id });
    });

    it('answers 204 for an unknown id, another organization’s space and a space already in the trash', async () => {
      const org = await t.factories.organization();
      const live = await t.factories.later.space(org);
      const trashed = await t.factories.later.space(org);
      const client = org.owner.client;

      await client.delete(spacePath('nope')).expect(204);
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.delete(spacePath(live.id)).expect(204);
      expect((await client.get(spacePath(live.id)).expect(200)).body.deletedAt).toBeUndefined();

      await client.delete(spacePath(trashed.id)).expect(204);
      const first = (await client.get(spacePath(trashed.id))).body.deletedAt as string;
      t.clock.advance(DAY_MS);
      const again = await client.delete(spacePath(trashed.id)).expect(204);
      expectConforms(again, 'deleteSpaceById');
      // The retention period runs from the first deletion.
      expect((await client.get(spacePath(trashed.id))).body.deletedAt).toBe(first);
    });

    it('answers 403 to a member who sees it without admin, and lets a space admin grant delete', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.later.space(org);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.delete(spacePath(target.id)), 403, 'admin');
      const editor = await t.factories.member(org, null);
      await grant(org.id, { type: 'space', id: target.id }, editor.id, 'edit');
      expectError(await editor.client.delete(spacePath(target.id)), 403, 'admin');
      expect((await reader.get(spacePath(target.id)).expect(200)).body.deletedAt).toBeUndefined();

      const spaceAdmin = await t.factories.member(org, 'read');
      await grant(org.id, { type: 'space', id: target.id }, spaceAdmin.id, 'admin');
      await spaceAdmin.client.delete(spacePath(target.id)).expect(204);
      expect((await reader.get(spacePath(target.id)).expect(200)).body.deletedAt).toBeDefined();
    });
  });

  describe('POST /v1/spaces/{spaceId}/restore (restoreSpace)', () => {
    it('takes it out of the trash, at the end of its collection, back in the lists', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const first = await t.factories.later.space(org, { parent: col.id });
      const second = await t.factories.later.space(org, { parent: col.id });
      const client = org.owner.client;
      await client.delete(spacePath(first.id)).expect(204);
      const later = await t.factories.later.space(org, { parent: col.id });

      const res = await client.post(`${spacePath(first.id)}/restore`).expect(200);
      expectConforms(res, 'restoreSpace');
      expect(res.body.id).toBe(first.id);
      expect(res.body.deletedAt).toBeUndefined();
      expect(res.body.parent).toBe(col.id);
      expect((await client.get(spacePath(first.id))).body.deletedAt).toBeUndefined();
      expect(await listed(client, spacesPath(org))).toEqual([first.id, second.id, later.id]);
      expect(await listed(client, `${collectionPath(col.id)}/spaces`)).toEqual([
        first.id,
        second.id,
        later.id,
      ]);
      expect(await order(org.id, col.id)).toEqual([second.id, later.id, first.id]);
      // Live again: it can be changed.
      await client.patch(spacePath(first.id), { title: 'Back' }).expect(200);
    });

    it('brings a space whose collection was deleted meanwhile back at the root, private', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const rootSpace = await t.factories.later.space(org);
      const inside = await t.factories.later.space(org, { parent: col.id });
      const client = org.owner.client;
      await client.patch(spacePath(inside.id), { visibility: 'in-collection' }).expect(200);
      await client.delete(spacePath(inside.id)).expect(204);
      await client.delete(collectionPath(col.id)).expect(204);

      const res = await client.post(`${spacePath(inside.id)}/restore`).expect(200);
      expectConforms(res, 'restoreSpace');
      expect(res.body.parent).toBeUndefined();
      expect(res.body.visibility).toBe('private');
      expect(await order(org.id, null)).toEqual([rootSpace.id, inside.id]);
      expect(await listed(client, spacesPath(org))).toEqual([rootSpace.id, inside.id]);
    });

    it('answers a live space as it is', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.space(org);
      const b = await t.factories.later.space(org);
      const before = (await org.owner.client.get(spacePath(a.id))).body as SpaceBody;
      t.clock.advance(60_000);
      const res = await org.owner.client.post(`${spacePath(a.id)}/restore`).expect(200);
      expectConforms(res, 'restoreSpace');
      expect(res.body).toEqual(before);
      expect(await order(org.id, null)).toEqual([a.id, b.id]);
    });

    it('answers 403 without admin, 404 for an unknown id or another organization', async () => {
      const org = await t.factories.organization();
      const trashed = await t.factories.later.space(org);
      await org.owner.client.delete(spacePath(trashed.id)).expect(204);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.post(`${spacePath(trashed.id)}/restore`), 403, 'admin');
      expect((await reader.get(spacePath(trashed.id)).expect(200)).body.deletedAt).toBeDefined();

      expectError(
        await org.owner.client.post(`${spacePath('nope')}/restore`),
        404,
        'Space not found',
      );
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.post(`${spacePath(trashed.id)}/restore`), 404, 'Space not found');
      expect(
        (await org.owner.client.get(spacePath(trashed.id)).expect(200)).body.deletedAt,
      ).toBeDefined();
    });

    it('says "Space not found" on the routes that also reach the trash (get, restore)', async () => {
      const org = await t.factories.organization();
      const trashed = await t.factories.later.space(org);
      await org.owner.client.delete(spacePath(trashed.id)).expect(204);
      const stranger = (await t.factories.organization()).owner.client;
      // The message is for a person: the name of the policy's resource type must not leak.
      expectError(await stranger.get(spacePath(trashed.id)), 404, 'Space not found.');
      expectError(await stranger.post(`${spacePath(trashed.id)}/restore`), 404, 'Space not found.');
      expectError(await org.owner.client.get(spacePath('nope')), 404, 'Space not found.');
    });
  });

  describe('the purge of the trash (PURGE_SPACES_QUEUE)', () => {
    async function runPurge(): Promise<void> {
      const jobs = t.bindery.app.get(JobsService);
      const id = await jobs.send(PURGE_SPACES_QUEUE, {}, { retryLimit: 0 });
      const deadline = Date.now() + 20_000;
      for (;;) {
        const state = await jobs.state(PURGE_SPACES_QUEUE, id);
        if (state === 'completed') return;
        if (state === 'failed') throw new Error('the purge job failed');
        if (Date.now() > deadline) throw new Error(`the purge job is still ${state}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it('removes the spaces deleted more than 7 days ago with their revisions and grants, and only those', async () => {
      const org = await t.factories.organization();
      const old = await t.factories.later.space(org, { title: 'Old' });
      const recent = await t.factories.later.space(org, { title: 'Recent' });
      const edge = await t.factories.later.space(org, { title: 'Edge' });
      const live = await t.factories.later.space(org, { title: 'Live' });
      const client = org.owner.client;
      const member = await t.factories.member(org, 'read');
      await grant(org.id, { type: 'space', id: old.id }, member.id, 'edit');
      await grant(org.id, { type: 'space', id: recent.id }, member.id, 'edit');
      // The copy shares the old space's tree: the purge must leave the content objects alone.
      const copy = (await client.post(`${spacePath(old.id)}/duplicate`).expect(200))
        .body as SpaceBody;

      await client.delete(spacePath(old.id)).expect(204);
      t.clock.advance(2 * 60_000);
      await client.delete(spacePath(edge.id)).expect(204);
      t.clock.advance(DAY_MS - 2 * 60_000);
      await client.delete(spacePath(recent.id)).expect(204);
      t.clock.advance(6 * DAY_MS + 60_000);
      // old: deleted 7 days and a minute ago; edge: a minute short of 7 days; recent: 6 days and a minute.
      await runPurge();

      expectError(await client.get(spacePath(old.id)), 404, 'Space not found');
      expectError(await client.post(`${spacePath(old.id)}/restore`), 404, 'Space not found');
      expect(await t.dataSource.query(`SELECT id FROM spaces WHERE id = $1`, [old.id])).toEqual([]);
      expect(
        await t.dataSource.query(`SELECT id FROM revisions WHERE space_id = $1`, [old.id]),
      ).toEqual([]);
      expect(await grantsOn(old.id)).toEqual([]);

      expect((await client.get(spacePath(edge.id)).expect(200)).body.deletedAt).toBeDefined();
      expect(await grantsOn(recent.id)).toHaveLength(1);
      const restored = await client.post(`${spacePath(recent.id)}/restore`).expect(200);
      expect(restored.body.deletedAt).toBeUndefined();
      expect(
        await t.dataSource.query(`SELECT id FROM revisions WHERE space_id = $1`, [recent.id]),
      ).toHaveLength(1);
      expect(
        (await member.client.get(spacePath(recent.id)).expect(200)).body.permissions.edit,
      ).toBe(true);

      const [copyRevision] = await t.dataSource.query(
        `SELECT r.tree, o.kind FROM revisions r JOIN content_objects o ON o.hash = r.tree
          WHERE r.id = $1`,
        [copy.revision],
      );
      expect(copyRevision).toMatchObject({ kind: 'tree' });
      expect((await listed(client, spacesPath(org))).sort()).toEqual(
        [recent.id, live.id, copy.id].sort(),
      );
      expect(await t.dataSource.query(`SELECT id FROM spaces WHERE id = $1`, [edge.id])).toEqual([
        { id: edge.id },
      ]);
    });
  });

  describe('POST /v1/spaces/{spaceId}/duplicate (duplicateSpace)', () => {
    it('copies it right after the source: same settings and content, private, no grants', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const source = await t.factories.later.space(org, {
        parent: col.id,
        title: 'Handbook',
        emoji: '1f4d8',
      });
      const next = await t.factories.later.space(org, { parent: col.id });
      const client = org.owner.client;
      await client
        .patch(spacePath(source.id), {
          visibility: 'public',
          defaultLevel: 'edit',
          language: 'fr',
          editMode: 'locked',
          mergeRules: { type: 'none' },
        })
        .expect(200);
      const member = await t.factories.member(org, 'read');
      await grant(org.id, { type: 'space', id: source.id }, member.id, 'admin');

      const res = await client.post(`${spacePath(source.id)}/duplicate`).expect(200);
      // GitBook answers 201; the seed says 200 with the same body.
      expectConforms({ status: 201, body: res.body }, 'duplicateSpace');
      const copy = res.body as SpaceBody;
      expect(res.headers.location).toBe(copy.urls.location);
      expect(copy.urls.location).toContain(`/v1/spaces/${copy.id}`);
      expect(copy.id).not.toBe(source.id);
      expect(copy).toMatchObject({
        title: 'Handbook (copy)',
        emoji: '1f4d8',
        visibility: 'private',
        defaultLevel: 'inherit',
        language: 'fr',
        editMode: 'locked',
        mergeRules: { type: 'none' },
        organization: org.id,
        parent: col.id,
      });
      expect(copy.deletedAt).toBeUndefined();

      const sourceNow = (await client.get(spacePath(source.id))).body as SpaceBody;
      expect(copy.revision).not.toBe(sourceNow.revision);
      const revisions: { id: string; space_id: string; tree: string }[] = await t.dataSource.query(
        `SELECT id, space_id, tree FROM revisions WHERE id = ANY($1::varchar[]) ORDER BY id`,
        [[copy.revision, sourceNow.revision]],
      );
      expect(revisions).toHaveLength(2);
      const byId = new Map(revisions.map((row) => [row.id, row]));
      expect(byId.get(copy.revision)?.space_id).toBe(copy.id);
      expect(byId.get(copy.revision)?.tree).toBe(byId.get(sourceNow.revision)?.tree);

      expect(await grantsOn(copy.id)).toEqual([]);
      expect(await grantsOn(source.id)).toHaveLength(1);
      expect((await member.client.get(spacePath(copy.id)).expect(200)).body.permissions.admin).toBe(
        false,
      );
      expect(await order(org.id, col.id)).toEqual([source.id, copy.id, next.id]);
      await client.get(spacePath(copy.id)).expect(200);
    });

    it('cuts the title so that "(copy)" fits in 50 characters', async () => {
      const org = await t.factories.organization();
      const source = await t.factories.later.space(org, {
        title: `${'a'.repeat(42)} ${'b'.repeat(7)}`,
      });
      const res = await org.owner.client.post(`${spacePath(source.id)}/duplicate`).expect(200);
      expect(res.body.title).toBe(`${'a'.repeat(42)} (copy)`);
      const long = await t.factories.later.space(org, { title: 'z'.repeat(50) });
      const copy = await org.owner.client.post(`${spacePath(long.id)}/duplicate`).expect(200);
      expect(copy.body.title).toBe(`${'z'.repeat(43)} (copy)`);
      expect(copy.body.title).toHaveLength(50);
    });

    it('answers 403 to a member without create where the copy goes, 404 for a deleted, unknown or foreign space', async () => {
      const org = await t.factories.organization();
      const source = await t.factories.later.space(org);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.post(`${spacePath(source.id)}/duplicate`), 403, 'create');
      expect(await order(org.id, null)).toEqual([source.id]);

      const client = org.owner.client;
      expectError(await client.post(`${spacePath('nope')}/duplicate`), 404, 'Space not found');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.post(`${spacePath(source.id)}/duplicate`), 404, 'Space not found');
      await client.delete(spacePath(source.id)).expect(204);
      expectError(await client.post(`${spacePath(source.id)}/duplicate`), 404, 'Space not found');
    });
  });

  describe('POST /v1/spaces/{spaceId}/move (moveSpace)', () => {
    const move = (client: Client, id: string, body: object) =>
      client.post(`${spacePath(id)}/move`, body);

    it('moves it into a collection and back to the root, at the end', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const inside = await t.factories.later.space(org, { parent: col.id });
      const target = await t.factories.later.space(org);
      const last = await t.factories.later.space(org);
      const client = org.owner.client;

      const res = await move(client, target.id, { parent: col.id }).expect(200);
      expectConforms(res, 'moveSpace');
      expect(res.body.parent).toBe(col.id);
      expect(await order(org.id, col.id)).toEqual([inside.id, target.id]);
      expect(await order(org.id, null)).toEqual([col.id, last.id]);
      expect((await listed(client, `${collectionPath(col.id)}/spaces`)).sort()).toEqual(
        [inside.id, target.id].sort(),
      );

      const back = await move(client, target.id, { parent: null }).expect(200);
      expectConforms(back, 'moveSpace');
      expect(back.body.parent).toBeUndefined();
      expect(await order(org.id, null)).toEqual([col.id, last.id, target.id]);
      expect(await listed(client, `${collectionPath(col.id)}/spaces`)).toEqual([inside.id]);
    });

    it('places it before or after a space or a collection sibling', async () => {
      const org = await t.factories.organization();
      const colA = await t.factories.later.collection(org);
      const s1 = await t.factories.later.space(org);
      const s2 = await t.factories.later.space(org);
      const colB = await t.factories.later.collection(org);
      const client = org.owner.client;
      expect(await order(org.id, null)).toEqual([colA.id, s1.id, s2.id, colB.id]);

      await move(client, s2.id, {
        position: { before: { type: 'collection', collection: colA.id } },
      }).expect(200);
      expect(await order(org.id, null)).toEqual([s2.id, colA.id, s1.id, colB.id]);
      await move(client, s2.id, {
        position: { after: { type: 'collection', collection: colB.id } },
      }).expect(200);
      expect(await order(org.id, null)).toEqual([colA.id, s1.id, colB.id, s2.id]);
      await move(client, s1.id, { position: { after: { type: 'space', space: s2.id } } }).expect(
        200,
      );
      expect(await order(org.id, null)).toEqual([colA.id, colB.id, s2.id, s1.id]);
      await move(client, s1.id, {
        position: {
          after: { type: 'collection', collection: colA.id },
          before: { type: 'collection', collection: colB.id },
        },
      }).expect(200);
      expect(await order(org.id, null)).toEqual([colA.id, s1.id, colB.id, s2.id]);

      // Into a collection next to a space already there.
      const inner = await t.factories.later.space(org, { parent: colA.id });
      const res = await move(client, s2.id, {
        parent: colA.id,
        position: { before: { type: 'space', space: inner.id } },
      }).expect(200);
      expect(res.body.parent).toBe(colA.id);
      expect(await order(org.id, colA.id)).toEqual([s2.id, inner.id]);
      expect(await order(org.id, null)).toEqual([colA.id, s1.id, colB.id]);
    });

    it('answers 400 for an empty body or an anchor not in the target, 404 for an unknown parent', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const inside = await t.factories.later.space(org, { parent: col.id });
      const a = await t.factories.later.space(org);
      const b = await t.factories.later.space(org);
      const c = await t.factories.later.space(org);
      const trashed = await t.factories.later.space(org);
      const client = org.owner.client;
      await client.delete(spacePath(trashed.id)).expect(204);

      const empty = await move(client, a.id, {});
      expectError(empty, 400, 'parent');
      expectConforms(empty, 'moveSpace');
      const elsewhere = await move(client, a.id, {
        position: { before: { type: 'space', space: inside.id } },
      });
      expectError(elsewhere, 400, `space ${inside.id} is not in the target`);
      expectConforms(elsewhere, 'moveSpace');
      expectError(
        await move(client, a.id, {
          parent: col.id,
          position: { after: { type: 'collection', collection: col.id } },
        }),
        400,
        `collection ${col.id} is not in the target collection`,
      );
      expectError(
        await move(client, a.id, { position: { after: { type: 'space', space: trashed.id } } }),
        400,
        'is not in the target',
      );
      expectError(
        await move(client, a.id, {
          position: {
            after: { type: 'space', space: b.id },
            before: { type: 'collection', collection: col.id },
          },
        }),
        400,
        'position',
      );
      expectError(await move(client, a.id, { parent: 42 }), 400, 'parent');

      // The seed: an unknown target collection is "invalid position or collection" (400), and
      // one of another organization gets the same answer.
      const unknown = await move(client, a.id, { parent: 'nope' });
      expectError(unknown, 400, 'parent: no collection nope in this organization.');
      expectConforms(unknown, 'moveSpace');
      const foreign = await t.factories.later.collection(await t.factories.organization());
      expectError(
        await move(client, a.id, { parent: foreign.id }),
        400,
        `parent: no collection ${foreign.id} in this organization.`,
      );
      expect(await order(org.id, null)).toEqual([col.id, a.id, b.id, c.id]);
    });

    it('answers 409 when the move changes nothing', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.space(org);
      const b = await t.factories.later.space(org);
      const client = org.owner.client;
      const same = await move(client, b.id, { parent: null });
      expectError(same, 409, 'would not change');
      expectConforms(same, 'moveSpace');
      expectError(
        await move(client, a.id, { position: { before: { type: 'space', space: b.id } } }),
        409,
        'would not change',
      );
      expectError(
        await move(client, b.id, { position: { after: { type: 'space', space: a.id } } }),
        409,
        'would not change',
      );
      expect(await order(org.id, null)).toEqual([a.id, b.id]);
    });

    it('answers 403 without admin on the space or without create on the target, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const target = await t.factories.later.space(org);
      await t.factories.later.space(org);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await move(editor, target.id, { parent: col.id }), 403, 'admin');

      const spaceAdmin = await t.factories.member(org, 'read');
      await grant(org.id, { type: 'space', id: target.id }, spaceAdmin.id, 'admin');
      expectError(await move(spaceAdmin.client, target.id, { parent: col.id }), 403, 'create');
      expectError(
        await move(spaceAdmin.client, target.id, {
          position: { before: { type: 'collection', collection: col.id } },
        }),
        403,
        'create',
      );
      expect(await order(org.id, col.id)).toEqual([]);
      await grant(org.id, { type: 'collection', id: col.id }, spaceAdmin.id, 'create');
      const res = await move(spaceAdmin.client, target.id, { parent: col.id }).expect(200);
      expect(res.body.parent).toBe(col.id);

      const stranger = (await t.factories.organization()).owner.client;
      expectError(await move(stranger, target.id, { parent: null }), 404, 'Space not found');
      expectError(await move(org.owner.client, 'nope', { parent: null }), 404, 'Space not found');
    });

    it('turns in-collection visibility into private at the root, keeps it between collections', async () => {
      const org = await t.factories.organization();
      const colA = await t.factories.later.collection(org);
      const colB = await t.factories.later.collection(org);
      const target = await t.factories.later.space(org, { parent: colA.id });
      const client = org.owner.client;
      await client.patch(spacePath(target.id), { visibility: 'in-collection' }).expect(200);

      const between = await move(client, target.id, { parent: colB.id }).expect(200);
      expect(between.body.visibility).toBe('in-collection');
      const root = await move(client, target.id, { parent: null }).expect(200);
      expectConforms(root, 'moveSpace');
      expect(root.body.visibility).toBe('private');
      expect((await client.get(spacePath(target.id))).body.visibility).toBe('private');
    });

    it('keeps the order right when repeated inserts between two neighbours force a renumbering', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.space(org);
      const b = await t.factories.later.space(org);
      const client = org.owner.client;
      const inserted: string[] = [];
      for (let i = 0; i < 14; i++) {
        const item =
          i % 3 === 2
            ? await t.factories.later.collection(org)
            : await t.factories.later.space(org);
        const position = { after: { type: 'space', space: a.id } };
        if (i % 3 === 2) {
          await client.post(`${collectionPath(item.id)}/move`, { position }).expect(200);
        } else {
          await move(client, item.id, { position }).expect(200);
        }
        inserted.unshift(item.id);
        expect(await order(org.id, null)).toEqual([a.id, ...inserted, b.id]);
      }
      const positions: { position: string }[] = await t.dataSource.query(
        `SELECT position FROM spaces WHERE id = $1`,
        [b.id],
      );
      // 14 midpoints cannot fit in the initial gap of 1024: the siblings were renumbered.
      expect(Number(positions[0].position)).toBeGreaterThan(2048);
      const distinct: { n: string }[] = await t.dataSource.query(
        `SELECT COUNT(DISTINCT position) AS n FROM (
           SELECT position FROM spaces WHERE organization_id = $1 AND parent_id IS NULL
           UNION ALL SELECT position FROM collections WHERE organization_id = $1 AND parent_id IS NULL
         ) p`,
        [org.id],
      );
      expect(Number(distinct[0].n)).toBe(16);
    });
  });

  describe('POST /v1/spaces/{spaceId}/transfer (transferSpace)', () => {
    const transfer = (client: Client, id: string, body: object) =>
      client.post(`${spacePath(id)}/transfer`, body);

    it('moves it to the root of the other organization and drops its grants', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const col = await t.factories.later.collection(org);
      const moving = await t.factories.later.space(org, { parent: col.id });
      const staying = await t.factories.later.space(org, { parent: col.id });
      const already = await t.factories.later.space(target);
      const client = org.owner.client;
      await client.patch(spacePath(moving.id), { visibility: 'in-collection' }).expect(200);
      const reader = await t.factories.asMember(org, 'read');
      const guest = await t.factories.member(org, null);
      await grant(org.id, { type: 'space', id: moving.id }, guest.id, 'edit');
      await guest.client.get(spacePath(moving.id)).expect(200);

      const res = await transfer(client, moving.id, { organization: target.id }).expect(200);
      expectConforms(res, 'transferSpace');
      expect(res.body).toMatchObject({
        id: moving.id,
        organization: target.id,
        visibility: 'private',
      });
      expect(res.body.parent).toBeUndefined();
      expect(res.body.urls.app).toContain(`/o/${target.id}/s/${moving.id}`);

      expect(await order(target.id, null)).toEqual([already.id, moving.id]);
      expect(await order(org.id, col.id)).toEqual([staying.id]);
      expect((await listed(client, spacesPath(target))).sort()).toEqual(
        [already.id, moving.id].sort(),
      );
      expect(await listed(client, spacesPath(org))).toEqual([staying.id]);
      expect(await grantsOn(moving.id)).toEqual([]);
      expectError(await reader.get(spacePath(moving.id)), 404, 'Space not found');
      expectError(await guest.client.get(spacePath(moving.id)), 404, 'Space not found');
      const revisions = await t.dataSource.query(`SELECT id FROM revisions WHERE id = $1`, [
        res.body.revision,
      ]);
      expect(revisions).toHaveLength(1);
    });

    it('answers 409 for its own organization, 404 for an unknown one, 400 without one', async () => {
      const org = await t.factories.organization();
      const moving = await t.factories.later.space(org);
      const client = org.owner.client;
      const same = await transfer(client, moving.id, { organization: org.id });
      expectError(same, 409, 'already');
      expectConforms(same, 'transferSpace');
      const unknown = await transfer(client, moving.id, { organization: 'nope' });
      expectError(unknown, 404, 'Organization not found');
      expectConforms(unknown, 'transferSpace');
      const foreign = await t.factories.organization();
      expectError(
        await transfer(client, moving.id, { organization: foreign.id }),
        404,
        'Organization not found',
      );
      expectError(await transfer(client, moving.id, {}), 400, 'organization');
      expect((await client.get(spacePath(moving.id))).body.organization).toBe(org.id);
    });

    it('answers 403 without admin in the target or on the space, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const moving = await t.factories.later.space(org);
      const elsewhere = await t.factories.organization();
      await t.dataSource.query(
        `INSERT INTO organization_members (organization_id, user_id, role, sso, disabled, joined_at)
         VALUES ($1, $2, 'create', false, false, now())`,
        [elsewhere.id, org.owner.id],
      );
      expectError(
        await transfer(org.owner.client, moving.id, { organization: elsewhere.id }),
        403,
        'admin',
      );
      const reader = await t.factories.asMember(org, 'read');
      expectError(await transfer(reader, moving.id, { organization: elsewhere.id }), 403, 'admin');
      expectError(
        await transfer(elsewhere.owner.client, moving.id, { organization: elsewhere.id }),
        404,
        'Space not found',
      );
      expect((await org.owner.client.get(spacePath(moving.id))).body.organization).toBe(org.id);
    });

    it('answers 412 for a space kept in sync with Git, saying why', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const synced = await t.factories.later.space(org, { title: 'Synced' });
      await t.dataSource.query(`UPDATE spaces SET git_sync = $2::jsonb WHERE id = $1`, [
        synced.id,
        JSON.stringify({ installationProvider: 'github', repoName: 'acme/docs' }),
      ]);
      const res = await transfer(org.owner.client, synced.id, { organization: target.id });
      expectError(res, 412, 'Git');
      expect(res.body.error.message).toContain(synced.id);
      expectConforms(res, 'transferSpace');
      expect(await order(org.id, null)).toEqual([synced.id]);
      expect(await order(target.id, null)).toEqual([]);
    });
  });

  describe('collections holding spaces', () => {
    it('deleting a collection sends its spaces, also those of sub-collections, to the trash', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const rootSpace = await t.factories.later.space(org);
      const inTop = await t.factories.later.space(org, { parent: top.id });
      const inSub = await t.factories.later.space(org, { parent: sub.id });
      const client = org.owner.client;
      await client.patch(spacePath(inSub.id), { visibility: 'in-collection' }).expect(200);

      await client.delete(collectionPath(top.id)).expect(204);
      for (const trashed of [inTop, inSub]) {
        const read = await client.get(spacePath(trashed.id)).expect(200);
        expect(read.body.deletedAt).toBeDefined();
      }
      expect(await listed(client, spacesPath(org))).toEqual([rootSpace.id]);

      const restored = await client.post(`${spacePath(inSub.id)}/restore`).expect(200);
      expectConforms(restored, 'restoreSpace');
      expect(restored.body.parent).toBeUndefined();
      expect(restored.body.visibility).toBe('private');
      await client.post(`${spacePath(inTop.id)}/restore`).expect(200);
      expect(await order(org.id, null)).toEqual([rootSpace.id, inSub.id, inTop.id]);
      expect(await listed(client, spacesPath(org))).toEqual([rootSpace.id, inTop.id, inSub.id]);
    });

    it('transferring a collection takes its spaces along and drops their grants', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const inTop = await t.factories.later.space(org, { parent: top.id });
      const inSub = await t.factories.later.space(org, { parent: sub.id });
      const trashed = await t.factories.later.space(org, { parent: top.id });
      const outside = await t.factories.later.space(org);
      const client = org.owner.client;
      await client.delete(spacePath(trashed.id)).expect(204);
      const member = await t.factories.member(org, 'read');
      await grant(org.id, { type: 'space', id: inSub.id }, member.id, 'admin');

      const res = await client
        .post(`${collectionPath(top.id)}/transfer`, { organization: target.id })
        .expect(200);
      expectConforms(res, 'transferCollection');
      expect((await client.get(spacePath(inTop.id))).body).toMatchObject({
        organization: target.id,
        parent: top.id,
      });
      expect((await client.get(spacePath(inSub.id))).body).toMatchObject({
        organization: target.id,
        parent: sub.id,
      });
      expect((await listed(client, spacesPath(target))).sort()).toEqual(
        [inTop.id, inSub.id].sort(),
      );
      expect(await listed(client, spacesPath(org))).toEqual([outside.id]);
      expect(await grantsOn(inSub.id)).toEqual([]);
      expectError(await member.client.get(spacePath(inSub.id)), 404, 'Space not found');
      // A space in the trash goes along, and comes back in its collection in the new organization.
      const restored = await client.post(`${spacePath(trashed.id)}/restore`).expect(200);
      expect(restored.body).toMatchObject({ organization: target.id, parent: top.id });
      expect(await order(target.id, top.id)).toEqual([sub.id, inTop.id, trashed.id]);
    });

    it('refuses (412) to transfer a collection holding a space synced with Git', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const synced = await t.factories.later.space(org, { parent: sub.id });
      await t.dataSource.query(`UPDATE spaces SET git_sync = '{"repoName":"a/b"}' WHERE id = $1`, [
        synced.id,
      ]);
      const res = await org.owner.client.post(`${collectionPath(top.id)}/transfer`, {
        organization: target.id,
      });
      expectError(res, 412, 'Git');
      expectConforms(res, 'transferCollection');
      expect((await org.owner.client.get(collectionPath(top.id))).body.organization).toBe(org.id);
    });

    it('moves a collection before or after a space sibling', async () => {
      const org = await t.factories.organization();
      const s1 = await t.factories.later.space(org);
      const col = await t.factories.later.collection(org);
      const s2 = await t.factories.later.space(org);
      const client = org.owner.client;
      const res = await client
        .post(`${collectionPath(col.id)}/move`, {
          position: { before: { type: 'space', space: s1.id } },
        })
        .expect(200);
      expectConforms(res, 'moveCollection');
      expect(await order(org.id, null)).toEqual([col.id, s1.id, s2.id]);
      await client
        .post(`${collectionPath(col.id)}/move`, {
          position: { after: { type: 'space', space: s2.id } },
        })
        .expect(200);
      expect(await order(org.id, null)).toEqual([s1.id, s2.id, col.id]);
      expectError(
        await client.post(`${collectionPath(col.id)}/move`, {
          position: { after: { type: 'space', space: s2.id } },
        }),
        409,
        'would not change',
      );
    });

    it('refuses (400) to move a collection into its own descendant', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const deeper = await t.factories.later.collection(org, { parent: sub.id });
      const inside = await t.factories.later.space(org, { parent: deeper.id });
      const res = await org.owner.client.post(`${collectionPath(top.id)}/move`, {
        parent: deeper.id,
      });
      expectError(res, 400, 'parent');
      expectConforms(res, 'moveCollection');
      expect(await order(org.id, null)).toEqual([top.id]);
      expect(await order(org.id, deeper.id)).toEqual([inside.id]);
    });
  });
});
