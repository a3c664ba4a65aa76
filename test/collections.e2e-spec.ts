import { ContentGrant } from '../src/collections/entities/content-grant.entity';
import { newId } from '../src/platform/ids/ids';
import type { Role } from '../src/platform/policy/roles';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import { TestOrganization } from './helpers/factories';

const collectionsPath = (org: TestOrganization) => `/v1/orgs/${org.id}/collections`;
const collectionPath = (id: string) => `/v1/collections/${id}`;
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('collections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function grant(org: TestOrganization, collectionId: string, userId: string, role: Role) {
    await t.dataSource.getRepository(ContentGrant).insert({
      id: newId(),
      organizationId: org.id,
      resourceType: 'collection',
      resourceId: collectionId,
      userId,
      teamId: null,
      role,
      createdAt: new Date(),
    });
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  describe('POST /v1/orgs/{organizationId}/collections (createCollection)', () => {
    it('creates a collection, read back, with a Location', async () => {
      const org = await t.factories.organization();
      const creator = await t.factories.asMember(org, 'create');
      const res = await creator.post(collectionsPath(org), { title: 'Guides' }).expect(201);
      expectConforms({ status: 201, body: res.body }, 'createCollection');
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(res.body).toMatchObject({
        object: 'collection',
        title: 'Guides',
        organization: org.id,
        defaultLevel: 'inherit',
        permissions: { view: true, admin: false, create: true },
      });
      expect(res.body.urls.app).toContain(`/o/${org.id}/c/${res.body.id}`);
      const read = await creator.get(collectionPath(res.body.id)).expect(200);
      expect(read.body.title).toBe('Guides');
    });

    it('defaults the title to Untitled and nests under a parent', async () => {
      const org = await t.factories.organization();
      const parent = await t.factories.later.collection(org, { title: 'Parent' });
      const child = await t.factories.later.collection(org, { parent: parent.id });
      expect(child).toMatchObject({ title: 'Untitled', parent: parent.id });
    });

    it('lets a guest with create on the parent create inside it, not at the root', async () => {
      const org = await t.factories.organization();
      const parent = await t.factories.later.collection(org);
      const guest = await t.factories.member(org, null);
      await grant(org, parent.id, guest.id, 'create');
      await guest.client.post(collectionsPath(org), { parent: parent.id }).expect(201);
      expectError(await guest.client.post(collectionsPath(org), {}), 403, 'create');
    });

    it('answers 400 for a long title, an unknown field, or a parent of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.later.collection(await t.factories.organization());
      expectError(
        await org.owner.client.post(collectionsPath(org), { title: 'x'.repeat(51) }),
        400,
        'title',
      );
      expectError(await org.owner.client.post(collectionsPath(org), { emoji: 'x' }), 400, 'emoji');
      expectError(
        await org.owner.client.post(collectionsPath(org), { parent: other.id }),
        400,
        'parent',
      );
    });

    it('answers 403 for a read member, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.post(collectionsPath(org), {}), 403, 'create');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.post(collectionsPath(org), {}), 404, 'Organization');
    });
  });

  describe('GET /v1/orgs/{organizationId}/collections (listCollectionsInOrganizationById)', () => {
    it('lists oldest first across pages, nested or top-level only', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org, { title: 'A' });
      const b = await t.factories.later.collection(org, { title: 'B', parent: a.id });
      const c = await t.factories.later.collection(org, { title: 'C' });
      await t.factories.later.collection(await t.factories.organization());
      const reader = await t.factories.asMember(org, 'read');

      const page1 = await reader.get(`${collectionsPath(org)}?limit=2`).expect(200);
      expectConforms(page1, 'listCollectionsInOrganizationById');
      expect(page1.body.count).toBe(3);
      expect(ids(page1.body)).toEqual([a.id, b.id]);
      const page2 = await reader
        .get(`${collectionsPath(org)}?limit=2&page=${page1.body.next.page}`)
        .expect(200);
      expect(ids(page2.body)).toEqual([c.id]);
      expect(page2.body.next).toBeUndefined();

      const top = await reader.get(`${collectionsPath(org)}?nested=false`).expect(200);
      expectConforms(top, 'listCollectionsInOrganizationById');
      expect(ids(top.body)).toEqual([a.id, c.id]);
    });

    it('shows a guest only the collections granted to it and their sub-collections', async () => {
      const org = await t.factories.organization();
      const granted = await t.factories.later.collection(org);
      const inside = await t.factories.later.collection(org, { parent: granted.id });
      await t.factories.later.collection(org);
      const guest = await t.factories.member(org, null);
      expect((await guest.client.get(collectionsPath(org)).expect(200)).body.items).toEqual([]);
      await grant(org, granted.id, guest.id, 'edit');
      const res = await guest.client.get(collectionsPath(org)).expect(200);
      expectConforms(res, 'listCollectionsInOrganizationById');
      expect(ids(res.body)).toEqual([granted.id, inside.id]);
      expect(res.body.count).toBe(2);
    });

    it('answers 400 for a bad nested or limit, 404 for another organization', async () => {
      const org = await t.factories.organization();
      expectError(
        await org.owner.client.get(`${collectionsPath(org)}?nested=maybe`),
        400,
        'nested',
      );
      expectError(await org.owner.client.get(`${collectionsPath(org)}?limit=0`), 400, 'limit');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.get(collectionsPath(org)), 404, 'Organization');
    });
  });

  describe('GET /v1/collections/{collectionId} (getCollectionById)', () => {
    it('answers the collection with the caller’s permissions', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org, { title: 'Mine' });
      const admin = await org.owner.client.get(collectionPath(col.id)).expect(200);
      expectConforms(admin, 'getCollectionById');
      expect(admin.body.permissions).toEqual({
        view: true,
        admin: true,
        viewInviteLinks: true,
        create: true,
      });
      const reader = await t.factories.asMember(org, 'read');
      const read = await reader.get(collectionPath(col.id)).expect(200);
      expect(read.body.permissions).toMatchObject({ admin: false, create: false });
    });

    it('gives a grant on an ancestor to the sub-collections', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const reader = await t.factories.member(org, 'read');
      await grant(org, top.id, reader.id, 'admin');
      const res = await reader.client.get(collectionPath(sub.id)).expect(200);
      expect(res.body.permissions.admin).toBe(true);
    });

    it('answers 404 for an unknown id, another organization, and an ungranted guest', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const unknown = await org.owner.client.get(collectionPath('nope'));
      expectError(unknown, 404, 'Collection not found');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.get(collectionPath(col.id)), 404, 'Collection not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(collectionPath(col.id)), 404, 'Collection not found');
    });
  });

  describe('PATCH /v1/collections/{collectionId} (updateCollectionById)', () => {
    it('updates title, description and default level; null clears the description', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const res = await org.owner.client
        .patch(collectionPath(col.id), { title: 'New', description: 'About', defaultLevel: 'edit' })
        .expect(200);
      expectConforms(res, 'updateCollectionById');
      expect(res.body).toMatchObject({ title: 'New', description: 'About', defaultLevel: 'edit' });
      const cleared = await org.owner.client
        .patch(collectionPath(col.id), { description: null })
        .expect(200);
      expect(cleared.body.description).toBeUndefined();
      expect((await org.owner.client.get(collectionPath(col.id))).body.title).toBe('New');
    });

    it('raises members to the default level, inherited by sub-collections, not guests', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const reader = await t.factories.asMember(org, 'read');
      await org.owner.client.patch(collectionPath(top.id), { defaultLevel: 'admin' }).expect(200);
      const res = await reader.get(collectionPath(sub.id)).expect(200);
      expect(res.body.permissions.admin).toBe(true);
      await org.owner.client.patch(collectionPath(sub.id), { defaultLevel: null }).expect(200);
      expect((await reader.get(collectionPath(sub.id))).body.permissions.admin).toBe(false);
      const guest = await t.factories.asMember(org, null);
      await guest.get(collectionPath(top.id)).expect(404);
    });

    it('answers 400 for bad fields, 403 for a read member, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const client = org.owner.client;
      expectError(
        await client.patch(collectionPath(col.id), { title: 'x'.repeat(51) }),
        400,
        'title',
      );
      expectError(
        await client.patch(collectionPath(col.id), { description: 'x'.repeat(101) }),
        400,
        'description',
      );
      expectError(
        await client.patch(collectionPath(col.id), { defaultLevel: 'owner' }),
        400,
        'defaultLevel',
      );
      expectError(await client.patch(collectionPath(col.id), { title: null }), 400, 'title');
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.patch(collectionPath(col.id), { title: 'No' }), 403, 'admin');
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.patch(collectionPath(col.id), { title: 'No' }), 404, 'Collection');
      expectError(await client.patch(collectionPath('nope'), { title: 'No' }), 404, 'Collection');
    });
  });

  describe('DELETE /v1/collections/{collectionId} (deleteCollectionById)', () => {
    it('deletes it and its sub-collections', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const res = await org.owner.client.delete(collectionPath(top.id)).expect(204);
      expectConforms(res, 'deleteCollectionById');
      await org.owner.client.get(collectionPath(top.id)).expect(404);
      await org.owner.client.get(collectionPath(sub.id)).expect(404);
    });

    it('answers 204 for an unknown id and for another organization’s collection, untouched', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      await org.owner.client.delete(collectionPath('nope')).expect(204);
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.delete(collectionPath(col.id)).expect(204);
      await org.owner.client.get(collectionPath(col.id)).expect(200);
    });

    it('answers 403 for a read member', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.delete(collectionPath(col.id)), 403, 'admin');
      await org.owner.client.get(collectionPath(col.id)).expect(200);
    });
  });

  describe('GET /v1/collections/{collectionId}/spaces (listSpacesInCollectionById)', () => {
    const spacesOf = (id: string) => `${collectionPath(id)}/spaces`;

    it('lists only the live spaces directly in the collection, oldest first, across pages', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: col.id });
      const sibling = await t.factories.later.collection(org);
      const a = await t.factories.later.space(org, { parent: col.id });
      await t.factories.later.space(org, { parent: sub.id });
      await t.factories.later.space(org);
      await t.factories.later.space(org, { parent: sibling.id });
      const b = await t.factories.later.space(org, { parent: col.id });
      const trashed = await t.factories.later.space(org, { parent: col.id });
      await org.owner.client.delete(`/v1/spaces/${trashed.id}`).expect(204);
      const reader = await t.factories.asMember(org, 'read');

      const res = await reader.get(spacesOf(col.id)).expect(200);
      expectConforms(res, 'listSpacesInCollectionById');
      expect(ids(res.body)).toEqual([a.id, b.id]);
      expect(res.body.count).toBe(2);
      expect(res.body.items[0]).toMatchObject({
        object: 'space',
        parent: col.id,
        permissions: { view: true, edit: false, admin: false },
      });

      const page1 = await reader.get(`${spacesOf(col.id)}?limit=1`).expect(200);
      expectConforms(page1, 'listSpacesInCollectionById');
      expect(ids(page1.body)).toEqual([a.id]);
      expect(page1.body.count).toBe(2);
      const page2 = await reader
        .get(`${spacesOf(col.id)}?limit=1&page=${page1.body.next.page}`)
        .expect(200);
      expect(ids(page2.body)).toEqual([b.id]);
      expect(page2.body.next).toBeUndefined();

      // The spaces left out above are listed where they are.
      expect((await reader.get(spacesOf(sibling.id)).expect(200)).body.count).toBe(1);
      expect((await reader.get(spacesOf(sub.id)).expect(200)).body.count).toBe(1);
    });

    it('shows a guest the spaces of a collection granted to it or above, with that role', async () => {
      const org = await t.factories.organization();
      const top = await t.factories.later.collection(org);
      const inner = await t.factories.later.collection(org, { parent: top.id });
      const inside = await t.factories.later.space(org, { parent: inner.id });
      const guest = await t.factories.member(org, null);
      expectError(await guest.client.get(spacesOf(inner.id)), 404, 'Collection');
      await grant(org, top.id, guest.id, 'edit');
      const res = await guest.client.get(spacesOf(inner.id)).expect(200);
      expectConforms(res, 'listSpacesInCollectionById');
      expect(ids(res.body)).toEqual([inside.id]);
      expect(res.body.items[0].permissions).toMatchObject({ edit: true, admin: false });
    });

    it('answers 400 for a bad limit, 404 for unknown or another organization', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      expectError(
        await org.owner.client.get(`${collectionPath(col.id)}/spaces?limit=x`),
        400,
        'limit',
      );
      expectError(
        await org.owner.client.get(`${collectionPath('nope')}/spaces`),
        404,
        'Collection',
      );
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await stranger.get(`${collectionPath(col.id)}/spaces`), 404, 'Collection');
    });
  });

  describe('POST /v1/collections/{collectionId}/move (moveCollection)', () => {
    async function order(org: TestOrganization, parent?: string): Promise<string[]> {
      const res = await org.owner.client.get(`${collectionsPath(org)}?limit=1000`).expect(200);
      // Positions are not exposed; read them from the table, ordered like the API orders siblings.
      const rows: { id: string }[] = await t.dataSource.query(
        `SELECT id FROM collections WHERE organization_id = $1 AND parent_id IS NOT DISTINCT FROM $2
          ORDER BY position, id`,
        [org.id, parent ?? null],
      );
      expect(res.body.count).toBeGreaterThanOrEqual(rows.length);
      return rows.map((row) => row.id);
    }

    it('reorders among siblings and moves into another parent and back to the root', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org);
      const b = await t.factories.later.collection(org);
      const c = await t.factories.later.collection(org);
      const res = await org.owner.client
        .post(`${collectionPath(c.id)}/move`, {
          position: { before: { type: 'collection', collection: a.id } },
        })
        .expect(200);
      expectConforms(res, 'moveCollection');
      expect(await order(org)).toEqual([c.id, a.id, b.id]);
      await org.owner.client
        .post(`${collectionPath(c.id)}/move`, {
          position: { after: { type: 'collection', collection: a.id } },
        })
        .expect(200);
      expect(await order(org)).toEqual([a.id, c.id, b.id]);

      const moved = await org.owner.client
        .post(`${collectionPath(b.id)}/move`, { parent: a.id })
        .expect(200);
      expect(moved.body.parent).toBe(a.id);
      expect(await order(org, a.id)).toEqual([b.id]);
      const back = await org.owner.client
        .post(`${collectionPath(b.id)}/move`, { parent: null })
        .expect(200);
      expect(back.body.parent).toBeUndefined();
      expect(await order(org)).toEqual([a.id, c.id, b.id]);
    });

    it('renumbers the siblings when no gap is left', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org);
      const b = await t.factories.later.collection(org);
      const c = await t.factories.later.collection(org);
      await t.dataSource.query(`UPDATE collections SET position = 1 WHERE id = $1`, [a.id]);
      await t.dataSource.query(`UPDATE collections SET position = 2 WHERE id = $1`, [b.id]);
      await org.owner.client
        .post(`${collectionPath(c.id)}/move`, {
          position: { after: { type: 'collection', collection: a.id } },
        })
        .expect(200);
      expect(await order(org)).toEqual([a.id, c.id, b.id]);
    });

    it('answers 400 for an empty body, a move into itself or a descendant, and foreign siblings', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org);
      const sub = await t.factories.later.collection(org, { parent: a.id });
      const b = await t.factories.later.collection(org);
      const move = (id: string, body: object) =>
        org.owner.client.post(`${collectionPath(id)}/move`, body);
      expectError(await move(a.id, {}), 400, 'parent');
      expectError(await move(a.id, { parent: a.id }), 400, 'parent');
      expectError(await move(a.id, { parent: sub.id }), 400, 'parent');
      expectError(
        await move(b.id, { position: { before: { type: 'collection', collection: sub.id } } }),
        400,
        `collection ${sub.id} is not in the target organization root`,
      );
      expectError(
        await move(b.id, { position: { before: { type: 'space', space: 'sp1' } } }),
        400,
        'space sp1 is not in the target organization root',
      );
      expectError(
        await move(b.id, { position: { before: { type: 'page', page: 'p' } } }),
        400,
        'type',
      );
    });

    it('answers 400 for an unknown target parent, 404 for an unknown collection, 409 when nothing changes', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org);
      const b = await t.factories.later.collection(org);
      const move = (id: string, body: object) =>
        org.owner.client.post(`${collectionPath(id)}/move`, body);
      // The seed: "400 invalid position space or collection"; another organization's
      // collection is answered as an unknown one.
      const unknown = await move(a.id, { parent: 'nope' });
      expectError(unknown, 400, 'parent: no collection nope in this organization.');
      expectConforms(unknown, 'moveCollection');
      const foreign = await t.factories.later.collection(await t.factories.organization());
      expectError(
        await move(a.id, { parent: foreign.id }),
        400,
        `parent: no collection ${foreign.id} in this organization.`,
      );
      expectError(await move('nope', { parent: null }), 404, 'Collection not found');
      const same = await move(b.id, { parent: null });
      expectError(same, 409, 'would not change');
      expectConforms(same, 'moveCollection');
      expectError(
        await move(a.id, { position: { before: { type: 'collection', collection: b.id } } }),
        409,
        'would not change',
      );
    });

    it('answers 403 for a read member, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.later.collection(org);
      await t.factories.later.collection(org);
      const reader = await t.factories.asMember(org, 'read');
      expectError(
        await reader.post(`${collectionPath(a.id)}/move`, { parent: null }),
        403,
        'admin',
      );
      const stranger = (await t.factories.organization()).owner.client;
      expectError(
        await stranger.post(`${collectionPath(a.id)}/move`, { parent: null }),
        404,
        'Collection',
      );
    });
  });

  describe('POST /v1/collections/{collectionId}/transfer (transferCollection)', () => {
    it('moves it and its sub-collections to the other organization root, dropping grants', async () => {
      const org = await t.factories.organization();
      const target = await t.factories.organization({ owner: org.owner });
      const parent = await t.factories.later.collection(org);
      const top = await t.factories.later.collection(org, { parent: parent.id });
      const sub = await t.factories.later.collection(org, { parent: top.id });
      const guest = await t.factories.member(org, null);
      await grant(org, top.id, guest.id, 'read');
      await guest.client.get(collectionPath(sub.id)).expect(200);

      const res = await org.owner.client
        .post(`${collectionPath(top.id)}/transfer`, { organization: target.id })
        .expect(200);
      expectConforms(res, 'transferCollection');
      expect(res.body.organization).toBe(target.id);
      expect(res.body.parent).toBeUndefined();
      const subRead = await org.owner.client.get(collectionPath(sub.id)).expect(200);
      expect(subRead.body).toMatchObject({ organization: target.id, parent: top.id });
      const listed = await org.owner.client.get(collectionsPath(target)).expect(200);
      expect(ids(listed.body).sort()).toEqual([top.id, sub.id].sort());
      await guest.client.get(collectionPath(sub.id)).expect(404);
      const grants = await t.dataSource.query(
        `SELECT 1 FROM content_grants WHERE resource_id = $1`,
        [top.id],
      );
      expect(grants).toEqual([]);
    });

    it('answers 409 for its own organization, 404 for an unknown one, 403 without admin in the target', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const transfer = (body: object) =>
        org.owner.client.post(`${collectionPath(col.id)}/transfer`, body);
      const same = await transfer({ organization: org.id });
      expectError(same, 409, 'already');
      expectConforms(same, 'transferCollection');
      const unknown = await transfer({ organization: 'nope' });
      expectError(unknown, 404, 'Organization not found');
      expectConforms(unknown, 'transferCollection');
      const other = await t.factories.organization();
      await t.factories.member(other, 'read');
      expectError(await transfer({ organization: other.id }), 404, 'Organization');
      expectError(await transfer({}), 400, 'organization');
      const elsewhere = await t.factories.organization();
      const memberThere = await t.dataSource.query(
        `INSERT INTO organization_members (organization_id, user_id, role, sso, disabled, joined_at)
         VALUES ($1, $2, 'read', false, false, now()) RETURNING user_id`,
        [elsewhere.id, org.owner.id],
      );
      expect(memberThere).toHaveLength(1);
      expectError(await transfer({ organization: elsewhere.id }), 403, 'admin');
    });

    it('answers 403 for a read member, 404 for another organization', async () => {
      const org = await t.factories.organization();
      const col = await t.factories.later.collection(org);
      const reader = await t.factories.asMember(org, 'read');
      const stranger = await t.factories.organization();
      expectError(
        await reader.post(`${collectionPath(col.id)}/transfer`, { organization: stranger.id }),
        403,
        'admin',
      );
      expectError(
        await stranger.owner.client.post(`${collectionPath(col.id)}/transfer`, {
          organization: stranger.id,
        }),
        404,
        'Collection',
      );
    });
  });
});
